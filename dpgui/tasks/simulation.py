"""Simulation preview: run an algorithm on public or synthetic data with a seeded generator.

Nothing private is read and no budget is spent: the data is the public sample (resampled to n rows, its
continuous part smoothed: ``SmoothedPopulation``) when it describes the declared grid, or synthetic data
drawn on the declared domain. The result is a distribution of errors in the task's own terms (spec 003 s8
item 1 "simulation mode"; DP Wizard's previews, anchors s1.2).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom, simulation_generator
from dpgui.tasks.learning import NO_THRESHOLD
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.registry import AlgorithmInfo, get_algorithm
from dpgui.tasks.review import sample_fit
from dpgui.tasks.spec import TaskKind, TaskSpec

if TYPE_CHECKING:
    from dpgui.data.domain import NumericDomain

SYNTHETIC_LABEL = "label"
ERROR_MEASURES = {
    TaskKind.MEDIAN: "rank error / n",
    TaskKind.QUANTILES: "mean rank error per quantile / n",
    TaskKind.INTERIOR_POINT: "1 when the output is not interior",
    TaskKind.CDF: "max |CDF error|",
    TaskKind.THRESHOLD: "misclassification rate",
}


@dataclass(frozen=True)
class Simulation:
    """Errors of ``trials`` simulated releases; ``source`` says which data was used."""

    algorithm: str
    errors: tuple[float, ...]
    unit: str
    source: str

    def quantile(self, q: float) -> float:
        return float(np.quantile(self.errors, q))


SHAPES = ("normal", "skewed", "spiky", "heaped")
"""Synthetic shapes on the declared domain: a normal around the middle (the preview's default), a
log-normal piled against the lower bound, a few point masses holding most records over a normal, and a
log-normal rounded to 400 round values (as wages, prices and ages heap)."""


SPREAD_NEIGHBOURS = 10
"""A public value held once stands for the stretch to its 10th distinct neighbour on each side
(``SmoothedPopulation``); chosen on benchmarks/cdf_accuracy.py's shapes, see there."""


@dataclass(frozen=True)
class SmoothedPopulation:
    """The population a public sample of m values stands for, prepared once for every draw of a simulation:
    a value the sample holds more than once is an atom and is drawn as it is; a value it holds once is
    drawn uniformly between the midpoints to its SPREAD_NEIGHBOURS-th distinct neighbours below and above
    (a declared bound where it has fewer).

    The plain bootstrap (drawing the sample's values themselves) piles, at n much larger than m, the
    continuous part of the data onto m points with gaps between them, and a data-adaptive engine splits
    on those gaps: on the point mass plus tail of benchmarks/cdf_accuracy.py (2,000 public values, 28,155
    records, 1,024 bins, eps = 1) it gave PrivTree a mean max rank error of 66 where a fresh sample of the
    shape gives 43, so auto kept the tree (52). Spreading each value over its own gap only (1 neighbour)
    still gave 60; over 10 neighbours, 45. Atoms stay atoms: heaped values (wages, ages) keep their
    spikes."""

    values: np.ndarray
    """The sample's distinct values, sorted."""
    index: np.ndarray
    """Each sample value's position in ``values``."""
    counts: np.ndarray
    """How often the sample holds each of ``values``."""
    lower: float
    upper: float

    @classmethod
    def of(cls, sample: np.ndarray, lower: float, upper: float) -> SmoothedPopulation:
        """Sorting the sample (the cost of a large one) happens here, once per simulation, not per draw."""
        values, index, counts = np.unique(
            np.asarray(sample, np.float64), return_inverse=True, return_counts=True
        )
        return cls(values, index, counts, lower, upper)

    def draw(self, n: int, rng: np.random.Generator) -> np.ndarray:
        """n draws of the population (the class doc)."""
        values = self.values
        picked = self.index[rng.integers(0, self.index.size, size=n)]
        out = values[picked]
        single = self.counts[picked] == 1
        spread = picked[single]
        k, last = SPREAD_NEIGHBOURS, values.size - 1
        below = np.where(spread >= k, values[np.maximum(spread - k, 0)], self.lower)
        above = np.where(spread + k <= last, values[np.minimum(spread + k, last)], self.upper)
        low, high = (below + values[spread]) / 2, (values[spread] + above) / 2
        out[single] = low + (high - low) * rng.uniform(size=spread.size)
        return np.clip(out, self.lower, self.upper)


Draw = Callable[[int, np.random.Generator], np.ndarray]
"""n values of a simulation's data from a seeded generator."""


def _data_source(spec: TaskSpec, shape: str = "normal") -> tuple[Draw, str]:
    """How a simulation of ``spec`` draws its data, and where the data comes from (shown with its errors):
    the public sample's population when it describes the grid, else the synthetic ``shape``."""
    column, domain = spec.columns[0], spec.domain
    if simulates_public_sample(spec):
        public = spec.public.column_values(column, domain)  # type: ignore[union-attr]
        population = SmoothedPopulation.of(public, float(domain.lower), float(domain.upper))
        return population.draw, f"public sample {spec.public.path.name}"  # type: ignore[union-attr]
    fit = sample_fit(spec)
    unused = "" if fit is None else f" (the public sample does not describe it: {fit.detail()})"
    return functools.partial(_synthetic_values, spec.domain, shape), (
        f"synthetic {shape} data on the declared domain{unused}"
    )


def _synthetic_values(domain: NumericDomain, shape: str, n: int, rng: np.random.Generator) -> np.ndarray:
    """n values of a synthetic shape of SHAPES on the declared domain."""
    width = domain.upper - domain.lower
    middle, spread = (domain.lower + domain.upper) / 2, width / 6
    if shape == "skewed":
        values = domain.lower + width * rng.lognormal(0, 1.5, size=n) / 50
    elif shape == "heaped":
        step = width / 400
        values = np.round(width * rng.lognormal(0, 0.6, size=n) / 8 / step) * step + domain.lower
    elif shape == "spiky":
        spikes = domain.lower + width * rng.uniform(0.1, 0.9, size=5)
        values = np.where(
            rng.uniform(size=n) < 0.7, rng.choice(spikes, size=n), rng.normal(middle, spread, n)
        )
    else:
        values = rng.normal(middle, spread, size=n)
    return np.clip(values, domain.lower, domain.upper)


def rank_error(spec: TaskSpec, table: ReleaseTable, indices: np.ndarray, counts: np.ndarray) -> float:
    """The error of a CDF, quantile or median release against data given as sorted distinct grid indices
    and their counts: the largest |released CDF - share at or below| over the CDF's points, or the mean
    over the released quantiles of the distance from q n to the released point's rank interval
    [#{x < y}, #{x <= y}] (the average number of misclassified points per quantile of Gillenwater, Joseph
    and Kulesza 2021, s5, and issue 18's quantile table), divided by n.

    A CDF spec's grid snaps values up, so a record counted at or below a grid point is one whose value is
    at most that point: the share the CDF means."""
    n = int(counts.sum())
    through = np.concatenate([[0], np.cumsum(counts)])
    points = spec.domain.to_grid(np.asarray(table.column("value"), dtype=float))
    at_or_below = through[np.searchsorted(indices, points, "right")]
    if spec.kind is TaskKind.CDF:
        return float(np.max(np.abs(np.asarray(table.column("cdf"), dtype=float) - at_or_below / n)))
    below = through[np.searchsorted(indices, points, "left")]
    qs = table.column("q") if spec.kind is TaskKind.QUANTILES else [0.5]
    targets = np.asarray(qs, dtype=float) * n
    return float(np.mean(np.maximum(np.maximum(below - targets, targets - at_or_below), 0))) / n


RANKED_KINDS = (TaskKind.CDF, TaskKind.QUANTILES, TaskKind.MEDIAN)
"""Tasks whose error ``rank_error`` measures."""


def release_error(
    spec: TaskSpec, table: ReleaseTable, values: np.ndarray, labels: np.ndarray | None
) -> float:
    """The task's error of one release against the simulated truth."""
    grid_indices = spec.domain.to_grid(values)
    if spec.kind in RANKED_KINDS:
        return rank_error(spec, table, *np.unique(grid_indices, return_counts=True))
    grid = spec.domain.from_grid(grid_indices)
    if spec.kind is TaskKind.INTERIOR_POINT:
        value = float(table.column("value")[0])
        return float(not grid.min() <= value <= grid.max())
    if spec.kind is TaskKind.THRESHOLD and labels is not None:
        threshold, direction = table.column("threshold")[0], str(table.column("direction")[0])
        if threshold == NO_THRESHOLD:  # the learner's "predict negative everywhere" hypothesis
            predicted = np.zeros(grid.size, dtype=bool)
        else:
            predicted = grid >= float(threshold) if direction == "ge" else grid <= float(threshold)
        return float(np.mean(predicted != labels))
    raise ValueError(f"the {spec.kind.value} release has none of the columns the error measure reads")


def simulated_labels(spec: TaskSpec, values: np.ndarray) -> np.ndarray:
    """A separable labelling at the middle of the domain, in the direction the spec learns: positive iff
    x >= middle for "ge", else positive iff x <= middle ("le", and "auto", whose classes hold both)."""
    grid = spec.domain.from_grid(spec.domain.to_grid(values))
    middle = spec.domain.value_of(spec.domain.size // 2)
    if str(spec.parameter("direction", "auto")) == "ge":
        return grid >= middle
    return grid <= middle


def label_cells(labels: np.ndarray, positive: str | None) -> np.ndarray:
    """Label cells the learner reads back as ``labels``: the declared positive value and another text, or
    1/0 when no positive value is declared."""
    if positive is None:
        return labels.astype(int)
    return np.where(labels, positive, f"not {positive}")


@functools.lru_cache(maxsize=128)
def simulate(spec: TaskSpec, n: int, trials: int = 20, seed: int = 0, shape: str = "normal") -> Simulation:
    """Run the spec's algorithm ``trials`` times on simulated data of n rows (cached per spec).

    Without a public sample the data is synthetic, of the given ``shape`` (one of SHAPES)."""
    import pandas as pd  # the data layer: loaded by a simulation, not by importing the planner

    from dpgui.data.aggregate import InMemoryAggregator
    from dpgui.data.dataset import Dataset

    if spec.kind not in ERROR_MEASURES:
        raise ValueError(f"no simulation for the task {spec.kind.value!r} yet")
    info = get_algorithm(spec.algorithm)
    data_rng = simulation_generator(seed)
    noise = SeededRandom(seed + 1)
    draw, source = _data_source(spec, shape)
    errors = []
    for _ in range(trials):
        values = draw(n, data_rng)
        frame = pd.DataFrame({spec.columns[0]: values})
        labels = None
        if spec.kind is TaskKind.THRESHOLD:
            labels = simulated_labels(spec, values)
            frame[spec.label or SYNTHETIC_LABEL] = label_cells(labels, spec.positive)
        dataset = Dataset(Path("<simulated>"), "simulated", frame)
        table = run_to_end(info.run(spec, InMemoryAggregator(dataset), noise))
        errors.append(release_error(spec, table, values, labels))
    return Simulation(info.name, tuple(errors), ERROR_MEASURES[spec.kind], source)


COUNTED_KINDS = (TaskKind.CDF, TaskKind.QUANTILES)
"""Tasks whose algorithms read only grid counts: above CALIBRATION_ROWS they are simulated at the full n
from counts (``simulate_counts``) instead of on CALIBRATION_ROWS rows."""
REFERENCE_ROWS = 1 << 20
"""Draws of a synthetic shape that estimate its distribution over the grid for ``simulate_counts``."""


def _grid_distribution(spec: TaskSpec, rng: np.random.Generator, shape: str) -> tuple[np.ndarray, str]:
    """The probability of every grid point, estimated from REFERENCE_ROWS draws of the public sample's
    population (``SmoothedPopulation``) or of the synthetic shape."""
    domain = spec.domain
    draw, source = _data_source(spec, shape)
    values = draw(REFERENCE_ROWS, rng)
    counts = np.bincount(domain.to_grid(values).astype(np.intp), minlength=domain.size)
    return counts / counts.sum(), source


@functools.lru_cache(maxsize=128)
def simulate_counts(spec: TaskSpec, n: int, trials: int, seed: int = 0, shape: str = "normal") -> Simulation:
    """Like ``simulate`` for COUNTED_KINDS, at any n for the cost of the grid: each trial draws the grid
    counts of n records at once (a multinomial) from the data's distribution on the grid."""
    from dpgui.data.aggregate import GridCountsAggregator

    info = get_algorithm(spec.algorithm)
    data_rng = simulation_generator(seed)
    noise = SeededRandom(seed + 1)
    distribution, source = _grid_distribution(spec, data_rng, shape)
    errors = []
    for _ in range(trials):
        counts = data_rng.multinomial(n, distribution).astype(np.int64)
        table = run_to_end(info.run(spec, GridCountsAggregator(spec.columns[0], spec.domain, counts), noise))
        held = np.flatnonzero(counts)
        errors.append(rank_error(spec, table, held.astype(np.uint64), counts[held]))
    return Simulation(info.name, tuple(errors), ERROR_MEASURES[spec.kind], source)


CALIBRATION_TRIALS = 2
"""Seeded releases per synthetic shape (or, with a public sample, 2 x len(SHAPES) resamples of it)."""
RACE_FACTOR = 3
"""How many times CALIBRATION_TRIALS the algorithms auto races are simulated (``refine_expected_error``):
the first pass's releases and twice as many more, on RACE_SEED."""
RACE_TRIALS = RACE_FACTOR * CALIBRATION_TRIALS
RACE_SEED = 119
"""The seed of a race's extra releases (the first pass's are on 18, kept from its cache)."""
RACE_MARGIN = 1.25
"""Auto races the simulated algorithms whose first estimate is at most this multiple of the best one."""
RACED_SPECS = 1024
"""How many raced specs ``expected_error`` remembers (a bound on the memory; forgetting costs time only)."""
_race_trials: dict[tuple[TaskSpec, int], int] = {}
CALIBRATION_ROWS = 20_000
"""Above this many rows the simulations for ``auto`` (CDF and quantile tasks) draw grid counts at the full n
(``simulate_counts``) instead of rows."""
CALIBRATION_GRID = {TaskKind.CDF: (1 << 16) + 1, TaskKind.QUANTILES: 1 << 20}
"""The tasks ``auto`` simulates, and the grid size above which it ranks by the bounds instead (2^16 bins are
2^16 + 1 grid points, so a CDF of 65,536 bins is still simulated): the CLI waits
for the simulations, which take about a second for a CDF at 2^16 points (28k rows, 2 cores; 17 s at 2^20)
and half a second for nine quantiles at 2^18."""


SIMULATED = "simulated mean error"
"""The kind of an ``ErrorEstimate`` measured in seeded simulations (the other kind is ``BOUND``)."""
BOUND = "a-priori bound"
"""The kind of an ``ErrorEstimate`` that is the algorithm's proven bound (``AlgorithmInfo.predicted_error``):
said apart from a simulated mean, which is often far below it (an export audit found both called
"predicted error" in one review, 0.013 and 0.0042)."""


@dataclass(frozen=True)
class ErrorEstimate:
    """The error ``auto`` ranks an algorithm by, and the review shows and checks: one number for both."""

    value: float
    kind: str
    """``SIMULATED`` (a calibrated algorithm with a simulation) or ``BOUND`` (its bound)."""


def error_estimate(info: AlgorithmInfo, spec: TaskSpec, n: int, *, simulate: bool = True) -> ErrorEstimate:
    """A calibrated algorithm's simulated mean error where the task has a simulation, else (or with
    ``simulate=False``) its bound."""
    simulated = expected_error(spec, n) if info.calibrated and simulate else None
    if simulated is not None:
        return ErrorEstimate(simulated, SIMULATED)
    return ErrorEstimate(info.predicted_error(spec, n), BOUND)


def expected_error(spec: TaskSpec, n: int) -> float | None:
    """The mean error of a few seeded simulated releases of the spec's (concrete) algorithm, in the unit
    of its ``predicted_error``; None when the task has no simulation or the grid is too large.

    CALIBRATION_TRIALS releases per shape, or RACE_TRIALS once ``refine_expected_error`` raced the spec:
    the review and the plan then show the number auto ranked it by."""
    return _expected_error(spec, n, _race_trials.get((spec, n), CALIBRATION_TRIALS))


def refine_expected_error(spec: TaskSpec, n: int) -> float | None:
    """``expected_error`` from RACE_TRIALS releases per shape, and from then on for this spec and n.

    Auto races the algorithms whose first estimates come within RACE_MARGIN of the best: JointExp's error
    varies from release to release by about half its mean, so two releases per shape ranked it ahead of
    PrivTree for 29 quantiles (10.8 against 11.0 misclassified points per quantile, geometric mean of the
    shapes), where twelve put it 9% behind (13.1 against 12.0) and benchmarks/cdf_accuracy.py measures it
    1.3 times PrivTree's error on both of its columns."""
    if len(_race_trials) >= RACED_SPECS:
        _race_trials.clear()
    _race_trials[spec, n] = RACE_TRIALS
    return expected_error(spec, n)


def _expected_error(spec: TaskSpec, n: int, trials: int) -> float | None:
    """``expected_error`` from ``trials`` seeded releases per synthetic shape (or ``trials`` x len(SHAPES)
    resamples of the public sample).

    The data is the public sample resampled if the spec has one that describes the grid
    (``simulates_public_sample``); otherwise ``trials`` draws of each synthetic shape in SHAPES
    (normal, skewed, spiky, heaped) on the declared domain, because auto cannot see the data and the
    data-adaptive engines' errors depend on its shape. The shapes' mean errors
    are then combined by their geometric mean (``across_shapes``), so every shape weighs the same in
    relative terms. Never the private data.

    Always at the full n: above CALIBRATION_ROWS rows from grid counts (``simulate_counts``), since a
    data-adaptive engine's rank error grows with n, and on DPBench's shapes at 10^7 records PrivTree loses to
    the tree where 20,000 rows showed it ahead (benchmarks/dpbench_1d.md).
    """
    if spec.domain.size > CALIBRATION_GRID.get(spec.kind, 0) or n < 1:
        return None
    run = simulate_counts if n > CALIBRATION_ROWS and spec.kind in COUNTED_KINDS else simulate

    def errors(count: int, shape: str = "normal") -> list[float]:
        """``count`` releases: the first pass's (cached), then a race's extra ones on seeds of their own."""
        first = min(count, CALIBRATION_TRIALS * count // trials)
        extra = [] if count == first else list(run(spec, n, count - first, RACE_SEED, shape).errors)
        return [*run(spec, n, first, 18, shape).errors, *extra]

    if simulates_public_sample(spec):
        return float(np.mean(errors(trials * len(SHAPES))))
    by_shape = [float(np.mean(errors(trials, shape))) for shape in SHAPES]
    return across_shapes(by_shape, floor=1 / n)


def simulates_public_sample(spec: TaskSpec) -> bool:
    """Whether auto simulates on the public sample: it holds the column and describes its declared grid
    (``review.sample_fit``: its central 98% fills at least 5% of the range, at most 5% of it outside).
    Otherwise it simulates on the synthetic shapes, and so does the preview (``simulate``): a sample on
    another scale (the demo's hourly wages under a weekly grid, all in its first 1%) is a few point
    masses, and says nothing of the column."""
    fit = sample_fit(spec)
    return fit is not None and fit.passed


def across_shapes(errors: list[float], floor: float) -> float:
    """The geometric mean of the shapes' mean errors, each at least ``floor`` (one record's share).

    An arithmetic mean lets the shape with the largest errors decide: on DPBench's setup
    (benchmarks/dpbench_1d.md) PrivTree's error on the "spiky" shape outweighed its lead on the three others
    at 1,000 rows and eps = 1, where it is 1.7 times better than the tree on both of DPBench's shapes. With
    the geometric mean an engine twice as good on one shape and twice as bad on another breaks even."""
    return float(np.exp(np.mean(np.log(np.maximum(errors, floor)))))
