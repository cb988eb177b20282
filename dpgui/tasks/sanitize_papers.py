"""The papers' sanitizers as CDF and HISTOGRAM algorithms: SanThresholds, PAP, SanPoints, k-POINT.

* ``san-thresholds`` (CDF, approximate DP): paper 000 Fig. 11, spec 000 s5.3.
* ``pap`` (CDF, pure DP, needs a public sample): paper 001 Alg. 3, spec 001 s3.3.
* ``san-points`` (HISTOGRAM, approximate DP, any domain up to 2^64 points): paper 000 Fig. 9.
* ``k-point`` (HISTOGRAM, approximate DP): paper 000 Fig. 10, SanPoints at alpha/k for set queries.

Units (those of the CDF and HISTOGRAM algorithms of dpgui/tasks/sanitize.py, so ``auto`` compares like
with like): ``predicted_error`` is the max absolute CDF error as a fraction of n (CDF), or the max absolute
count error over every value of the domain in records, i.e. n times the max frequency error (HISTOGRAM),
each holding with probability >= 1 - beta. Where SanThresholds' explicit sufficient condition on n is not
met its certified error is the trivial 1.

Output tables: CDF -> ("value", "cdf"), one row per grid point when the grid has at most STEP_ROWS_ABOVE
points; on larger grids one row per step point (the CDF is a right-continuous step function that keeps
its value until the next row). HISTOGRAM -> ("value", "frequency") for the released values only; every
other value is estimated 0.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun
from dpgui.algorithms.public_assisted import (
    DEFAULT_MAX_CELLS,
    PublicCells,
    pap_cdf,
    predicted_error,
    shift_diagnostic,
)
from dpgui.algorithms.san_points import (
    GUARANTEE_MET,
    GUARANTEE_NOT_MET,
    SanPointsPlan,
    k_point_plan,
    san_points,
)
from dpgui.algorithms.san_thresholds import SanThresholdsPlan, san_thresholds
from dpgui.data.domain import NumericDomain
from dpgui.privacy.choosing import ChoosingParameters
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.curve import DpSteps, NoiseKind, NoiseRounds, PrivacyCurve
from dpgui.privacy.random import PrivateRandom
from dpgui.tasks.median import BETA
from dpgui.tasks.outputs import ReleaseTable, cdf_meaning, histogram_meaning
from dpgui.tasks.registry import AlgorithmInfo, Guarantee, ParameterSpec, PreconditionFailure, register
from dpgui.tasks.sanitize import FREQUENCY_UNIT, STEP_ROWS_ABOVE
from dpgui.tasks.spec import TaskKind, TaskSpec

if TYPE_CHECKING:
    from dpgui.data.aggregate import Aggregator

CDF_UNIT = "max |CDF error|"

ALPHA = ParameterSpec(
    "alpha",
    float,
    0.05,
    "Accuracy target of the paper's analysis; fixes the public iteration cap.",
    1e-3,
    1.0,
)
K = ParameterSpec("k", int, 2, "Size of the value sets the k-POINT sanitizer answers (Fig. 10).", 1, 1000)
MAX_CELLS = ParameterSpec(
    "max_cells",
    int,
    DEFAULT_MAX_CELLS,
    "At most this many cells: the public points are thinned (every r-th) above it.",
    2,
    1 << 24,
    advanced=True,
)


def _alpha(spec: TaskSpec) -> float:
    return float(spec.parameter("alpha", ALPHA.default))


def _beta(spec: TaskSpec) -> float:
    return float(spec.parameter("beta", BETA.default))


def _indicator(met: bool, need: int, n: int) -> str:
    verdict = GUARANTEE_MET if met else GUARANTEE_NOT_MET
    return f"accuracy {verdict}: the paper's sufficient condition needs n >= {need:,}; the data has {n:,}"


def _approximate_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    """Approximate-DP sanitizers need delta > 0 and a numeric domain. No n is refused: they are private
    at every n (REVIEW-000-002 s2b)."""
    failures = []
    if spec.delta <= 0:
        failures.append(PreconditionFailure("this algorithm is approximate DP: set δ > 0 (e.g. 1e-6)"))
    if not isinstance(spec.domains[0], NumericDomain):
        failures.append(PreconditionFailure("this algorithm needs a numeric domain (bounds and granularity)"))
    return tuple(failures)


def _cdf_table(
    spec: TaskSpec, cdf: Callable[[np.ndarray], np.ndarray], step_points: np.ndarray, notes: tuple[str, ...]
) -> ReleaseTable:
    """Rows of (value, cdf): every grid point on small grids, else the step points (module doc)."""
    domain = spec.domain
    if domain.size <= STEP_ROWS_ABOVE:
        grid = np.arange(domain.size, dtype=np.uint64)
    else:
        grid = np.asarray(step_points, dtype=np.uint64)
        notes = (
            *notes,
            f"the grid has {domain.size:,} points: rows only where the step CDF changes; "
            "between rows the CDF keeps the previous row's value",
        )
    answers = cdf(grid).tolist()
    rows = tuple(zip(domain.values_of(grid), answers, strict=True))
    return ReleaseTable(("value", "cdf"), rows, notes, meaning=cdf_meaning(spec.columns[0], spec.domain))


# --- SanThresholds -----------------------------------------------------------------------------------


def _thresholds_plan(spec: TaskSpec) -> SanThresholdsPlan:
    return SanThresholdsPlan.for_target(spec.epsilon, spec.delta, _alpha(spec))


def _thresholds_cost(spec: TaskSpec) -> PrivacyCost:
    """The plan's composed cost (never above the request). A δ = 0 request is refused by the
    preconditions before anything is booked; its nominal price only lets ``auto`` skip it."""
    return _thresholds_plan(spec).cost if spec.delta > 0 else PrivacyCost(spec.epsilon)


def _thresholds_curve(spec: TaskSpec) -> PrivacyCurve | None:
    """Lemma 4.8's steps, each in its own form: per call (at most c) two discrete Laplace counts of scale
    1/eps_m, one exponential mechanism (pure eps_m) and one choosing run at (min(eps_m, 2), delta_m). Their
    composition is what the booked cost bounds by advanced composition."""
    if spec.delta <= 0:
        return None
    plan = _thresholds_plan(spec)
    counts = NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 1 / plan.mechanism_epsilon, 1, 2 * plan.cap)
    exponential = DpSteps(PrivacyCost(plan.mechanism_epsilon), plan.cap)
    return PrivacyCurve((counts,), steps=(exponential, _choosing_steps(plan.choosing, plan.cap)))


def _choosing_steps(choosing: ChoosingParameters, count: int) -> DpSteps:
    return DpSteps(PrivacyCost(choosing.epsilon, choosing.delta), count)


def _thresholds_error(spec: TaskSpec, n: int) -> float:
    if spec.delta <= 0:
        return 1.0
    return _thresholds_plan(spec).predicted_error(n, spec.domain.size, _beta(spec))


def _run_thresholds(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    plan = _thresholds_plan(spec)
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from san_thresholds(values, counts, spec.domain.size, plan, rng)
    n = int(np.sum(counts))
    need = plan.min_n_for_guarantee(spec.domain.size, _beta(spec))
    notes = (
        _indicator(n >= need, need, n),
        f"{len(release.points)} weighted points (cap c = {plan.cap}); {4 * plan.cap} mechanisms at "
        f"ε={plan.mechanism_epsilon:.3g}, δ={plan.mechanism_delta:.3g} each (advanced composition)",
    )
    return _cdf_table(spec, release.cdf, np.asarray(release.points, dtype=np.uint64), notes)


SAN_THRESHOLDS = register(
    AlgorithmInfo(
        name="san-thresholds",
        title="SanThresholds (private CDF, approximate DP)",
        task=TaskKind.CDF,
        paper="Beimel, Nissim, Stemmer 2013 (paper 000)",
        section="000 s4.3, Fig. 11, Thm 4.13; REVIEW-000-002 s2b, s3",
        guarantee=Guarantee.APPROXIMATE,
        summary="Splits the domain into at most 77/α intervals chosen by the choosing mechanism and "
        "releases their noisy counts as a step CDF. Private at every n; its accuracy guarantee needs "
        "billions of records (research option).",
        cost=_thresholds_cost,
        predicted_error=_thresholds_error,
        error_unit=CDF_UNIT,
        run=_run_thresholds,
        parameters=(ALPHA, BETA),
        preconditions=_approximate_preconditions,
        curve=_thresholds_curve,
    )
)


# --- PAP ---------------------------------------------------------------------------------------------


def _public_cells(spec: TaskSpec) -> PublicCells:
    assert spec.public is not None
    grid = spec.public.column_grid(spec.columns[0], spec.domain)
    return PublicCells.from_public(
        grid, spec.domain.size, int(spec.parameter("max_cells", MAX_CELLS.default))
    )


def _pap_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    if spec.public is None:
        return (
            PreconditionFailure(
                "public-data-assisted release needs a public sample of the same kind of data: "
                "load a public sample (--public FILE)"
            ),
        )
    if not isinstance(spec.domains[0], NumericDomain):
        return (PreconditionFailure("this algorithm needs a numeric domain (bounds and granularity)"),)
    if spec.public.column_values(spec.columns[0], spec.domain).size == 0:
        return (PreconditionFailure(f"the public sample has no values in column {spec.columns[0]!r}"),)
    return ()


def _pap_error(spec: TaskSpec, n: int) -> float:
    if _pap_preconditions(spec, n):
        return 1.0
    cells = _public_cells(spec)
    return predicted_error(n, cells.m, cells.n_cells, cells.stride, spec.epsilon, _beta(spec))


def _run_pap(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    cells = _public_cells(spec)
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from pap_cdf(values, counts, cells, spec.epsilon, rng)
    n = int(np.sum(counts))
    shift = shift_diagnostic(release, n, spec.epsilon, _beta(spec))
    verdict = "distribution shift suspected" if shift.shift_suspected else "no shift detected"
    notes = (
        f"{cells.n_cells} cells cut at the distinct values of {cells.m} public records (every "
        f"{cells.stride}-th kept); "
        "accuracy assumes the private data is drawn like the public sample",
        f"shift diagnostic: {verdict} (KS distance of released vs public CDF {shift.distance:.3f}, "
        f"tolerance {shift.tolerance:.3f}; released mass above the largest public value "
        f"{shift.mass_above_public:.3f})",
    )
    return _cdf_table(spec, release.cdf, release.step_points(), notes)


PAP = register(
    AlgorithmInfo(
        name="pap",
        title="Public-data-assisted CDF (PAP)",
        task=TaskKind.CDF,
        paper="Bassily, Cheu, Moran, Nikolov, Ullman, Wu 2020 (paper 001)",
        section="001 Alg. 3, Thm 10; spec 001 s3.3, s4.3",
        guarantee=Guarantee.PURE,
        summary="Cuts the domain at the public sample's values and releases noisy private counts per cell "
        "(discrete Laplace, or a tree above 1,500 cells). Pure ε for every public sample; accurate when "
        "the public sample looks like the private data (a shift diagnostic is reported).",
        cost=lambda spec: PrivacyCost(spec.epsilon),
        predicted_error=_pap_error,
        error_unit=CDF_UNIT,
        run=_run_pap,
        parameters=(MAX_CELLS, BETA),
        preconditions=_pap_preconditions,
        public_assisted=True,
    )
)


# --- SanPoints and k-POINT ---------------------------------------------------------------------------


def _k(spec: TaskSpec) -> int:
    """The set size: k-point's parameter; 1 for SanPoints itself."""
    return int(spec.parameter("k", K.default)) if spec.algorithm == "k-point" else 1


def _points_plan(spec: TaskSpec) -> SanPointsPlan:
    return k_point_plan(spec.epsilon, spec.delta, _alpha(spec), _k(spec))


def _points_cost(spec: TaskSpec) -> PrivacyCost:
    """As :func:`_thresholds_cost`."""
    return _points_plan(spec).cost if spec.delta > 0 else PrivacyCost(spec.epsilon)


def _points_curve(spec: TaskSpec) -> PrivacyCurve | None:
    """Thm 4.6's steps, each in its own form: I choosing runs at (min(eps_t, 2), delta_t) and I discrete
    Laplace counts of scale 1/eps_t (the booked cost bounds their composition by advanced composition)."""
    if spec.delta <= 0:
        return None
    plan = _points_plan(spec)
    counts = NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 1 / plan.mechanism_epsilon, 1, plan.iterations)
    return PrivacyCurve((counts,), steps=(_choosing_steps(plan.choosing, plan.iterations),))


def _points_error(spec: TaskSpec, n: int) -> float:
    """The max frequency error (the unit of every HISTOGRAM algorithm); 1 (trivial) without delta."""
    return _points_plan(spec).predicted_error(n, _beta(spec)) if spec.delta > 0 else 1.0


def _run_points(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    plan = _points_plan(spec)
    k = _k(spec)
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from san_points(values, counts, plan, rng)
    n = int(np.sum(counts))
    alpha, beta = _alpha(spec) / k, _beta(spec)
    need = plan.min_n_for_guarantee(alpha, beta)
    notes = [
        _indicator(plan.guarantee_met(n, alpha, beta), need, n),
        f"{len(release.values)} of at most {plan.iterations} values released; every other value is "
        "estimated 0",
    ]
    if k > 1:
        notes.append(f"a set of {k} values: add their frequencies (error at most {k} times a value's)")
    rows = tuple(
        (spec.domain.value_of(v), f) for v, f in sorted(zip(release.values, release.frequencies, strict=True))
    )
    meaning = histogram_meaning(spec.columns[0], spec.domain)
    return ReleaseTable(("value", "frequency"), rows, tuple(notes), meaning=meaning)


SAN_POINTS = register(
    AlgorithmInfo(
        name="san-points",
        title="SanPoints (frequent values of a huge domain, approximate DP)",
        task=TaskKind.HISTOGRAM,
        paper="Beimel, Nissim, Stemmer 2013 (paper 000)",
        section="000 s4.2, Fig. 9, Thm 4.6; REVIEW-000-002 s2b, s7",
        guarantee=Guarantee.APPROXIMATE,
        summary="Releases up to 2/α frequent values with noisy frequencies, chosen by the choosing "
        "mechanism; never enumerates the domain (up to 2^64 points, or undeclared ranges). Private at every "
        "n; its accuracy guarantee needs about a million records.",
        cost=_points_cost,
        predicted_error=_points_error,
        error_unit=FREQUENCY_UNIT,
        run=_run_points,
        parameters=(ALPHA, BETA),
        preconditions=_approximate_preconditions,
        curve=_points_curve,
        sparse=True,
    )
)

K_POINT = register(
    AlgorithmInfo(
        name="k-point",
        title="k-POINT sanitizer (set queries, approximate DP)",
        task=TaskKind.HISTOGRAM,
        paper="Beimel, Nissim, Stemmer 2013 (paper 000)",
        section="000 s4.2, Fig. 10, Thm 4.7",
        guarantee=Guarantee.APPROXIMATE,
        summary="SanPoints at α/k: answers 'what fraction of records takes one of these k values' within α "
        "by adding the released frequencies.",
        cost=_points_cost,
        predicted_error=_points_error,
        error_unit=FREQUENCY_UNIT,
        run=_run_points,
        parameters=(ALPHA, K, BETA),
        preconditions=_approximate_preconditions,
        curve=_points_curve,
        sparse=True,
    )
)
