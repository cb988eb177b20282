"""Simulation preview: run an algorithm on public or synthetic data with a seeded generator.

Nothing private is read and no budget is spent: the data is the public sample (resampled to n rows) or
synthetic data drawn on the declared domain. The result is a distribution of errors in the task's own
terms (spec 003 s8 item 1 "simulation mode"; DP Wizard's previews, anchors s1.2).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import Dataset
from dpgui.privacy.random import SeededRandom, simulation_generator
from dpgui.tasks.learning import NO_THRESHOLD
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec

SYNTHETIC_LABEL = "label"
ERROR_MEASURES = {
    TaskKind.MEDIAN: "rank error / n",
    TaskKind.QUANTILES: "largest rank error / n",
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


def _simulated_values(spec: TaskSpec, n: int, rng: np.random.Generator) -> tuple[np.ndarray, str]:
    column, domain = spec.columns[0], spec.domain
    if spec.public is not None and column in spec.public.frame.columns:
        public = spec.public.column_values(column, domain)
        if public.size:
            return rng.choice(public, size=n, replace=True), f"public sample {spec.public.path.name}"
    middle, spread = (domain.lower + domain.upper) / 2, (domain.upper - domain.lower) / 6
    values = np.clip(rng.normal(middle, spread, size=n), domain.lower, domain.upper)
    return values, "synthetic normal data on the declared domain"


def _rank_error(sorted_values: np.ndarray, value: float, target_rank: float) -> float:
    below = np.searchsorted(sorted_values, value, "left")
    at_or_below = np.searchsorted(sorted_values, value, "right")
    return float(max(below - target_rank, target_rank - at_or_below, 0)) / sorted_values.size


def release_error(
    spec: TaskSpec, table: ReleaseTable, values: np.ndarray, labels: np.ndarray | None
) -> float:
    """The task's error of one release against the simulated truth."""
    grid = spec.domain.from_grid(spec.domain.to_grid(values))
    ordered = np.sort(grid)
    n = ordered.size
    if "cdf" in table.columns:  # against the share of (clipped) records <= value, what cdf means
        points = np.asarray(table.column("value"), dtype=float)
        released = np.asarray(table.column("cdf"), dtype=float)
        clipped = np.sort(np.clip(values, spec.domain.lower, spec.domain.upper))
        truth = np.searchsorted(clipped, points, "right") / n
        return float(np.max(np.abs(released - truth)))
    if spec.kind is TaskKind.QUANTILES:
        pairs = zip(table.column("q"), table.column("value"), strict=True)
        return max(_rank_error(ordered, float(v), float(q) * n) for q, v in pairs)
    if spec.kind is TaskKind.MEDIAN:
        return _rank_error(ordered, float(table.column("value")[0]), n / 2)
    if spec.kind is TaskKind.INTERIOR_POINT:
        value = float(table.column("value")[0])
        return float(not ordered[0] <= value <= ordered[-1])
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


@functools.lru_cache(maxsize=64)
def simulate(spec: TaskSpec, n: int, trials: int = 20, seed: int = 0) -> Simulation:
    """Run the spec's algorithm ``trials`` times on simulated data of n rows (cached per spec)."""
    if spec.kind not in ERROR_MEASURES:
        raise ValueError(f"no simulation for the task {spec.kind.value!r} yet")
    info = get_algorithm(spec.algorithm)
    data_rng = simulation_generator(seed)
    noise = SeededRandom(seed + 1)
    errors, source = [], ""
    for _ in range(trials):
        values, source = _simulated_values(spec, n, data_rng)
        frame = pd.DataFrame({spec.columns[0]: values})
        labels = None
        if spec.kind is TaskKind.THRESHOLD:
            labels = simulated_labels(spec, values)
            frame[spec.label or SYNTHETIC_LABEL] = label_cells(labels, spec.positive)
        dataset = Dataset(Path("<simulated>"), "simulated", frame)
        table = run_to_end(info.run(spec, InMemoryAggregator(dataset), noise))
        errors.append(release_error(spec, table, values, labels))
    return Simulation(info.name, tuple(errors), ERROR_MEASURES[spec.kind], source)
