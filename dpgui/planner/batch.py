"""Release plans: several releases under one budget, the budget split to balance their predicted errors.

A plan (a TOML file, :mod:`dpgui.planner.plan_file`) lists releases (task, columns, declared domain,
algorithm or ``auto``, parameters) each with a ``weight`` or a ``target_error``, and optionally one budget
(``epsilon``, ``delta``). :func:`split_plan`

* with a budget: splits epsilon to minimise the largest weighted predicted error max_i w_i err_i(eps_i)
  subject to sum_i eps_i = epsilon (basic composition, so the split is valid whatever the ledger's
  accountant later saves). The errors are the registry's a-priori bounds, non-increasing in epsilon, so a
  bisection on the common level L (each release taking the least epsilon with w_i err_i <= L) finds the
  minimax split; the budget left over at the optimum is shared in proportion;
* without one: gives each release the least epsilon meeting its target, so the plan's budget is their sum.

Delta, when the plan has one, is shared equally by the releases that may use it (``auto`` and
approximate-DP algorithms); a pure algorithm gets none. The plan also reports what the ledger's accountant
would charge for the split (:mod:`dpgui.privacy.accountant`), which is never more.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass

from dpgui.privacy.accountant import BookedRelease, compose
from dpgui.privacy.cost import PrivacyCost, basic_composition
from dpgui.tasks.registry import Guarantee, get_algorithm
from dpgui.tasks.runner import PreconditionFailed, PreparedRun, prepare
from dpgui.tasks.spec import AUTO, TaskSpec

EPSILON_RANGE = (1e-4, 50.0)
"""The per-release epsilons the planner searches (as the single-release planner does)."""
SEARCH_STEPS = 30
"""Bisection steps over epsilon's range (a ratio of 5e5: 30 halvings of its log leave 1 + 1e-8)."""


class PlanError(ValueError):
    """The plan file is malformed, or no split meets it (the message says which release and why)."""


@dataclass(frozen=True)
class PlannedRelease:
    """One release of a plan; ``spec``'s epsilon and delta are placeholders until the plan is split."""

    name: str
    spec: TaskSpec
    weight: float = 1.0
    target_error: float | None = None


@dataclass(frozen=True)
class ReleasePlan:
    """The releases and the budget for all of them (None: find the least budget meeting every target)."""

    releases: tuple[PlannedRelease, ...]
    budget: PrivacyCost | None


@dataclass(frozen=True)
class SplitRelease:
    """One release with its share of the budget, the algorithm that will run and its predicted error."""

    name: str
    prepared: PreparedRun
    predicted_error: float
    error_unit: str
    weight: float
    target_error: float | None

    @property
    def spec(self) -> TaskSpec:
        return self.prepared.spec

    @property
    def cost(self) -> PrivacyCost:
        return self.prepared.cost


@dataclass(frozen=True)
class BatchPlan:
    """A split plan: ``total`` is basic composition of the releases' costs (what is reserved at once);
    ``charged`` is what the ledger's accountant charges for them at ``total.delta``."""

    releases: tuple[SplitRelease, ...]
    objective: str
    total: PrivacyCost
    charged: PrivacyCost

    @property
    def largest_weighted_error(self) -> float:
        return max(r.weight * r.predicted_error for r in self.releases)


# -- the split -----------------------------------------------------------------------------------------


def _uses_delta(release: PlannedRelease) -> bool:
    if release.spec.algorithm == AUTO:
        return True
    return get_algorithm(release.spec.algorithm).guarantee is not Guarantee.PURE


def _with_budget(release: PlannedRelease, epsilon: float, delta: float) -> TaskSpec:
    return dataclasses.replace(release.spec, epsilon=epsilon, delta=delta)


def _error(release: PlannedRelease, epsilon: float, delta: float, n: int) -> float:
    """The predicted error of the release (auto: of the algorithm auto picks by the bounds, which the
    split compares) at (epsilon, delta)."""
    try:
        prepared = prepare(_with_budget(release, epsilon, delta), n, simulate=False)
    except (PreconditionFailed, ValueError):
        return math.inf
    return prepared.algorithm.predicted_error(prepared.spec, n)


def _refusal(release: PlannedRelease, epsilon: float, delta: float, n: int) -> str:
    """Why the release cannot run at (epsilon, delta), in its own words: a fuzzed plan's missing label,
    wrong algorithm or bad parameter all read "check its domain and algorithm, or raise the budget"."""
    try:
        prepare(_with_budget(release, epsilon, delta), n, simulate=False)
    except (PreconditionFailed, ValueError) as refused:
        return str(refused)
    return "check its domain and algorithm, or raise the budget"


def _least_epsilon(fits: Callable[[float], bool]) -> float | None:
    """The least epsilon in EPSILON_RANGE for which ``fits`` holds (monotone), or None."""
    low, high = EPSILON_RANGE
    if not fits(high):
        return None
    if fits(low):
        return low
    for _ in range(SEARCH_STEPS):
        middle = math.sqrt(low * high)
        low, high = (low, middle) if fits(middle) else (middle, high)
    return high


def split_plan(plan: ReleasePlan, n: int) -> BatchPlan:
    """Split the plan's budget (or find the least one meeting every target) at the public row count n."""
    if n < 1:
        raise PlanError("n must be at least 1")
    delta_total = plan.budget.delta if plan.budget is not None else plan.releases[0].spec.delta
    sharing = [i for i, r in enumerate(plan.releases) if _uses_delta(r)]
    for _ in range(2):  # a second pass gives the delta of releases that ran pure to the others
        share = delta_total / len(sharing) if sharing and delta_total > 0 else 0.0
        deltas = [share if i in sharing else 0.0 for i in range(len(plan.releases))]
        if plan.budget is None:
            epsilons = _meet_targets(plan, deltas, n)
            objective = "the least budget meeting every target error"
        else:
            epsilons = _minimax(plan, plan.budget.epsilon, deltas, n)
            objective = "the least largest weighted predicted error within the budget"
        prepared_runs = [  # auto by the bounds, as in the search, so the split stays balanced
            prepare(_with_budget(release, epsilon, delta), n, simulate=False)
            for release, epsilon, delta in zip(plan.releases, epsilons, deltas, strict=True)
        ]
        still = [i for i in sharing if not prepared_runs[i].cost.is_pure]
        if still == sharing or not still:
            break
        sharing = still
    releases = []
    for release, prepared in zip(plan.releases, prepared_runs, strict=True):
        releases.append(
            SplitRelease(
                release.name,
                prepared,
                prepared.algorithm.predicted_error(prepared.spec, n),
                prepared.algorithm.error_unit,
                release.weight,
                release.target_error,
            )
        )
    total = basic_composition(r.cost for r in releases)
    if plan.budget is not None:
        total = PrivacyCost(min(total.epsilon, plan.budget.epsilon), min(total.delta, plan.budget.delta))
    charged = compose([BookedRelease(r.cost, r.prepared.curve) for r in releases], total.delta).spent
    return BatchPlan(tuple(releases), objective, total, charged)


def _meet_targets(plan: ReleasePlan, deltas: list[float], n: int) -> list[float]:
    epsilons = []
    for release, delta in zip(plan.releases, deltas, strict=True):
        target = release.target_error
        assert target is not None  # load_plan checks
        epsilon = _least_epsilon(lambda eps, r=release, d=delta, t=target: _error(r, eps, d, n) <= t)
        if epsilon is None:
            raise PlanError(
                f"release {release.name!r}: no epsilon up to {EPSILON_RANGE[1]:g} predicts an error of "
                f"{target:g} at n = {n}; raise the target or n"
            )
        epsilons.append(epsilon)
    return epsilons


def _minimax(plan: ReleasePlan, epsilon_total: float, deltas: list[float], n: int) -> list[float]:
    """Per-release epsilons summing to ``epsilon_total`` that minimise max_i w_i err_i (module doc)."""
    releases = list(zip(plan.releases, deltas, strict=True))
    even = epsilon_total / len(releases)
    start = [r.weight * _error(r, even, d, n) for r, d in releases]
    for (release, delta), level in zip(releases, start, strict=True):
        if math.isinf(level):
            raise PlanError(
                f"release {release.name!r}: no algorithm fits at ε = {even:.4g} (an even share of the "
                f"budget) and n = {n}: {_refusal(release, even, delta, n)}"
            )

    def needs(level: float) -> list[float] | None:
        out = []
        for release, delta in releases:
            eps = _least_epsilon(lambda e, r=release, d=delta: r.weight * _error(r, e, d, n) <= level)
            if eps is None:
                return None
            out.append(eps)
        return out if math.fsum(out) <= epsilon_total else None

    high = max(start)  # the even split reaches this level
    best = needs(high) or [even] * len(releases)
    low = high * 1e-6
    for _ in range(SEARCH_STEPS):
        middle = math.sqrt(low * high)
        found = needs(middle)
        if found is None:
            low = middle
        else:
            high, best = middle, found
        if high / low < 1 + 1e-4:
            break
    # Share what the optimum leaves over (errors only drop), a hair under the total against rounding.
    scale = epsilon_total / math.fsum(best) * (1 - 1e-12)
    return [eps * scale for eps in best]
