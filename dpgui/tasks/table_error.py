"""A-priori error of the synthetic-table algorithms, marginal by marginal (issue 16, spec 005).

A marginal measured over c cells with noise of mean absolute value E|Z| per cell, at the public row count
n, is off by TV = E|Z| c / (2 n) in expectation (capped at 1): E|Z| = sqrt(2/pi) sigma for a Gaussian of
standard deviation sigma (AIM's own estimate of a measurement's error, McKenna et al. 2022 s4), and
2 p / (1 - p^2) with p = e^(-1/b) for the discrete Laplace of scale b.

The budget plans are the algorithms' own (``algorithms/marginal_table.py``): independent marginals
measure each 1-way marginal with Laplace scale 2 d / eps; MST measures each 1-way marginal at rho/3/d and
d - 1 tree pairs at rho/3/(d - 1); AIM measures each 1-way marginal at its share of ``ONE_WAY_SHARE`` and
any workload marginal it picks at least at its first round's sigma (annealing only lowers sigma), at the
resolution (declared or, where AIM would offer it, coarsened) that predicts less error.

All three are scored on the same marginals (the workload: all k-way marginals, k = AIM's workload), so
``auto`` compares like with like: a workload marginal an algorithm never measures jointly (independent
marginals' multi-column ones, MST's pairs outside its tree, every 3-way one of MST) counts as TV 1, its
dependence unknown before the data is read. MST measures a given pair with probability (d - 1) / C(d, 2)
a priori (its tree is chosen privately). Everything here is public arithmetic on the declared domains.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dpgui.algorithms.marginal_table import (
    L1_SENSITIVITY,
    MEASURE_SHARE,
    ONE_WAY_SHARE,
    ROUNDS_PER_COLUMN,
    Bins,
    coarse_candidates,
    coarse_offered,
    gaussian_sigma,
    mst_edge_rho,
    mst_one_way_rho,
    one_way_budgets,
    workload,
)
from dpgui.algorithms.pgm import Clique
from dpgui.data.domain import CategoricalDomain
from dpgui.data.missing import cell_count
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.tasks.registry import ErrorPart, ParameterSpec
from dpgui.tasks.spec import TaskSpec

COARSE_BINS = ParameterSpec(
    "coarse_bins",
    int,
    16,
    "AIM: also offer each pair with its numeric columns merged into this many adjacent bins, while the "
    "pair cell by cell would be too noisy at the round's budget (0: never). A pair too large to measure "
    "cell by cell is then learnt coarsely.",
    0,
    4096,
    advanced=True,
)


def coarse_levels(spec: TaskSpec) -> tuple[int, ...]:
    """AIM's coarsening levels of a spec: () or (coarse_bins,)."""
    bins = int(spec.parameter(COARSE_BINS.name, COARSE_BINS.default))
    return (bins,) if bins > 1 else ()


TV_UNIT = "expected TV"
TABLE_UNIT = (
    "mean expected TV over the workload's marginals (noise at the planned budget; a marginal never "
    "measured jointly counts as 1)"
)


@dataclass(frozen=True)
class MarginalPlan:
    """How an algorithm would measure one marginal: noise, scale, and its expected TV at n."""

    clique: Clique
    bins: Bins
    noise: str
    scale: float
    tv: float
    measured: float = 1.0
    """A-priori probability that the marginal is measured (MST's tree pairs: (d - 1) / C(d, 2))."""
    note: str = ""


def expected_tv(noise: str, scale: float, cells: int, n: int) -> float:
    """E|Z| c / (2 n), capped at 1, for Gaussian (sigma) or discrete Laplace (scale b) noise."""
    if noise == "discrete Gaussian":
        mean_abs = math.sqrt(2 / math.pi) * scale
    else:
        p = math.exp(-1 / scale)
        mean_abs = 2 * p / (1 - p * p)
    return min(1.0, mean_abs * cells / (2 * max(n, 1)))


def _way(spec: TaskSpec) -> int:
    return int(spec.parameter("workload", 2))


def ordered_columns(spec: TaskSpec) -> list[bool]:
    """Which columns have an order AIM's coarse candidates may merge adjacent cells along: the numeric
    ones. A categorical column's cells are never merged (its declared order means nothing)."""
    return [not isinstance(domain, CategoricalDomain) for domain in spec.domains]


def table_sizes(spec: TaskSpec) -> list[int]:
    """Cells of each column in the table's marginals: its domain's, plus the "missing" cell when missing
    values are kept (``missing.cell_count``)."""
    return [cell_count(domain, spec.missing) for domain in spec.domains]


def _cells(sizes: list[int], clique: Clique, bins: Bins) -> int:
    return math.prod(bins) if bins is not None else math.prod(sizes[i] for i in clique)


def _plan(
    clique: Clique,
    bins: Bins,
    noise: str,
    scale: float,
    sizes: list[int],
    n: int,
    *,
    measured: float = 1.0,
    note: str = "",
) -> MarginalPlan:
    tv = expected_tv(noise, scale, _cells(sizes, clique, bins), n)
    return MarginalPlan(clique, bins, noise, scale, tv, measured, note)


def independent_plans(spec: TaskSpec, n: int) -> list[MarginalPlan]:
    sizes, d = table_sizes(spec), len(spec.domains)
    scale = L1_SENSITIVITY * d / spec.epsilon
    return [_plan((j,), None, "discrete Laplace", scale, sizes, n) for j in range(d)]


def _rho(spec: TaskSpec) -> float:
    return zcdp_rho_for(PrivacyCost(spec.epsilon, spec.delta))


def mst_plans(spec: TaskSpec, n: int) -> list[MarginalPlan]:
    sizes, d, rho = table_sizes(spec), len(spec.domains), _rho(spec)
    gauss = "discrete Gaussian"
    plans = [_plan((j,), None, gauss, gaussian_sigma(mst_one_way_rho(rho, d)), sizes, n) for j in range(d)]
    if d > 1:
        chance = (d - 1) / math.comb(d, 2)
        sigma = gaussian_sigma(mst_edge_rho(rho, d)[1])
        plans += [
            _plan(pair, None, gauss, sigma, sizes, n, measured=chance, note="if in the tree")
            for pair in workload(d, 2)
        ]
    return plans


def aim_plans(spec: TaskSpec, n: int) -> list[MarginalPlan]:
    sizes, d, rho = table_sizes(spec), len(spec.domains), _rho(spec)
    gauss = "discrete Gaussian"
    one_way = one_way_budgets(sizes, rho, ONE_WAY_SHARE)
    plans = [_plan((j,), None, gauss, gaussian_sigma(one_way[j]), sizes, n) for j in range(d)]
    sigma = gaussian_sigma(MEASURE_SHARE * (rho - math.fsum(one_way)) / (ROUNDS_PER_COLUMN * d))
    ordered = ordered_columns(spec)
    multi = [c for c in workload(d, _way(spec)) if len(c) > 1]
    for clique in multi:
        levels = coarse_levels(spec) if coarse_offered(sigma, _cells(sizes, clique, None), n) else ()
        options = [
            _plan(clique, bins, gauss, sigma, sizes, n, note="first round's σ, if chosen")
            for c, bins in coarse_candidates([clique], sizes, ordered, levels)
            if c == clique
        ]
        plans.append(min(options, key=lambda plan: plan.tv))
    return plans


def workload_error(spec: TaskSpec, plans: list[MarginalPlan]) -> float:
    """Mean over the workload's marginals (and the 1-way ones) of the expected TV of the plan measuring
    each (weighted by the chance it is measured; 1 otherwise)."""
    by_clique = {plan.clique: plan for plan in plans}
    d = len(spec.domains)
    targets = [(j,) for j in range(d)] + [c for c in workload(d, _way(spec)) if len(c) > 1]
    errors = []
    for clique in targets:
        plan = by_clique.get(clique)
        errors.append(1.0 if plan is None else plan.measured * plan.tv + (1 - plan.measured))
    return math.fsum(errors) / len(errors)


def error_parts(spec: TaskSpec, plans: list[MarginalPlan]) -> tuple[ErrorPart, ...]:
    """The plans as the planner's rows: marginal, noise and scale, expected TV."""
    parts = []
    for plan in plans:
        name = " × ".join(spec.columns[i] for i in plan.clique)
        if plan.bins is not None:
            name += f" ({' × '.join(map(str, plan.bins))} bins)"
        how = f"{plan.noise}, scale {plan.scale:.4g}" + (f"; {plan.note}" if plan.note else "")
        parts.append(ErrorPart(name, how, plan.tv, TV_UNIT))
    return tuple(parts)
