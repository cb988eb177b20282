"""The median and interior-point tasks: the exponential mechanism over the declared domain."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dpgui.algorithms.interior_point import em_interior_point, em_interior_point_min_n
from dpgui.algorithms.progress import AlgorithmRun
from dpgui.algorithms.quantiles import em_quantile, em_quantile_rank_error
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import PrivateRandom
from dpgui.tasks.outputs import ReleaseTable, statistic_table
from dpgui.tasks.registry import AlgorithmInfo, Guarantee, ParameterSpec, PreconditionFailure, register
from dpgui.tasks.spec import TaskKind, TaskSpec

if TYPE_CHECKING:
    from dpgui.data.aggregate import Aggregator

BETA = ParameterSpec(
    "beta",
    float,
    0.05,
    "How sure the stated accuracy is: 0.05 means the error bound holds "
    "95% of the time (privacy does not depend on it).",
    1e-9,
    0.5,
    advanced=True,
)


def _pure_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon)


def _beta(spec: TaskSpec) -> float:
    return float(spec.parameter("beta", BETA.default))


def _run_median(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from em_quantile(values, counts, spec.domain.size, 0.5, spec.epsilon, rng)
    return statistic_table("median", spec.columns[0], spec.domain, spec.domain.value_of(release.index))


def _run_interior_point(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from em_interior_point(values, counts, spec.domain.size, spec.epsilon, rng)
    value = spec.domain.value_of(release.index)
    return statistic_table("interior point", spec.columns[0], spec.domain, value)


def _interior_point_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    need = em_interior_point_min_n(spec.domain.size, spec.epsilon, _beta(spec))
    if n >= need:
        return ()
    return (
        PreconditionFailure(
            f"the interior-point guarantee needs n >= {need} records at ε={spec.epsilon:g} on "
            f"{spec.domain.size} grid points; the data has {n}. Raise ε or coarsen the grid.",
            min_n=need,
        ),
    )


EM_MEDIAN = register(
    AlgorithmInfo(
        name="em",
        title="Exponential mechanism (median)",
        task=TaskKind.MEDIAN,
        paper="Smith 2011; Kaplan et al. 2020 (paper 002)",
        section="002 s3.1 (piecewise sampler), Lemma 2.2",
        guarantee=Guarantee.PURE,
        summary="Samples a grid point with probability ∝ exp(ε·score/2), score = −(rank distance to n/2); "
        "exact over the whole declared domain in O(n log n).",
        cost=_pure_cost,
        predicted_error=lambda spec, n: (
            em_quantile_rank_error(spec.domain.size, spec.epsilon, _beta(spec)) / max(n, 1)
        ),
        error_unit="rank error / n",
        run=_run_median,
        parameters=(BETA,),
    )
)

EM_INTERIOR_POINT = register(
    AlgorithmInfo(
        name="em-interior",
        title="Exponential mechanism (interior point)",
        task=TaskKind.INTERIOR_POINT,
        paper="Kaplan et al. 2020 (paper 002)",
        section="002 s3.1-3.2",
        guarantee=Guarantee.PURE,
        summary="Samples a grid point with probability ∝ exp(ε·min(#≤y, #≥y)/2): a point between the "
        "data's minimum and maximum with high probability.",
        cost=_pure_cost,
        predicted_error=lambda spec, n: float(
            em_interior_point_min_n(spec.domain.size, spec.epsilon, _beta(spec))
        ),
        error_unit="records needed",
        run=_run_interior_point,
        parameters=(BETA,),
        preconditions=_interior_point_preconditions,
    )
)
