"""The distance-release task (issue 5): average distance from query points to the records (paper 004).

Every predicted error is in one unit for all algorithms: the max absolute error of the *normalised* average
distance (each column's declared [lo, hi] mapped to [0, 1]; cdf_route.ANSWER_SCALE) over the declared queries,
at the spec's beta. For the embeddings (l2, Bourgain) it covers the privacy noise and binning only, not the
embedding's distortion (reported separately in the notes, measured on public query pairs).

Guarantees: "cdf-route", "huang-roth-offline", "huang-roth-online" and "bourgain" are pure eps-DP when
delta = 0 and rho-zCDP (hence (eps, delta)-DP) with discrete Gaussian noise when delta > 0;
"laplace-per-query" is pure, "gaussian-per-query" needs delta > 0.
"""

from __future__ import annotations

import dataclasses
import math
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dpgui.algorithms.distance import baselines, huang_roth
from dpgui.algorithms.distance.cdf_route import (
    ANSWER_SCALE,
    DATA_UNITS_COLUMN,
    DEFAULT_SUPPORT,
    STRUCTURE_FILE,
    DistanceStructure,
    PrivacyBudget,
    cdf_route,
    certified_max_error,
    predicted_max_error,
    support_points,
    uniform_scale,
)
from dpgui.algorithms.distance.embeddings import (
    BourgainEmbedding,
    Embedding,
    IdentityEmbedding,
    Metric,
    RandomProjection,
    measured_distortion,
)
from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.data.domain import NumericDomain
from dpgui.data.errors import DataError
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.curve import NoiseKind, NoiseRounds, PrivacyCurve
from dpgui.privacy.random import MAX_NOISE_SCALE, PrivateRandom
from dpgui.tasks.median import BETA
from dpgui.tasks.outputs import Attachment, ReleaseTable
from dpgui.tasks.public_files import PublicFileChanged, changed_file_error, current_sha256
from dpgui.tasks.registry import (
    AlgorithmInfo,
    Guarantee,
    ParameterSpec,
    PreconditionFailure,
    each_column_once,
    register,
)
from dpgui.tasks.spec import TaskKind, TaskSpec

if TYPE_CHECKING:
    from dpgui.data.aggregate import Aggregator

METRIC = ParameterSpec(
    "metric",
    str,
    "l1",
    "How distance is measured: l1 (sum of differences), l2 (straight line), linf (largest difference) or "
    "hamming (number of differing columns).",
    choices=tuple(metric.value for metric in Metric),
)
QUERIES = ParameterSpec(
    "queries", str, "", "CSV of PUBLIC query points (one column per task column).", path=True
)
QUERY_COUNT = ParameterSpec(
    "query_count",
    int,
    1000,
    "Declared number of queries (budget split of the per-query baselines) when no queries file is named; "
    "a queries file's rows set it.",
    1,
    10**7,
    set_by=QUERIES.name,
)
MAX_SUPPORT = 1 << 16
"""The most support points per column of the released structure."""
SUPPORT = ParameterSpec(
    "support",
    int,
    DEFAULT_SUPPORT,
    "Support points per column of the released structure (more points: finer answers, a little more noise).",
    2,
    MAX_SUPPORT,
    advanced=True,
)
DIMENSION = ParameterSpec(
    "dimension",
    int,
    1024,
    "How many random directions stand in for straight-line (l2) "
    "distance (public; more: more accurate, slower).",
    1,
    8192,
    advanced=True,
)
REPETITIONS = ParameterSpec(
    "repetitions",
    int,
    16,
    "How many random subsets per level the general-metric embedding "
    "uses (public; more: more accurate, slower).",
    1,
    512,
    advanced=True,
)
SEED = ParameterSpec(
    "embedding_seed",
    int,
    0,
    "Public seed of the embedding's random choices, exported so "
    "that anyone can rebuild it (never a noise seed).",
    0,
    2**62,
    advanced=True,
)
DEBIAS = ParameterSpec(
    "debias",
    bool,
    False,
    "Rescale the answers by a median taken from the public queries (a heuristic that can reduce bias).",
    advanced=True,
)

_ERROR_UNIT = "max error of the normalised average distance"


def _metric(spec: TaskSpec) -> Metric:
    return Metric(str(spec.parameter("metric", METRIC.default)))


def _beta(spec: TaskSpec) -> float:
    return float(spec.parameter("beta", BETA.default))


def _bounds(spec: TaskSpec) -> tuple[np.ndarray, np.ndarray]:
    domains = [d for d in spec.domains if isinstance(d, NumericDomain)]
    return np.array([float(d.lower) for d in domains]), np.array([float(d.upper) for d in domains])


@lru_cache(maxsize=16)
def _read_queries(path: str, sha256: str, columns: tuple[str, ...]) -> np.ndarray:
    """The public query points of the file at ``path`` with these bytes (``sha256``; a file changed while it
    is read is refused), read like any table (CSV in any encoding and delimiter, Parquet, ...)."""
    from dpgui.data.loaders import load_table  # pandas: only when a queries file is read

    try:
        frame = load_table(Path(path))
    except DataError as error:
        raise ValueError(f"cannot read the queries file {path}: {error}") from error
    if current_sha256(path) != sha256:
        raise changed_file_error(path)
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"the queries file {path} lacks the columns {', '.join(missing)}")
    from dpgui.data.errors import shown
    from dpgui.data.validation import as_numbers

    values = np.column_stack([as_numbers(frame[column]).to_numpy() for column in columns])
    bad = ~np.isfinite(values)
    if bad.any():  # text such as 'x' named with its place, not as numpy's "could not convert string to float"
        row, column = (int(i) for i in np.argwhere(bad)[0])
        cell = frame[columns[column]].iloc[row]
        raise ValueError(
            f"the queries file {path} has missing or non-numeric values: row {row + 1}, column "
            f"{columns[column]!r} reads {shown(cell)}; every query needs a finite number in every column"
        )
    return values


def load_queries(path: Path | str, columns: tuple[str, ...], pinned: str | None = None) -> np.ndarray:
    """PUBLIC query points (original units), one row each, from a CSV with the task's column names, read
    again whenever the file's bytes change (raises ValueError naming what is wrong with the file). With
    ``pinned`` (the SHA-256 the run was priced with), other bytes raise ``PublicFileChanged``."""
    sha256 = current_sha256(str(path))
    if sha256 is None:
        raise ValueError(
            f"cannot read the queries file {path}: it is not there or cannot be opened; check the path"
        )
    if pinned is not None and sha256 != pinned:
        raise changed_file_error(str(path))
    return _read_queries(str(path), sha256, columns).copy()


def _named_queries(spec: TaskSpec) -> np.ndarray | None:
    """The queries file's points, None when no file is named; raises ValueError when it cannot be read,
    ``PublicFileChanged`` when the spec pins other bytes than the file has now."""
    path = str(spec.parameter("queries", QUERIES.default))
    return load_queries(path, spec.columns, spec.pinned_sha256(path)) if path else None


def _queries(spec: TaskSpec) -> np.ndarray | None:
    """The queries file's points, or None when none is named or it cannot be read (the preconditions say
    why, so the planner's error predictions never raise). A pinned file that changed raises: a priced run
    never answers other queries than it was priced on."""
    try:
        return _named_queries(spec)
    except PublicFileChanged:
        raise
    except ValueError:
        return None


def _query_count(spec: TaskSpec) -> int:
    """k: the rows of the public queries file, else the declared query_count (public either way)."""
    queries = _queries(spec)
    return len(queries) if queries is not None else int(spec.parameter("query_count", QUERY_COUNT.default))


def _normalise(spec: TaskSpec, points: np.ndarray) -> np.ndarray:
    lower, upper = _bounds(spec)
    return (points - lower) / (upper - lower)


def _budget(spec: TaskSpec) -> PrivacyBudget:
    if spec.delta > 0:
        return PrivacyBudget(spec.epsilon, zcdp_rho_for(PrivacyCost(spec.epsilon, spec.delta)))
    return PrivacyBudget(spec.epsilon)


def _cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon, spec.delta)


def _zcdp_curve(spec: TaskSpec) -> PrivacyCurve | None:
    """With delta > 0 the release is rounds of discrete Gaussian noise, rho-zCDP in all (``_budget``)."""
    rho = _budget(spec).rho
    return None if rho is None else PrivacyCurve(rho=rho)


def _per_query_curve(spec: TaskSpec) -> PrivacyCurve:
    """k rounds of discrete Laplace noise on sums of integer sensitivity Delta (their exact PLD). The
    Gaussian baseline records its rho only: a discrete Gaussian PLD at a sensitivity in the thousands
    would enumerate millions of points."""
    noise = _per_query_noise(spec, gaussian=False)
    return PrivacyCurve(
        (NoiseRounds(NoiseKind.DISCRETE_LAPLACE, noise.scale, noise.sensitivity, _query_count(spec)),)
    )


def _embedding(spec: TaskSpec, algorithm: str) -> Embedding:
    dims, seed = len(spec.columns), int(spec.parameter("embedding_seed", SEED.default))
    if algorithm == "bourgain":
        queries = _queries(spec)
        assert queries is not None  # preconditions
        reps = int(spec.parameter("repetitions", REPETITIONS.default))
        debias = bool(spec.parameter("debias", DEBIAS.default))
        return BourgainEmbedding.draw(_metric(spec), _normalise(spec, queries), reps, seed, debias)
    if _metric(spec) is Metric.L2:
        return RandomProjection.draw(dims, int(spec.parameter("dimension", DIMENSION.default)), seed)
    return IdentityEmbedding(dims)


def _supports(spec: TaskSpec, embedding: Embedding) -> list[np.ndarray]:
    bins = int(spec.parameter(SUPPORT.name, SUPPORT.default))
    if isinstance(embedding, IdentityEmbedding):
        supports = []
        for domain in spec.domains:
            assert isinstance(domain, NumericDomain)
            grid = None
            if domain.size <= bins:
                values = domain.from_grid(np.arange(domain.size, dtype=np.uint64))
                grid = (values - float(domain.lower)) / (float(domain.upper) - float(domain.lower))
            supports.append(support_points(grid, bins))
        return supports
    return [support_points(None, bins)] * embedding.dimension


def _structure_error(spec: TaskSpec, n: int, algorithm: str) -> float:
    """l1 on the identity embedding: certified for all queries at once (cdf_route.certified_max_error, the
    noise-only Monte Carlo of REVIEW s1.2 (*)). Through an embedding (l2 projection, Bourgain) it stays the
    linear k-query *prediction* (cdf_route.predicted_max_error): hundreds of coordinates make the simulation
    too slow for a live calculator."""
    embedding = _embedding(spec, algorithm)
    weights = (embedding.upper - embedding.lower) * embedding.answer_factor
    supports = _supports(spec, embedding)
    if isinstance(embedding, IdentityEmbedding):
        return certified_max_error(supports, weights, n, _budget(spec), _beta(spec))
    return predicted_max_error(supports, weights, n, _budget(spec), _query_count(spec), _beta(spec))


def _numeric_preconditions(spec: TaskSpec) -> list[PreconditionFailure]:
    failures = []
    if not all(isinstance(d, NumericDomain) for d in spec.domains):
        failures.append(
            PreconditionFailure("distance release needs numeric columns with declared bounds", parameter=True)
        )
    failures += each_column_once(spec.columns)  # a coordinate given twice would count twice
    try:
        _metric(spec)
    except ValueError:
        failures.append(
            PreconditionFailure(f"unknown metric {spec.parameter('metric', '')!r}", parameter=True)
        )
    try:
        _named_queries(spec)
    except ValueError as error:  # an input error (exit 2): no row count would make the file readable
        failures.append(PreconditionFailure(str(error), parameter=True))
    return failures


def _cdf_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    failures = _numeric_preconditions(spec)
    if not failures and _metric(spec) not in (Metric.L1, Metric.L2):
        failures.append(
            PreconditionFailure(
                "the CDF route answers l1 and l2; use bourgain for other metrics", parameter=True
            )
        )
    return tuple(failures)


def _noise_scale_failures(largest_scale: float, what: str) -> list[PreconditionFailure]:
    """Refuse before the charge a run whose noise scale could reach the 64-bit integer bound."""
    if largest_scale <= MAX_NOISE_SCALE:
        return []
    return [
        PreconditionFailure(
            f"{what} would draw noise at scale {largest_scale:.3g}, above the {MAX_NOISE_SCALE:.3g} that "
            "64-bit integer noise allows safely; raise epsilon or declare fewer queries or columns",
            parameter=True,
        )
    ]


def _huang_roth_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    failures = _numeric_preconditions(spec)
    if not failures and _metric(spec) is not Metric.L1:
        failures.append(PreconditionFailure("the Huang-Roth structure answers l1 only", parameter=True))
    if not failures:
        calibration = huang_roth.calibrate(
            n, len(spec.columns), spec.epsilon, spec.delta, _beta(spec), online=False
        )
        failures += _noise_scale_failures(huang_roth.noise_scales(calibration, n).largest(), "Huang-Roth")
    return tuple(failures)


def _needs_queries(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    failures = _numeric_preconditions(spec)
    if not str(spec.parameter("queries", "")):
        failures.append(
            PreconditionFailure(
                "this algorithm needs a file of public queries (parameter 'queries')", parameter=True
            )
        )
    return tuple(failures)


def _far_query_failures(spec: TaskSpec, noise: baselines.PerQueryNoise) -> list[PreconditionFailure]:
    """Refuse a query so far outside the declared box that floating-point rounding could move a record's
    rounded distance by more than the sensitivity (``baselines.MAX_QUOTIENT``)."""
    queries = _queries(spec)
    if queries is None:
        return []
    reach = baselines.farthest_quotient(_normalise(spec, queries), _metric(spec), noise.resolution)
    if reach <= baselines.MAX_QUOTIENT:
        return []
    return [
        PreconditionFailure(
            "a query lies about a million box widths or more outside the declared bounds, where the "
            "per-query baseline's sums cannot be computed exactly enough for its sensitivity; check the "
            "queries' units, or use the CDF route",
            parameter=True,
        )
    ]


def _baseline_preconditions(gaussian: bool):
    def check(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
        failures = list(_needs_queries(spec, n))
        if gaussian and spec.delta == 0:
            failures.append(PreconditionFailure("the Gaussian baseline needs delta > 0", parameter=True))
        if not failures:
            noise = _per_query_noise(spec, gaussian)
            failures += _noise_scale_failures(noise.scale, "the per-query baseline")
            failures += _far_query_failures(spec, noise)
        return tuple(failures)

    return check


def _private_points(spec: TaskSpec, data: Aggregator) -> np.ndarray:
    """The PRIVATE normalised rows, clipped to the declared box (column_matrix clips and snaps)."""
    domains = [d for d in spec.domains if isinstance(d, NumericDomain)]
    matrix = data.column_matrix(list(spec.columns), domains, [spec.missing] * len(domains))
    return _normalise(spec, matrix)


NO_QUERIES_MEANING = (
    f"no query points were declared, so this table has no rows: the released structure ({STRUCTURE_FILE}) "
    "answers any query, with `dpgui query distance --release FOLDER --point v1,v2,...` or the app's explorer"
)
"""What a structure released without queries tells the reader of its empty table (a docs audit found the
header alone and took the release for empty)."""


def _table(
    spec: TaskSpec,
    queries: np.ndarray | None,
    answers: np.ndarray,
    notes: tuple[str, ...],
    structure: DistanceStructure | None = None,
) -> ReleaseTable:
    """The answers per query, in normalised units and, where that is exact, in the columns' own units."""
    in_units = _in_data_units(spec, queries, answers, structure)
    columns: tuple[str, ...] = (*spec.columns, "distance")
    notes = (f"answers in {ANSWER_SCALE}", *notes)
    if in_units is not None:
        columns = (*columns, DATA_UNITS_COLUMN)
        notes = (*notes, f"{DATA_UNITS_COLUMN}: the same answer in the columns' own units")
    elif queries is None and structure is not None and structure.in_data_units:
        notes = (  # the explorer answers in those units (a GUI audit saw 951 beside "normalised units")
            *notes,
            f"the structure ({STRUCTURE_FILE}) and the app's explorer also give each answer in the columns' "
            "own units",
        )
    rows: tuple[tuple[float, ...], ...] = ()
    if queries is not None:
        extra = in_units if in_units is not None else [None] * len(answers)
        rows = tuple(
            (*map(float, q), float(a), *(() if u is None else (float(u),)))
            for q, a, u in zip(queries, answers, extra, strict=True)
        )
    return ReleaseTable(columns, rows, notes)


def _in_data_units(
    spec: TaskSpec, queries: np.ndarray | None, answers: np.ndarray, structure: DistanceStructure | None
) -> np.ndarray | None:
    """The answers in the columns' units when post-processing can give them exactly, else None.

    A structure knows when it can (``DistanceStructure.in_data_units``). A per-query answer is a distance
    on the normalised box, converted by ``uniform_scale`` where one exists."""
    if queries is None:
        return None
    if structure is not None:
        return structure.answer_in_data_units(queries) if structure.in_data_units else None
    scale = uniform_scale(*_bounds(spec), _metric(spec).value)
    return None if scale is None else np.asarray(answers, dtype=np.float64) * scale


def _structure_run(algorithm: str):
    def run(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
        embedding = _embedding(spec, algorithm)
        queries = _queries(spec)
        points = _private_points(spec, data)
        n = len(points)
        notes: list[str] = []
        lower, upper = _bounds(spec)
        metadata = {
            "mechanism": algorithm,
            "n": n,
            "epsilon": spec.epsilon,
            "delta": spec.delta,
            "neighbours": "replace one record; row count public",
            "clipping": "records clipped to the box",
        }
        if algorithm == "huang-roth-offline":
            cal = huang_roth.calibrate(
                n, len(spec.columns), spec.epsilon, spec.delta, _beta(spec), online=False
            )
            learners, fires = yield from huang_roth.offline_release(points, cal, rng)
            metadata |= {"alpha": cal.alpha, "cap": cal.cap, "updates": fires, "beta": _beta(spec)}
            structure = huang_roth.learners_structure(learners, spec.columns, lower, upper, metadata)
            notes.append(
                f"accuracy α = {cal.alpha:.4g}: with probability ≥ {1 - _beta(spec):g}, every answer the "
                "structure gives is within α of the true normalised average distance (Huang-Roth's bound "
                f"calibrated to n, ε and δ); {fires} updates"
            )
            if cal.trivial:
                notes.append("warning: alpha >= W/2, no better than the trivial answer; prefer cdf-route")
        else:
            budget = _budget(spec)
            supports = _supports(spec, embedding)
            knots, values = yield from cdf_route(points, embedding, supports, budget, rng)
            metadata |= {
                "rho": budget.rho,
                "noise": budget.noise.value,
                "support_points": int(spec.parameter(SUPPORT.name, SUPPORT.default)),
                "predicted_max_error": _structure_error(spec, n, algorithm),
                "beta": _beta(spec),
                "queries_for_prediction": _query_count(spec),
            }
            structure = DistanceStructure(
                spec.columns, lower, upper, _metric(spec).value, embedding, knots, values, metadata
            )
            if not isinstance(embedding, IdentityEmbedding) and queries is not None and len(queries) > 1:
                d = measured_distortion(embedding, _normalise(spec, queries), _metric(spec))
                notes.append(
                    f"embedding distortion on public query pairs: min {d.minimum:.3g}, "
                    f"median {d.median:.3g}, max {d.maximum:.3g} over {d.pairs} pairs"
                )
        answers = structure.answer(queries) if queries is not None else np.zeros(0)
        notes.append(f"structure: {STRUCTURE_FILE} (answers any query with 'dpgui query distance')")
        yield Progress(1.0, "released the distance structure", structure)
        attachment = Attachment(STRUCTURE_FILE, structure.to_bytes())
        table = _table(spec, queries, answers, tuple(notes), structure)
        meaning = table.meaning if queries is not None else NO_QUERIES_MEANING
        return dataclasses.replace(table, attachments=(attachment,), meaning=meaning)

    return run


def _per_query_noise(spec: TaskSpec, gaussian: bool) -> baselines.PerQueryNoise:
    rho = _budget(spec).rho if gaussian else None
    return baselines.per_query_noise(
        _metric(spec), len(spec.columns), _query_count(spec), epsilon=spec.epsilon, rho=rho
    )


def _baseline_run(gaussian: bool):
    def run(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
        queries = _queries(spec)
        assert queries is not None  # preconditions
        points = _private_points(spec, data)
        noise = _per_query_noise(spec, gaussian)
        answers = yield from baselines.per_query_answers(
            points, _normalise(spec, queries), _metric(spec), noise, rng
        )
        return _table(
            spec, queries, answers, (f"per-query noise scale {noise.scale:.4g} x {noise.resolution:.3g}",)
        )

    return run


def _baseline_error(gaussian: bool):
    def error(spec: TaskSpec, n: int) -> float:
        return baselines.predicted_max_error(
            _per_query_noise(spec, gaussian), n, _query_count(spec), _beta(spec)
        )

    return error


def _huang_roth_error(spec: TaskSpec, n: int) -> float:
    return huang_roth.calibrate(
        n, len(spec.columns), spec.epsilon, spec.delta, _beta(spec), online=False
    ).alpha


def _online_calibration(spec: TaskSpec, n: int) -> huang_roth.Calibration:
    """Online calibration (spec 004 s3): k_max = the rows of the public queries file (public)."""
    return huang_roth.calibrate(
        n, len(spec.columns), spec.epsilon, spec.delta, _beta(spec), online=True, k_max=_query_count(spec)
    )


def _online_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    failures = list(_needs_queries(spec, n))
    if not failures and _metric(spec) is not Metric.L1:
        failures.append(PreconditionFailure("the Huang-Roth session answers l1 only", parameter=True))
    if not failures:
        largest = huang_roth.noise_scales(_online_calibration(spec, n), n).largest()
        failures += _noise_scale_failures(largest, "the Huang-Roth session")
    return tuple(failures)


def _run_online(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    """Answer the public queries file in order through huang_roth.online_answers (one Progress each)."""
    queries = _queries(spec)
    assert queries is not None  # preconditions
    points = _private_points(spec, data)
    cal = _online_calibration(spec, len(points))
    answers = yield from huang_roth.online_answers(
        points, _normalise(spec, queries), cal, rng, delta=spec.delta
    )
    used = answers[-1].updates_used if answers else 0
    notes = [
        f"accuracy α = {cal.alpha:.4g}: with probability ≥ {1 - _beta(spec):g}, each of the {len(queries)} "
        "answers is within α of the true normalised average distance (Huang-Roth's bound calibrated to n, "
        f"ε and δ); {used} of {cal.cap} updates used"
        + ("; halted at the cap" if answers and answers[-1].halted else ""),
        "each answer was released as it was produced; the whole session's cost was charged up front",
    ]
    if cal.trivial:
        notes.append("warning: alpha >= W/2, no better than the trivial answer; prefer cdf-route")
    return _table(spec, queries, np.array([a.answer for a in answers]), tuple(notes))


_STRUCTURE_PARAMETERS = (METRIC, QUERIES, QUERY_COUNT, SUPPORT, DIMENSION, SEED, BETA)

CDF_ROUTE = register(
    AlgorithmInfo(
        name="cdf-route",
        title="Per-coordinate private CDFs (l1, l2 by random projection)",
        task=TaskKind.DISTANCE,
        paper="Huang, Roth 2014 (paper 004); spec 004 s7 [beyond the paper]",
        section="004 s3.1 decomposition; spec 004 s5.2, s7; REVIEW-001-003-004 s1",
        guarantee=Guarantee.PURE_OR_ZCDP,
        summary="One private tree CDF per (embedded) coordinate answers every l1 query at once: the average "
        "distance is a sum of integrals of the coordinate CDFs. Pure ε-DP at δ = 0, zCDP (discrete Gaussian) "
        "when δ > 0. l2 goes through a public random projection. For l1 the shown error is certified for "
        "every query at once (noise-only simulation of the bound); for l2 it is a prediction.",
        cost=_cost,
        predicted_error=lambda spec, n: _structure_error(spec, n, "cdf-route"),
        error_unit=_ERROR_UNIT,
        run=_structure_run("cdf-route"),
        parameters=_STRUCTURE_PARAMETERS,
        preconditions=_cdf_preconditions,
        curve=_zcdp_curve,
    )
)

HUANG_ROTH_OFFLINE = register(
    AlgorithmInfo(
        name="huang-roth-offline",
        title="Huang-Roth offline l1 structure (paper-faithful)",
        task=TaskKind.DISTANCE,
        paper="Huang, Roth 2014 (paper 004)",
        section="004 Thm 2, Fig. 1, Lemmas 3-6; spec 004 s4",
        guarantee=Guarantee.PURE_OR_ZCDP,
        summary="Noisy tangent learners per coordinate on a public grid, updated through sparse vector with "
        "a hard cap. Pure ε-DP at δ = 0, zCDP when δ > 0. Far less accurate than cdf-route below n ≈ 10^6.",
        cost=_cost,
        predicted_error=_huang_roth_error,
        error_unit=_ERROR_UNIT,
        run=_structure_run("huang-roth-offline"),
        parameters=(METRIC, QUERIES, BETA),
        preconditions=_huang_roth_preconditions,
        curve=_zcdp_curve,
    )
)

HUANG_ROTH_ONLINE = register(
    AlgorithmInfo(
        name="huang-roth-online",
        title="Huang-Roth online l1 session (paper-faithful)",
        task=TaskKind.DISTANCE,
        paper="Huang, Roth 2014 (paper 004)",
        section="004 Thm 1, Fig. 1, Lemmas 3-6; spec 004 s3; REVIEW-001-003-004 s6.4",
        guarantee=Guarantee.PURE_OR_ZCDP,
        summary="Answers the public queries in order, each released as it is produced: a noisy tangent "
        "hypothesis answers, and sparse vector updates it when it is off. The cost, the session's full "
        "(ε, δ), is fixed up front by the sparse-vector accounting; the session halts (stops reading the "
        "data) at its update cap. Pure ε-DP at δ = 0, zCDP when δ > 0.",
        cost=_cost,
        predicted_error=lambda spec, n: _online_calibration(spec, n).alpha,
        error_unit=_ERROR_UNIT,
        run=_run_online,
        parameters=(METRIC, QUERIES, BETA),
        preconditions=_online_preconditions,
        curve=_zcdp_curve,
    )
)

BOURGAIN = register(
    AlgorithmInfo(
        name="bourgain",
        title="Bourgain embedding + per-coordinate CDFs (any metric, offline)",
        task=TaskKind.DISTANCE,
        paper="Huang, Roth 2014 (paper 004)",
        section="004 Fig. 3, Thm 11, Thm 15; spec 004 s5.3",
        guarantee=Guarantee.PURE_OR_ZCDP,
        summary="Embeds into l1 with a 1-sensitive Bourgain map built from the public queries, then runs "
        "the CDF route. Offline only; answers underestimate by the embedding's contraction (O(log k)). "
        "Pure at δ = 0.",
        cost=_cost,
        predicted_error=lambda spec, n: (
            _structure_error(spec, n, "bourgain") if _queries(spec) is not None else math.inf
        ),
        error_unit=_ERROR_UNIT,
        run=_structure_run("bourgain"),
        parameters=(METRIC, QUERIES, SUPPORT, REPETITIONS, SEED, DEBIAS, BETA),
        preconditions=_needs_queries,
        curve=_zcdp_curve,
    )
)

LAPLACE_PER_QUERY = register(
    AlgorithmInfo(
        name="laplace-per-query",
        title="Discrete Laplace per query (baseline)",
        task=TaskKind.DISTANCE,
        paper="Dwork, Roth 2014 (Laplace mechanism, basic composition); spec 004 s11",
        section="spec 004 s11 baselines",
        guarantee=Guarantee.PURE,
        summary="Each declared query: the sum of rounded distances (sensitivity diameter / resolution + 1) "
        "plus discrete Laplace noise at ε/k.",
        cost=lambda spec: PrivacyCost(spec.epsilon),
        predicted_error=_baseline_error(False),
        error_unit=_ERROR_UNIT,
        run=_baseline_run(False),
        parameters=(METRIC, QUERIES, QUERY_COUNT, BETA),
        preconditions=_baseline_preconditions(False),
        curve=_per_query_curve,
    )
)

GAUSSIAN_PER_QUERY = register(
    AlgorithmInfo(
        name="gaussian-per-query",
        title="Discrete Gaussian per query, zCDP (baseline)",
        task=TaskKind.DISTANCE,
        paper="Canonne, Kamath, Steinke 2020; Bun, Steinke 2016; spec 004 s11",
        section="spec 004 s11 baselines",
        guarantee=Guarantee.APPROXIMATE,
        summary="Each declared query: the sum of rounded distances plus discrete Gaussian noise, "
        "ρ/k-zCDP each.",
        cost=_cost,
        predicted_error=_baseline_error(True),
        error_unit=_ERROR_UNIT,
        run=_baseline_run(True),
        parameters=(METRIC, QUERIES, QUERY_COUNT, BETA),
        preconditions=_baseline_preconditions(True),
        curve=_zcdp_curve,
    )
)
