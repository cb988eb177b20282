"""Pins of the simulation preview (``dpgui/tasks/simulation.py``): the smoothed public population's draw
interval for a value held once (to its 10th distinct neighbour, the declared bounds past the ends), the
error measures a simulated release is scored by, the simulated labels, and a cached simulation's
immutability."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks import simulation
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.simulation import SmoothedPopulation, rank_error, release_error
from dpgui.tasks.spec import TaskKind, TaskSpec

SAMPLE = np.append(np.arange(30.0), [50.0, 50.0])
"""30 values held once (0 to 29) and an atom (50, held twice): 31 distinct values."""


class _Picks:
    """A generator stand-in: ``integers`` takes the given sample positions (offset by its lower bound),
    ``uniform`` returns ``u`` for every draw."""

    def __init__(self, positions: list[int], u: float) -> None:
        self.positions, self.u = positions, u

    def integers(self, low: int, high: int, size: int) -> np.ndarray:
        assert high == SAMPLE.size and size == len(self.positions)
        return low + np.asarray(self.positions)

    def uniform(self, size: int) -> np.ndarray:
        return np.full(size, self.u)


@pytest.mark.parametrize(
    ("position", "low", "high"),
    [
        (0, (-100 + 0) / 2, (0 + 10) / 2),  # no 10th neighbour below: the declared lower bound
        (9, (-100 + 9) / 2, (9 + 19) / 2),
        (10, (0 + 10) / 2, (10 + 20) / 2),
        (20, (10 + 20) / 2, (20 + 50) / 2),  # the 10th neighbour above is the atom, the last value
        (21, (11 + 21) / 2, (21 + 100) / 2),  # none above: the declared upper bound
    ],
)
def test_a_value_held_once_is_drawn_between_the_midpoints_to_its_tenth_neighbours(position, low, high):
    """A singleton is spread uniformly from the midpoint to its 10th distinct neighbour below to the one
    above (a declared bound where there is none); an atom is drawn as it is."""
    population = SmoothedPopulation.of(SAMPLE, -100.0, 100.0)
    for u, expected in ((0.0, low), (1.0, high)):
        drawn = population.draw(3, _Picks([position, 30, 31], u))
        assert drawn.tolist() == [expected, 50.0, 50.0]


def test_draws_reach_the_smallest_and_clip_to_the_declared_bounds():
    """Every sample value can be drawn (the first one too), and a spread value never leaves the bounds."""
    population = SmoothedPopulation.of(SAMPLE, -1.0, 100.0)
    assert population.draw(1, _Picks([0], 0.0)).tolist() == [-0.5]
    drawn = population.draw(20_000, np.random.default_rng(0))
    assert drawn.min() < 1.0 and drawn.min() >= -1.0 and drawn.max() <= 100.0


def test_a_cached_simulation_cannot_be_changed_by_a_caller():
    """``simulate`` is cached: the Simulation it returns (and a population) are frozen, so a caller
    cannot change what the next caller gets."""
    result = simulation.Simulation("tree", (0.1, 0.2), "max |CDF error|", "synthetic")
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.errors = ()  # type: ignore[misc]
    population = SmoothedPopulation.of(SAMPLE, 0.0, 100.0)
    with pytest.raises(dataclasses.FrozenInstanceError):
        population.lower = 5.0  # type: ignore[misc]
    estimate = simulation.ErrorEstimate(0.1, simulation.SIMULATED)
    with pytest.raises(dataclasses.FrozenInstanceError):
        estimate.value = 0.0  # type: ignore[misc]


TEN = NumericDomain(0, 9, 1)
DATA = (np.array([2, 5], dtype=np.uint64), np.array([3, 1]))
"""Four records: three at grid point 2, one at 5."""


def _task(kind: TaskKind, **parameters: object) -> TaskSpec:
    return TaskSpec(kind, ("x",), (TEN,), 1.0, 0.0, "tree", parameters=tuple(parameters.items()))


def test_a_cdfs_error_is_its_largest_distance_from_the_share_at_or_below_each_point():
    """|0.5 - 3/4| at 2, |0.8 - 3/4| at 4, 0 at 5 and 9: the error is the largest, 0.25."""
    released = ReleaseTable(("value", "cdf"), ((2, 0.5), (4, 0.8), (5, 1.0), (9, 1.0)))
    assert rank_error(_task(TaskKind.CDF), released, *DATA) == pytest.approx(0.25, abs=1e-12)
    exact = ReleaseTable(("value", "cdf"), ((0, 0.0), (2, 0.75), (5, 1.0)))
    assert rank_error(_task(TaskKind.CDF), exact, *DATA) == 0.0


@pytest.mark.parametrize(
    ("q", "value", "error"),
    [
        (0.5, 2, 0.0),  # 2 = q n lies in 2's rank interval [0, 3]
        (0.9, 2, (3.6 - 3) / 4),  # above it by 0.6 records
        (0.9, 5, 0.0),  # inside [3, 4]
        (0.25, 5, (3 - 1) / 4),  # below 5's interval [3, 4] by 2 records
        (0.5, 0, 2 / 4),  # at 0 the interval is [0, 0]
    ],
)
def test_a_quantiles_error_is_its_distance_from_the_released_points_rank_interval(q, value, error):
    """The distance from q n to [#{x < y}, #{x <= y}], over n."""
    released = ReleaseTable(("q", "value"), ((q, value),))
    assert rank_error(_task(TaskKind.QUANTILES), released, *DATA) == pytest.approx(error, abs=1e-12)


def test_a_quantile_releases_error_is_the_mean_over_its_quantiles():
    """Of several quantiles the error is the mean (misclassified points per quantile, issue 18's measure):
    0 for q = 0.5 at 2, 0.15 for q = 0.9 at 2, so 0.075, not the largest."""
    released = ReleaseTable(("q", "value"), ((0.5, 2), (0.9, 2)))
    assert rank_error(_task(TaskKind.QUANTILES), released, *DATA) == pytest.approx(0.075, abs=1e-12)


def test_a_medians_error_targets_half_the_records():
    """A median is scored as the quantile 0.5: at 0 it is 2 records of 4 short."""
    released = ReleaseTable(("value",), ((0,),))
    assert rank_error(_task(TaskKind.MEDIAN), released, *DATA) == pytest.approx(0.5, abs=1e-12)
    assert simulation.release_error(_task(TaskKind.MEDIAN), released, np.array([0.0, 9.0]), None) == 0.0


@pytest.mark.parametrize(("value", "error"), [(3, 0.0), (5, 0.0), (7, 0.0), (2, 1.0), (8, 1.0)])
def test_an_interior_point_is_wrong_only_outside_the_datas_range(value, error):
    """The interior-point error is 1 exactly when the output lies outside [min, max] (both inclusive)."""
    released = ReleaseTable(("value",), ((value,),))
    values = np.array([3.0, 4.0, 7.0])
    assert release_error(_task(TaskKind.INTERIOR_POINT), released, values, None) == error


@pytest.mark.parametrize(
    ("threshold", "direction", "error"),
    [(5, "ge", 0.0), (5, "le", 0.8), (4, "ge", 0.2), ("none", "ge", 0.4)],
)
def test_a_thresholds_error_is_its_misclassification_rate(threshold, direction, error):
    """Predicted positive at or above a "ge" threshold, at or below an "le" one; "none" predicts every
    record negative."""
    values = np.array([1.0, 4.0, 5.0, 6.0, 2.0])
    labels = values >= 5
    released = ReleaseTable(("threshold", "direction"), ((threshold, direction),))
    assert release_error(_task(TaskKind.THRESHOLD), released, values, labels) == pytest.approx(error)


def test_a_release_without_a_measured_column_is_an_error():
    """A histogram has no simulation error measure: scoring it raises instead of returning a number."""
    with pytest.raises(ValueError, match="none of the columns"):
        release_error(_task(TaskKind.HISTOGRAM), ReleaseTable(("value",), ((1,),)), np.array([1.0]), None)
    threshold = ReleaseTable(("threshold", "direction"), ((5, "ge"),))
    with pytest.raises(ValueError, match="none of the columns"):  # a threshold is scored against labels
        release_error(_task(TaskKind.THRESHOLD), threshold, np.array([1.0]), None)


@pytest.mark.parametrize(
    ("direction", "positive"), [("ge", [False, True, True]), ("le", [True, True, False])]
)
def test_simulated_labels_split_at_the_grids_middle_point_inclusive(direction, positive):
    """The labels are positive from the middle grid point (value_of(size // 2) = 5) on, for "ge"; up to it
    for "le" and "auto"."""
    values = np.array([4.0, 5.0, 6.0])
    assert (
        simulation.simulated_labels(_task(TaskKind.THRESHOLD, direction=direction), values).tolist()
        == positive
    )
    if direction == "le":
        assert simulation.simulated_labels(_task(TaskKind.THRESHOLD), values).tolist() == positive


def test_label_cells_are_the_declared_positive_or_one_and_zero():
    """The learner reads back the simulated labels: the positive value and "not ..." or 1 and 0."""
    labels = np.array([True, False])
    assert simulation.label_cells(labels, "yes").tolist() == ["yes", "not yes"]
    assert simulation.label_cells(labels, None).tolist() == [1, 0]


def test_across_shapes_is_the_geometric_mean_with_each_shape_floored():
    """exp(mean(log(max(e, floor)))): (0.1 * 0.4)^(1/2) = 0.2, and a zero counts as the floor."""
    assert simulation.across_shapes([0.1, 0.4], floor=0.01) == pytest.approx(0.2, rel=1e-12)
    assert simulation.across_shapes([0.0, 0.04], floor=0.01) == pytest.approx(0.02, rel=1e-12)


class _Fixed:
    """A generator stand-in: each method returns what ``returns`` gives for its arguments, and the calls
    are recorded."""

    def __init__(self, **returns) -> None:
        self.returns, self.calls = returns, []

    def __getattr__(self, name: str):
        def method(*args, **kwargs):
            self.calls.append((name, args, kwargs))
            return np.asarray(self.returns[name](*args, **kwargs), dtype=np.float64)

        return method


SPIKES = [0.1, 0.3, 0.5, 0.7, 0.9]


@pytest.mark.parametrize(
    ("shape", "returns", "calls", "expected"),
    [
        (
            "normal",
            {"normal": lambda loc, scale, size: [loc - scale, loc, loc + 7 * scale]},
            [("normal", (1500.0, 1000 / 6), {"size": 3})],
            [1500 - 1000 / 6, 1500, 2000],  # around the middle, sd width / 6, clipped
        ),
        (
            "skewed",
            {"lognormal": lambda mean, sigma, size: [1.0, 2.0, 100.0]},
            [("lognormal", (0, 1.5), {"size": 3})],
            [1000 + 1000 / 50, 1000 + 2000 / 50, 2000],  # lower + width * L / 50
        ),
        (
            "heaped",
            {"lognormal": lambda mean, sigma, size: [1.0, 0.361, 20.0]},
            [("lognormal", (0, 0.6), {"size": 3})],
            [1125, 1045, 2000],  # width * L / 8 rounded to a multiple of width / 400, above lower
        ),
        (
            "spiky",
            {
                "uniform": lambda *args, size: SPIKES if args == (0.1, 0.9) else [0.5, 0.69, 0.7],
                "choice": lambda spikes, size: spikes[:size],
                "normal": lambda loc, scale, size: [loc + scale] * size,
            },
            [
                ("uniform", (0.1, 0.9), {"size": 5}),
                ("uniform", (), {"size": 3}),
                ("choice", (pytest.approx([1100, 1300, 1500, 1700, 1900]),), {"size": 3}),
                ("normal", (1500.0, 1000 / 6, 3), {}),
            ],
            [1100, 1300, 1500 + 1000 / 6],  # a spike where the uniform is below 0.7, else the normal
        ),
    ],
)
def test_each_synthetic_shape_is_its_stated_transform_of_the_draws(shape, returns, calls, expected):
    """On [1000, 2000] (width 1000): normal(1500, 1000/6); lower + width * lognormal(0, 1.5) / 50;
    width * lognormal(0, 0.6) / 8 on steps of width / 400 above lower; five uniform spikes in
    [lower + 0.1 width, lower + 0.9 width] taken with probability 0.7, else the normal; all clipped."""
    rng = _Fixed(**returns)
    values = simulation._synthetic_values(NumericDomain(1000, 2000, 1), shape, 3, rng)
    assert values.tolist() == pytest.approx(expected, rel=1e-12)
    assert rng.calls == calls


HUNDRED = NumericDomain(0, 100, 1)


def test_a_simulation_is_its_trials_seeded_releases_on_the_shape_it_names():
    """``trials`` errors in the task's measure, the same for the same seed and different for another, on
    synthetic data of the shape asked for (named in its source)."""
    spec = TaskSpec(TaskKind.MEDIAN, ("x",), (HUNDRED,), 0.05, 0.0, "em")
    result = simulation.simulate(spec, 300, trials=3, seed=7, shape="normal")
    assert len(result.errors) == 3 and result.unit == "rank error / n" and result.algorithm == "em"
    assert result.source == "synthetic normal data on the declared domain"
    simulation.simulate.cache_clear()
    assert simulation.simulate(spec, 300, trials=3, seed=7, shape="normal").errors == result.errors
    assert simulation.simulate(spec, 300, trials=3, seed=8, shape="normal").errors != result.errors
    skewed = simulation.simulate(spec, 300, trials=1, seed=7, shape="skewed")
    assert skewed.source == "synthetic skewed data on the declared domain"
    with pytest.raises(ValueError, match="no simulation for the task 'histogram'"):
        simulation.simulate(dataclasses.replace(spec, kind=TaskKind.HISTOGRAM, algorithm="laplace"), 300)


@pytest.mark.parametrize(("label", "positive"), [("y", "yes"), ("y", None)])
def test_a_threshold_simulation_writes_the_labels_where_the_learner_reads_them(label, positive):
    """The simulated labels go in the spec's label column (as its positive value and another, or 1/0
    without one): the learner runs on them and errs on few records."""
    spec = TaskSpec(
        TaskKind.THRESHOLD, ("x",), (HUNDRED,), 5.0, 0.0, "em-threshold", label=label, positive=positive
    )
    result = simulation.simulate(spec, 2000, trials=2, seed=1)
    assert len(result.errors) == 2 and max(result.errors) < 0.1
    assert result.unit == "misclassification rate"


def test_counted_simulations_draw_n_records_on_the_grid_for_each_trial():
    """At n = 10^6 a CDF is simulated from grid counts: ``trials`` errors, each small at that n."""
    spec = TaskSpec(TaskKind.CDF, ("x",), (HUNDRED,), 1.0, 0.0, "tree-laplace")
    result = simulation.simulate_counts(spec, 10**6, 3, seed=2)
    assert len(result.errors) == 3 and max(result.errors) < 0.01 and result.unit == "max |CDF error|"
    distribution, source = simulation._grid_distribution(spec, np.random.default_rng(0), "normal")
    assert distribution.shape == (HUNDRED.size,) and distribution.sum() == pytest.approx(1.0)
    assert np.argmax(distribution) in range(45, 56) and source.startswith("synthetic normal data")


def test_auto_rescales_a_row_simulation_from_its_rows_to_n(monkeypatch):
    """A median at n = 40,000 is simulated on 20,000 rows (two seeded trials of each shape, seed 18, or
    eight of the public sample) and its error, a count over rows, is rescaled by 20,000 / n."""
    seen = []

    def fake(spec, rows, trials, seed=0, shape="normal"):
        seen.append((rows, trials, seed, shape))
        return simulation.Simulation("em", (0.1, 0.3), "rank error / n", "stub")

    monkeypatch.setattr(simulation, "simulate", fake)
    spec = TaskSpec(TaskKind.MEDIAN, ("x",), (HUNDRED,), 1.0, 0.0, "em")
    assert simulation.expected_error(spec, 40_000) is None  # a median is not a simulated task for auto
    cdf = dataclasses.replace(spec, kind=TaskKind.QUANTILES, algorithm="aq", parameters=(("q", "0.5"),))
    assert simulation.expected_error(cdf, 0) is None  # no records: nothing to simulate
    assert simulation.expected_error(cdf, 10_000) == pytest.approx(0.2, rel=1e-12)
    assert seen == [(10_000, 2, 18, shape) for shape in simulation.SHAPES]
    seen.clear()
    monkeypatch.setattr(simulation, "simulates_public_sample", lambda spec: True)
    assert simulation.expected_error(cdf, 10_000) == pytest.approx(0.2, rel=1e-12)
    assert seen == [(10_000, 8, 18, "normal")]


def test_error_estimate_is_simulated_for_calibrated_algorithms_only(monkeypatch):
    """A calibrated algorithm is ranked by its simulated mean error (unless simulate=False), any other by
    its predicted error."""
    monkeypatch.setattr(simulation, "expected_error", lambda spec, n: 0.125)
    spec = TaskSpec(TaskKind.CDF, ("x",), (HUNDRED,), 1.0, 0.0, "privtree")
    calibrated = get_algorithm("privtree")
    assert simulation.error_estimate(calibrated, spec, 1000) == simulation.ErrorEstimate(
        0.125, simulation.SIMULATED
    )
    bound = simulation.ErrorEstimate(calibrated.predicted_error(spec, 1000), simulation.BOUND)
    assert simulation.error_estimate(calibrated, spec, 1000, simulate=False) == bound
    plain = get_algorithm("privtree-histogram")
    assert not plain.calibrated
    assert simulation.error_estimate(plain, spec, 1000).kind == simulation.BOUND == "a-priori bound"


def test_a_race_adds_releases_on_a_seed_of_its_own_and_reuses_the_first_passes(monkeypatch):
    """refine_expected_error's 6 releases per shape: the first pass's 2 (seed 18, cached) and 4 more on
    RACE_SEED; on seed 18 again the 4 would start with the first pass's 2 releases, repeated."""
    seen = []

    def fake(spec, rows, trials, seed=0, shape="normal"):
        seen.append((trials, seed, shape))
        return simulation.Simulation("aq", (0.1,) * trials, "rank error / n", "stub")

    monkeypatch.setattr(simulation, "simulate", fake)
    spec = TaskSpec(TaskKind.QUANTILES, ("x",), (HUNDRED,), 1.0, 0.0, "aq", parameters=(("q", "0.5"),))
    assert simulation._expected_error(spec, 1000, simulation.RACE_TRIALS) == pytest.approx(0.1)
    extra = simulation.RACE_TRIALS - simulation.CALIBRATION_TRIALS
    for shape in simulation.SHAPES:
        assert (simulation.CALIBRATION_TRIALS, 18, shape) in seen
        assert (extra, simulation.RACE_SEED, shape) in seen
    assert simulation.RACE_SEED != 18
