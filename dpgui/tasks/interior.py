"""Interior point by TreeLog (paper 002 Alg. 1), threshold learning through an interior point (paper 002
s7), and rectangle learning by private quantiles of the positives (paper 000 s3.5, spec 000 s4.5).

TreeLog releases an interior point, not a median, so it is registered for INTERIOR_POINT only. Its
``predicted_error`` is in the unit of "em-interior", the records needed for the guarantee, so ``auto``
picks the engine with the smallest requirement (the exponential mechanism on every realistic domain;
spec 002 s8).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from dpgui.algorithms.heavypaths import HeavyPathsParameters, heavypaths, heavypaths_min_n
from dpgui.algorithms.learners.ip_threshold import InteriorSolver, IPThresholdParameters, ip_threshold
from dpgui.algorithms.progress import AlgorithmRun
from dpgui.algorithms.rectangles import AxisPositives, BoxParameters, BoxRelease, quantile_box
from dpgui.algorithms.treelog import MAX_BITS, TreeLogParameters, bit_chain, treelog, treelog_min_n
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import PrivateRandom
from dpgui.tasks.learning import DIRECTION, ERROR_UNIT, _threshold_table
from dpgui.tasks.median import BETA
from dpgui.tasks.outputs import ReleaseTable, statistic_table
from dpgui.tasks.registry import AlgorithmInfo, Guarantee, PreconditionFailure, each_column_once, register
from dpgui.tasks.spec import TaskKind, TaskSpec

if TYPE_CHECKING:
    from dpgui.data.aggregate import Aggregator


def _beta(spec: TaskSpec) -> float:
    return float(spec.parameter("beta", BETA.default))


def _approximate_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon, spec.delta)


def _pure_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon)


# -- treelog ---------------------------------------------------------------------------------------------


def _treelog_bits(spec: TaskSpec) -> int:
    return max(1, spec.domain.bits)


def _treelog_unusable(spec: TaskSpec) -> str | None:
    bits = _treelog_bits(spec)
    if spec.delta <= 0:
        return "TreeLog is (ε, δ)-DP: give δ > 0, or use the exponential mechanism (em-interior)."
    if len(bit_chain(bits)) < 2:
        return (
            f"the grid's {spec.domain.size:,} points fit in {bits} bit{'s' * (bits != 1)}: "
            "TreeLog needs a grid of more than 3 bits (more than 8 points); use em-interior."
        )
    if bits > MAX_BITS:
        return f"TreeLog handles at most {MAX_BITS}-bit grids."
    return None


def _treelog_min_n(spec: TaskSpec) -> int:
    return treelog_min_n(spec.epsilon, spec.delta, _beta(spec), _treelog_bits(spec))


def _treelog_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    reason = _treelog_unusable(spec)
    if reason is not None:
        return (PreconditionFailure(reason),)
    params = TreeLogParameters.build(spec.epsilon, spec.delta, _beta(spec), _treelog_bits(spec), n)
    if params.meets_requirement:
        return ()
    need = params.n_required
    return (
        PreconditionFailure(
            f"TreeLog needs n >= {need} for ε={spec.epsilon:g}, δ={spec.delta:g}, β={_beta(spec):g} on "
            f"{_treelog_bits(spec)}-bit values; the data has {n}. Use the exponential mechanism "
            "(em-interior) or increase ε.",
            min_n=need,
        ),
    )


def _treelog_error(spec: TaskSpec, n: int) -> float:
    return float("inf") if _treelog_unusable(spec) else float(_treelog_min_n(spec))


def _interior_table(spec: TaskSpec, index: int | None, engine: str) -> ReleaseTable:
    if index is None:
        return ReleaseTable(
            ("statistic", "column", "value"),
            (("interior point", spec.columns[0], "none"),),
            (f"{engine} returned ⊥: no release; the budget is spent (never retried).",),
        )
    value = spec.domain.value_of(min(index, spec.domain.size - 1))  # padded leaves clamp (post-processing)
    return statistic_table("interior point", spec.columns[0], spec.domain, value)


def _run_treelog(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    params = TreeLogParameters.build(spec.epsilon, spec.delta, _beta(spec), _treelog_bits(spec), data.count())
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from treelog(values, counts, params, rng)
    return _interior_table(spec, release.index, "TreeLog")


TREELOG = register(
    AlgorithmInfo(
        name="treelog",
        title="TreeLog (random heavy paths)",
        task=TaskKind.INTERIOR_POINT,
        paper="Kaplan, Ligett, Mansour, Naor, Stemmer 2020 (paper 002)",
        section="002 Alg. 1, s3 (spec 002 s4-s5; REVIEW-000-002 s4a-s4c)",
        guarantee=Guarantee.APPROXIMATE,
        summary="Samples a random heavy root-to-leaf path of the bit-prefix tree, recurses on the levels "
        "where points leave it, and lifts the answer back with HeavyBin and a 4-leaf exponential "
        "mechanism. Needs (log*|X|)^2 instead of log|X| records: fewer than em-interior only on grids "
        "of more than about 1,000 bits.",
        cost=_approximate_cost,
        predicted_error=_treelog_error,
        error_unit="records needed",
        run=_run_treelog,
        parameters=(BETA,),
        preconditions=_treelog_preconditions,
    )
)


# -- heavypaths (research option) ---------------------------------------------------------------------------


def _heavypaths_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    reason = _treelog_unusable(spec)
    if reason is not None:
        return (PreconditionFailure(reason.replace("TreeLog", "HeavyPaths")),)
    params = HeavyPathsParameters.build(spec.epsilon, spec.delta, _beta(spec), _treelog_bits(spec), n)
    if params.meets_requirement:
        return ()
    return (
        PreconditionFailure(
            f"HeavyPaths (a research option) needs n >= {params.n_required} for ε={spec.epsilon:g}, "
            f"δ={spec.delta:g}, β={_beta(spec):g} on {_treelog_bits(spec)}-bit values; the data has {n}. "
            "Use em-interior.",
            min_n=params.n_required,
        ),
    )


def _run_heavypaths(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    bits = _treelog_bits(spec)
    params = HeavyPathsParameters.build(spec.epsilon, spec.delta, _beta(spec), bits, data.count())
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from heavypaths(values, counts, params, rng)
    return _interior_table(spec, release.index, "HeavyPaths")


HEAVYPATHS = register(
    AlgorithmInfo(
        name="heavypaths",
        title="HeavyPaths (research option)",
        task=TaskKind.INTERIOR_POINT,
        paper="Kaplan, Ligett, Mansour, Naor, Stemmer 2020 (paper 002)",
        section="002 s4, Alg. 2-6 (spec 002 s6; REVIEW-000-002 s4a, s4d-s4f)",
        guarantee=Guarantee.APPROXIMATE,
        summary="Sparse-vector stopping point over deterministic heavy paths, one random path, then "
        "LevelUp steps. Research option: its n_required (about 4e5 at ε=1, δ=1e-6) far exceeds TreeLog's "
        "and em-interior's on every realistic grid.",
        cost=_approximate_cost,
        predicted_error=lambda spec, n: (
            float("inf")
            if _treelog_unusable(spec)
            else float(heavypaths_min_n(spec.epsilon, spec.delta, _beta(spec), _treelog_bits(spec)))
        ),
        error_unit="records needed",
        run=_run_heavypaths,
        parameters=(BETA,),
        preconditions=_heavypaths_preconditions,
    )
)


# -- threshold learning through an interior point -----------------------------------------------------------


def _ip_params(spec: TaskSpec, n: int, solver: InteriorSolver) -> IPThresholdParameters:
    return IPThresholdParameters(n, spec.domain.size, spec.epsilon, spec.delta, _beta(spec), solver)


def _ip_error(spec: TaskSpec, n: int, solver: InteriorSolver) -> float:
    if solver is InteriorSolver.TREELOG and _treelog_unusable(spec):
        return math.inf
    return _ip_params(spec, n, solver).error_rate


def _ip_preconditions(solver: InteriorSolver):
    def check(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
        failures = []
        if spec.label is None:
            failures.append(PreconditionFailure("threshold learning needs a label column."))
        if str(spec.parameter("direction", DIRECTION.default)) != "le":
            failures.append(  # under 'auto' it had released 'x <= t' for data positive above a cut
                PreconditionFailure(
                    "the interior-point reduction learns only 'le' thresholds (positive iff x <= t): "
                    "set direction le if that is the rule, or use em-threshold, which finds the direction too"
                )
            )
        if solver is InteriorSolver.TREELOG:
            reason = _treelog_unusable(spec)
            if reason is not None:
                return (*failures, PreconditionFailure(reason))
        params = _ip_params(spec, n, solver)
        if params.error_rate >= 1:
            need = math.floor(2 * params.k + 2 * params.count_margin) + 1  # the least n > 2k + 2c
            failures.append(
                PreconditionFailure(
                    f"the reduction needs n >= {need} records (2 x {params.k} for the interior-point "
                    f"solver plus the noisy-count margin); the data has {n}.",
                    min_n=need,
                )
            )
        return tuple(failures)

    return check


def _run_ip(solver: InteriorSolver):
    def run(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
        params = _ip_params(spec, data.count(), solver)
        assert spec.label is not None
        values, pos, neg = data.labelled_distinct_counts(
            spec.columns[0], spec.domain, spec.missing, spec.label, spec.positive
        )
        release = yield from ip_threshold(values, pos, neg, params, rng)
        return _threshold_table(release, spec, f"interior-point solver: {solver.value}")

    return run


for _solver, _guarantee, _cost, _engine in (
    (InteriorSolver.EM, Guarantee.PURE, _pure_cost, "exponential mechanism"),
    (InteriorSolver.TREELOG, Guarantee.APPROXIMATE, _approximate_cost, "TreeLog"),
):
    register(
        AlgorithmInfo(
            name=f"ip-reduction-{_solver.value}",
            title=f"Learning via interior point ({_engine})",
            task=TaskKind.THRESHOLD,
            paper="Kaplan et al. 2020 (paper 002), after Bun-Nissim-Stemmer-Vadhan 2015",
            section="002 s1 (spec 002 s7; REVIEW-000-002 s7 item 1)",
            guarantee=_guarantee,
            summary="Noisy class counts, then an interior point of the k largest positives and the k "
            "smallest negatives; releases 'positive iff x <= y'. Realizable data only (the direct "
            "em-threshold is better and agnostic).",
            cost=_cost,
            predicted_error=lambda spec, n, s=_solver: _ip_error(spec, n, s),
            error_unit=ERROR_UNIT,
            run=_run_ip(_solver),
            parameters=(BETA, DIRECTION),
            preconditions=_ip_preconditions(_solver),
        )
    )


# -- rectangles --------------------------------------------------------------------------------------------


def _box_params(spec: TaskSpec, n: int) -> BoxParameters:
    return BoxParameters(n, tuple(_numeric(d).size for d in spec.domains), spec.epsilon, _beta(spec))


def _numeric(domain: object) -> NumericDomain:
    if not isinstance(domain, NumericDomain):
        raise TypeError("rectangle learning needs numeric features")
    return domain


def _box_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    if spec.label is None:
        return (PreconditionFailure("rectangle learning needs a label column."),)
    if repeated := each_column_once(spec.columns):  # an axis twice: its budget spent twice on one feature
        return repeated
    params = _box_params(spec, n)
    if params.error_rate < 1:
        return ()
    need = n
    while _box_params(spec, need).error_rate >= 1:
        need *= 2
    return (
        PreconditionFailure(
            f"the quantile box guarantees nothing below about {need} records at ε={spec.epsilon:g} on "
            f"{len(spec.columns)} axes; the data has {n}.",
            min_n=need,
        ),
    )


def _run_box(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    assert spec.label is not None
    params = _box_params(spec, data.count())
    axes = []
    for column, domain in zip(spec.columns, spec.domains, strict=True):
        values, pos, _ = data.labelled_distinct_counts(
            column, _numeric(domain), spec.missing, spec.label, spec.positive
        )
        keep = pos > 0
        axes.append(AxisPositives(values[keep], pos[keep], _numeric(domain).size))
    release = yield from quantile_box(axes, params, rng)
    return box_table(spec, release)


def box_table(spec: TaskSpec, release: BoxRelease) -> ReleaseTable:
    if release.box is None:
        return ReleaseTable(
            ("feature", "lower", "upper"),
            tuple((column, "empty", "empty") for column in spec.columns),
            ("EMPTY rectangle: predict negative everywhere",),
        )
    rows = tuple(
        (column, _numeric(domain).value_of(lo), _numeric(domain).value_of(hi))
        for column, domain, (lo, hi) in zip(spec.columns, spec.domains, release.box, strict=True)
    )
    return ReleaseTable(("feature", "lower", "upper"), rows, ("predict positive inside the box",))


QUANTILE_BOX = register(
    AlgorithmInfo(
        name="quantile-box",
        title="Private quantiles of the positives (axis-aligned box)",
        task=TaskKind.RECTANGLE,
        paper="Beimel, Nissim, Stemmer (paper 000); Smith 2011 (exponential-mechanism quantiles)",
        section="000 s3.5, Thm 3.21-3.22 (spec 000 s4.5; REVIEW-000-002 s6)",
        guarantee=Guarantee.PURE,
        summary="On every axis, a low and a high private quantile of the positives (negatives encoded as a "
        "sentinel so each axis input keeps n entries); no false positives on realizable data.",
        cost=_pure_cost,
        predicted_error=lambda spec, n: _box_params(spec, n).error_rate,
        error_unit=ERROR_UNIT,
        run=_run_box,
        parameters=(BETA,),
        preconditions=_box_preconditions,
    )
)
