"""Everything about a task that can fail without producing a DP output, checked before the ledger reserves.

From public facts only (the spec and the public row count): the parameters' ranges (ε, δ, β, the
registry's ranges for each algorithm parameter), the declared domains (finite, within the 64-bit range the
exports hold), and the predicted peak memory and work of the run against limits (default 4 GiB and 10
minutes). A refusal is a :class:`PreflightError` (a ``DataError``: exit 2) whose message says what to change.

The predictions are linear models measured on this code base (``benchmarks/``-style runs of the demo data):
bytes and seconds per grid point for the tasks that walk a dense grid (CDF, histogram), per synthetic
record, and per row and embedding coordinate for the l2 distance release. They are upper-side estimates;
the limits guard against runs that would exhaust the machine, not against small overshoots.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from dpgui.algorithms.approximate_quantiles import parse_quantiles
from dpgui.data.domain import MIN_STEP_ULPS, CategoricalDomain, NumericDomain
from dpgui.data.errors import DataError
from dpgui.numbers import readable
from dpgui.tasks.registry import ParameterSpec, algorithms, get_algorithm, set_twice
from dpgui.tasks.spec import AUTO, MAX_EPSILON, MIN_EPSILON, TaskKind, TaskSpec, epsilon_refusal

GIB = 1 << 30
DEFAULT_MAX_MEMORY = 4 * GIB
DEFAULT_MAX_SECONDS = 600.0
MAX_ABS_BOUND = float(1 << 63)
"""Declared bounds must lie within ±2^63: released grid values are written as 64-bit numbers."""

BASE_BYTES = 400 << 20
"""The interpreter, numpy, pandas, pyarrow and OpenDP loaded, before any data."""
DENSE_GRID_BYTES = 340
DENSE_GRID_SECONDS = 6e-6
"""Per grid point of a CDF or histogram release (tree or counts, the released table, its exports): a
4,194,305-point tree CDF took 22 s from the CLI on 2 cores shared with seven other jobs (5.2 us a point;
the vectorised exact sampler draws a node's noise in about 1 us, benchmarks/noise_speed.md)."""
SYNTHETIC_ROW_BYTES = 200
SYNTHETIC_ROW_SECONDS = 8e-6
EMBEDDING_BYTES = 32
"""Per row and projection coordinate of the l2 distance release (float64 matrices, a few copies)."""
OUTPUT_BYTES_PER_ROW = 80
"""Released table rows as CSV, Parquet and in the report."""

TABLE_CELL_BYTES = 16
"""One cell of a synthetic table's rows in synthetic.csv and synthetic.parquet, besides its label's text."""
TABLE_CELL_MEMORY = 64
"""Peak memory per synthetic cell of a table release (sampled indices, the frame of values, its CSV and
Parquet buffers): measured 43 bytes on 10^6 rows of 4 columns by independent marginals."""
STRUCTURE_NUMBER_BYTES = 24
"""One number of a distance release's structure file, as JSON text (measured: about 12 to 20)."""

SPARSE_ROW_BYTES = 64
SPARSE_ROW_SECONDS = 1e-6
"""Per row for an algorithm that never walks the grid (SanPoints): the rows' grid indices, sorted and counted
(an upper-side figure; the distinct values and their counts are a few copies of 8 bytes a row)."""

DENSE_TASKS = frozenset({TaskKind.CDF, TaskKind.HISTOGRAM, TaskKind.SYNTHETIC})


class PreflightError(DataError):
    """A task refused before anything is reserved (exit 2); the message says what to change."""


@dataclass(frozen=True)
class Limits:
    """The most memory (bytes) and work (seconds) one release may be predicted to need."""

    max_memory: int = DEFAULT_MAX_MEMORY
    max_seconds: float = DEFAULT_MAX_SECONDS

    def __post_init__(self) -> None:
        if not (self.max_memory > 0 and math.isfinite(self.max_seconds) and self.max_seconds > 0):
            raise PreflightError("the memory and time limits must be positive numbers")


@dataclass(frozen=True)
class Estimate:
    """The predicted peak memory (bytes), work (seconds) and size of the exported files (bytes)."""

    memory: int
    seconds: float
    output_bytes: int
    grid_points: int = 0
    """The dense grid the prediction scales with (0 when it does not scale with a grid)."""
    bytes_per_point: float = 0.0
    seconds_per_point: float = 0.0


def check_parameters(spec: TaskSpec) -> None:
    """ε, δ, β, the declared domains and every algorithm parameter within range; raises PreflightError."""
    if not (math.isfinite(spec.epsilon) and MIN_EPSILON <= spec.epsilon <= MAX_EPSILON):
        raise PreflightError(epsilon_refusal(spec.epsilon))
    if not (math.isfinite(spec.delta) and 0 <= spec.delta < 1):
        raise PreflightError(f"delta must be a number in [0, 1), got {spec.delta:g}")
    for column, domain in zip(spec.columns, spec.domains, strict=True):
        if isinstance(domain, NumericDomain):
            _check_domain(column, domain)
            _check_fill(column, domain, spec.missing.fill_value)
        elif spec.missing.fill_value is not None:  # the aggregation refuses it, but after the charge
            raise PreflightError(
                f"column {column!r} is categorical: a missing cell counts as 'other', not as a number; "
                "give no fill value (--fill) for a task with a categorical column"
            )
    declared = _parameter_specs(spec)
    conflict = set_twice(dict(spec.parameters), declared.values(), repr)
    if conflict:
        raise PreflightError(conflict)
    for name, value in spec.parameters:
        if name == "beta":
            _check_beta(value)
        if name == "q":
            _check_quantiles(value)
        if name in declared:
            _check_range(declared[name], value)
            _check_choice(declared[name], value)
            _check_public_file(declared[name], value)


def _check_fill(column: str, domain: NumericDomain, fill: float | None) -> None:
    """A declared fill value inside the column's bounds: outside, every imputed cell would be released at
    the nearest bound while the manifest said it was replaced by the value given."""
    if fill is not None and not domain.lower <= fill <= domain.upper:
        raise PreflightError(
            f"the fill value {fill:g} lies outside the declared bounds [{domain.lower:g}, {domain.upper:g}] "
            f"of column {column!r}: a missing cell would count as the nearest bound; give one inside them"
        )


def _check_domain(column: str, domain: NumericDomain) -> None:
    for which, bound in (("lower", domain.lower), ("upper", domain.upper)):
        if abs(float(bound)) >= MAX_ABS_BOUND:
            raise PreflightError(
                f"the {which} bound {bound:g} of column {column!r} is outside ±2^63 (±9.2e18); declare "
                "bounds the data can reach, in the column's own unit"
            )
    widest = max(abs(float(domain.lower)), abs(float(domain.upper)))
    if domain.granularity < MIN_STEP_ULPS * math.ulp(widest):
        raise PreflightError(
            f"the step {domain.granularity:g} of column {column!r} is finer than 64-bit numbers can tell "
            f"apart near {widest:g} (they are {math.ulp(widest):g} apart there): grid points would share one "
            "value and the release would list the same value with different answers; declare a step of at "
            f"least {MIN_STEP_ULPS * math.ulp(widest):g}, or shift the column's values toward 0 first"
        )
    if domain.size < 2 and domain.binned:  # every record in the one bin: nothing said of the column
        raise PreflightError(
            f"column {column!r} is declared as one bin of [{domain.lower:g}, {domain.upper:g}]: every value "
            "would be released as its middle; declare more bins"
        )
    if domain.size < 2:  # every record at the lower bound: the release would say nothing of the column
        raise PreflightError(
            f"the grid of column {column!r} has one point: its step {domain.granularity:g} is wider than "
            f"the range [{domain.lower:g}, {domain.upper:g}]; declare a finer step, or more bins"
        )


def _check_quantiles(value: object) -> None:
    try:
        parse_quantiles(str(value))
    except ValueError as error:
        raise PreflightError(str(error)) from None


def _check_beta(value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PreflightError(f"beta must be a number in (0, 1), got {value!r}")
    if not (math.isfinite(value) and 0 < value < 1):
        raise PreflightError(
            f"beta (the failure probability of the accuracy bound) must be in (0, 1), got {value:g}"
        )


def _parameter_specs(spec: TaskSpec) -> dict[str, ParameterSpec]:
    """The declared parameters of the spec's algorithm, or of every algorithm of the task for ``auto``."""
    infos = algorithms(spec.kind) if spec.algorithm == AUTO else [get_algorithm(spec.algorithm)]
    declared: dict[str, ParameterSpec] = {}
    for info in infos:
        for parameter in info.parameters:
            declared.setdefault(parameter.name, parameter)
    return declared


def _check_choice(parameter: ParameterSpec, value: object) -> None:
    if parameter.choices and str(value) not in parameter.choices:
        raise PreflightError(f"{parameter.name} must be one of {', '.join(parameter.choices)}, got {value!r}")


def _check_public_file(parameter: ParameterSpec, value: object) -> None:
    """A named public file that is there: otherwise every algorithm reading it would be refused (or planned
    as unusable) for that one reason, after the check that could have said so plainly."""
    if parameter.path and str(value) and not Path(str(value)).is_file():
        raise PreflightError(
            f"the {parameter.name} file {value} is not there (or is a folder): check the path"
        )


def _check_range(parameter: ParameterSpec, value: object) -> None:
    if parameter.kind not in (int, float) or isinstance(value, bool) or not isinstance(value, int | float):
        return
    if not math.isfinite(value):
        raise PreflightError(f"{parameter.name} must be a finite number, got {value!r}")
    low, high = parameter.minimum, parameter.maximum
    if (low is not None and value < low) or (high is not None and value > high):
        allowed = f"[{'-inf' if low is None else _exact(low)}, {'inf' if high is None else _exact(high)}]"
        raise PreflightError(f"{parameter.name} must be in {allowed}, got {_exact(value)}")


def _exact(value: float) -> str:
    """A limit or a refused value with all its digits (``:g`` showed 10000001 as 1e+07, inside the range)."""
    return readable(value, digits=15)


def _longest_label(domain: NumericDomain | CategoricalDomain) -> int:
    """The longest category name of a categorical domain (its cells are written as that text), else 0."""
    if isinstance(domain, CategoricalDomain):
        return max((len(str(category).encode("utf-8")) for category in domain.categories), default=0)
    return 0


def estimate(spec: TaskSpec, n: int) -> Estimate:
    """Predicted peak memory, work and export size of running ``spec`` on ``n`` rows (public facts only)."""
    memory, seconds, output = float(BASE_BYTES), 0.0, 64 << 10
    grid = 0
    per_point_bytes = per_point_seconds = 0.0
    if _sparse(spec):  # only the values present in the data, at most a public number of released rows
        memory += n * SPARSE_ROW_BYTES
        seconds += n * SPARSE_ROW_SECONDS
        output += min(n, spec.domains[0].size) * OUTPUT_BYTES_PER_ROW
    elif spec.kind in DENSE_TASKS and isinstance(spec.domains[0], NumericDomain):
        grid = spec.domains[0].size
        per_point_bytes, per_point_seconds = DENSE_GRID_BYTES, DENSE_GRID_SECONDS
        memory += grid * per_point_bytes
        seconds += grid * per_point_seconds
        if spec.kind is not TaskKind.SYNTHETIC:
            output += grid * OUTPUT_BYTES_PER_ROW
    elif spec.kind is TaskKind.HISTOGRAM and isinstance(spec.domains[0], CategoricalDomain):
        output += spec.domains[0].size * OUTPUT_BYTES_PER_ROW
    memory += n * _bytes_per_record(spec)
    if spec.kind is TaskKind.SYNTHETIC:
        rows = int(spec.parameter("rows", 1000))
        memory += rows * SYNTHETIC_ROW_BYTES
        seconds += rows * SYNTHETIC_ROW_SECONDS
        output += rows * OUTPUT_BYTES_PER_ROW
    if spec.kind is TaskKind.TABLE:  # synthetic.csv and synthetic.parquet: rows (0: the public n) x cells
        rows = int(spec.parameter("rows", 0)) or n
        output += rows * sum(TABLE_CELL_BYTES + _longest_label(d) for d in spec.domains)
        memory += rows * len(spec.domains) * TABLE_CELL_MEMORY
    if spec.kind is TaskKind.DISTANCE:  # distance_structure.json: knots and values of every coordinate
        coordinates = len(spec.columns)
        if spec.parameter("metric", "l1") == "l2":
            coordinates = int(spec.parameter("dimension", 1024))
        output += coordinates * (int(spec.parameter("support", 256)) + 1) * 2 * STRUCTURE_NUMBER_BYTES
    if spec.kind is TaskKind.DISTANCE and spec.parameter("metric", "l1") == "l2":
        memory += n * int(spec.parameter("dimension", 1024)) * EMBEDDING_BYTES
    return Estimate(int(memory), seconds, int(output), grid, per_point_bytes, per_point_seconds)


def _bytes_per_record(spec: TaskSpec) -> int:
    """The named algorithm's memory per record; for ``auto`` the most of any it may choose."""
    if spec.algorithm != AUTO:
        return get_algorithm(spec.algorithm).bytes_per_record
    return max((info.bytes_per_record for info in algorithms(spec.kind)), default=0)


def _sparse(spec: TaskSpec) -> bool:
    """Whether the spec names an algorithm that never walks the declared grid (SanPoints, k-POINT): a grid
    of 2^40 points costs it nothing. ``auto`` is predicted as the dense algorithms it may choose."""
    return spec.algorithm != AUTO and get_algorithm(spec.algorithm).sparse


def check_limits(spec: TaskSpec, predicted: Estimate, limits: Limits) -> None:
    """Refuse a run predicted to need more memory or time than ``limits``, naming the largest grid that
    fits."""
    over = []
    if predicted.memory > limits.max_memory:
        over.append(
            f"about {predicted.memory / GIB:.1f} GiB of memory (limit {limits.max_memory / GIB:.1f} GiB, "
            "--max-memory)"
        )
    if predicted.seconds > limits.max_seconds:
        over.append(
            f"about {predicted.seconds:.0f} s of work (limit {limits.max_seconds:.0f} s, --max-seconds)"
        )
    if not over:
        return
    advice = "declare fewer synthetic records or raise the limit"
    if predicted.grid_points:
        fits = largest_grid(predicted, limits)
        domain = spec.domains[0]
        assert isinstance(domain, NumericDomain)
        if fits >= 2:
            step = (float(domain.upper) - float(domain.lower)) / (fits - 1)
            advice = (
                f"the largest grid that fits has {fits:,} points: use --granularity {step:.3g} or coarser "
                f"(or --bins {fits - 1} or fewer), tighter bounds, or raise the limit"
            )
        else:
            advice = "no grid fits within the limits; raise them"
    what = f"the {spec.kind.value} release"
    if predicted.grid_points:
        what += f" over {predicted.grid_points:,} grid points"
    raise PreflightError(
        f"refused before anything was charged: {what} would need {' and '.join(over)}; {advice}"
    )


def largest_grid(predicted: Estimate, limits: Limits) -> int:
    """The most grid points a run like ``predicted`` can have within ``limits``."""
    fixed_memory = predicted.memory - predicted.grid_points * predicted.bytes_per_point
    fixed_seconds = predicted.seconds - predicted.grid_points * predicted.seconds_per_point
    by_memory = (limits.max_memory - fixed_memory) / predicted.bytes_per_point
    by_time = (limits.max_seconds - fixed_seconds) / predicted.seconds_per_point
    return max(0, int(min(by_memory, by_time)))


def preflight(spec: TaskSpec, n: int, limits: Limits | None = None) -> Estimate:
    """All public checks of a task before anything is reserved; returns the prediction (for disk space)."""
    check_parameters(spec)
    predicted = estimate(spec, n)
    check_limits(spec, predicted, limits or Limits())
    return predicted
