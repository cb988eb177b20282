"""One row per algorithm of a task: predicted error, minimum n, epsilon needed, feasibility, auto's pick.

Built on the registry's public cost, predicted-error and precondition functions, so a planner row exists
for every registered algorithm without extra code. Monotone searches assume what the tests check: more
epsilon or more n never predicts more error.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

from dpgui.tasks.registry import AlgorithmInfo, ErrorPart, Guarantee, algorithms
from dpgui.tasks.runner import PreconditionFailed, choose_auto
from dpgui.tasks.simulation import expected_error
from dpgui.tasks.spec import TaskSpec

MAX_N = 10**13
EPSILON_RANGE = (1e-4, 50.0)


@dataclass(frozen=True)
class PlanRow:
    algorithm: str
    title: str
    guarantee: str
    pure: bool
    predicted_error: float
    error_unit: str
    feasible: bool
    reason: str
    min_n: int | None
    epsilon_for_target: float | None
    auto: bool
    simulated_error: float | None = None
    """For a calibrated algorithm: its mean error in seeded simulations (what ``auto`` ranks by)."""
    parts: tuple[ErrorPart, ...] = ()
    """The predicted error part by part (a synthetic table: per marginal); empty when infeasible."""


def _concrete(spec: TaskSpec, info: AlgorithmInfo) -> TaskSpec:
    return spec.with_algorithm(info.name)


def _fits(info: AlgorithmInfo, spec: TaskSpec, n: int, target: float | None) -> bool:
    if info.preconditions(spec, n):
        return False
    return target is None or info.predicted_error(spec, n) <= target


def min_n(info: AlgorithmInfo, spec: TaskSpec, target: float | None) -> int | None:
    """Smallest n meeting the preconditions (and the target error, if given); None beyond 10^13."""
    spec = _concrete(spec, info)
    low, high = 0, 1  # low never fits (0 records meet nothing), high does once the doubling stops
    while not _fits(info, spec, high, target):
        if high >= MAX_N:
            return None
        low, high = high, min(2 * high, MAX_N)
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if _fits(info, spec, middle, target) else (middle, high)
    return high


def epsilon_for(info: AlgorithmInfo, spec: TaskSpec, n: int, target: float) -> float | None:
    """Smallest epsilon whose predicted error at this n is at most ``target`` (None if out of range)."""

    def fits(epsilon: float) -> bool:
        candidate = dataclasses.replace(_concrete(spec, info), epsilon=epsilon)
        return _fits(info, candidate, n, target)

    low, high = EPSILON_RANGE
    if not fits(high):
        return None
    for _ in range(100):
        middle = math.sqrt(low * high)
        low, high = (low, middle) if fits(middle) else (middle, high)
    return high


def check_plan_inputs(n: int, target_error: float | None = None) -> None:
    """ValueError unless the planned row count is 1 to ``MAX_N`` and a target error a finite number > 0."""
    if not 1 <= n <= MAX_N:
        raise ValueError(f"--n must be at least 1 and at most {MAX_N:,} (the number of records), got {n:,}")
    if target_error is not None and not (math.isfinite(target_error) and target_error > 0):
        raise ValueError(f"--target-error must be a finite number > 0, got {target_error:g}")


def plan(spec: TaskSpec, n: int, target_error: float | None = None) -> list[PlanRow]:
    """Rows for every algorithm of the spec's task at the public row count n."""
    try:
        chosen = choose_auto(spec, n)[0].name
    except PreconditionFailed:
        chosen = None
    rows = []
    for info in algorithms(spec.kind):
        concrete = _concrete(spec, info)
        cost = info.cost(concrete)
        failures = info.preconditions(concrete, n)
        needs_delta = spec.delta == 0 and not cost.is_pure
        reason = "; ".join(f.message for f in failures) or ("needs δ > 0" if needs_delta else "")
        rows.append(
            PlanRow(
                algorithm=info.name,
                title=info.title,
                guarantee=info.guarantee_for(concrete).value,
                pure=cost.is_pure and info.guarantee_for(concrete) is Guarantee.PURE,
                predicted_error=info.predicted_error(concrete, n),
                error_unit=info.error_unit,
                feasible=not failures and not needs_delta,
                reason=reason,
                min_n=min_n(info, spec, target_error),
                epsilon_for_target=None if target_error is None else epsilon_for(info, spec, n, target_error),
                auto=info.name == chosen,
                simulated_error=(
                    expected_error(concrete, n)
                    if info.calibrated and not failures and not needs_delta
                    else None
                ),
                parts=() if failures or needs_delta else info.error_parts(concrete, n),
            )
        )
    return rows


def error_curve(spec: TaskSpec, n: int, epsilons: list[float]) -> dict[str, list[float]]:
    """Predicted error against epsilon for each algorithm (the budget page's plot)."""
    return {
        info.name: [
            info.predicted_error(dataclasses.replace(_concrete(spec, info), epsilon=eps), n)
            for eps in epsilons
        ]
        for info in algorithms(spec.kind)
    }
