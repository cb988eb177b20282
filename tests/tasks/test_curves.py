"""Every recorded privacy curve implies the cost its algorithm books, and matches the noise it draws."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.accountant import VALUE_DISCRETIZATION, BookedRelease, compose
from dpgui.privacy.cost import PrivacyCost, zcdp_epsilon, zcdp_rho_for
from dpgui.privacy.curve import DpSteps, NoiseKind, PrivacyCurve
from dpgui.privacy.noise_batch import BatchedLaplace
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import Guarantee, algorithms, get_algorithm
from dpgui.tasks.runner import prepare
from dpgui.tasks.spec import TaskKind, TaskSpec

GRID = NumericDomain(0, 5000, 1)


def spec(kind: TaskKind, algorithm: str, epsilon: float, delta: float) -> TaskSpec:
    return TaskSpec(kind, ("wage",), (GRID,), epsilon, delta, algorithm)


CURVED = [(info.task, info.name) for info in algorithms() if info.name in {
    "tree-laplace", "tree-gaussian", "tree-cdf", "tree-synthetic", "geometric"
}]  # fmt: skip


def test_the_tree_and_histogram_algorithms_record_a_curve() -> None:
    assert len(CURVED) == 5


@pytest.mark.parametrize(("kind", "name"), CURVED)
@pytest.mark.parametrize(("epsilon", "delta"), [(0.5, 1e-7), (2.0, 1e-5)])
def test_a_curve_implies_the_booked_cost(kind: TaskKind, name: str, epsilon: float, delta: float) -> None:
    prepared = prepare(spec(kind, name, epsilon, delta), 2000)
    assert prepared.curve is not None
    alone = compose([BookedRelease(prepared.cost, prepared.curve)], max(prepared.cost.delta, 1e-12))
    rounds = sum(r.count for r in prepared.curve.noise)  # the PLD grid rounds each loss up by <= 1e-4
    assert alone.tight_epsilon <= prepared.cost.epsilon + rounds * VALUE_DISCRETIZATION
    assert alone.spent.epsilon <= prepared.cost.epsilon
    for rounds in prepared.curve.noise:
        pure = rounds.epsilon
        if pure is not None:  # Laplace: the pure epsilon of the noise is the cost
            assert pure == pytest.approx(prepared.cost.epsilon, rel=1e-12)


class NoiseSpy(SeededRandom):
    """Records the scale and size of every noise draw."""

    def __init__(self) -> None:
        super().__init__(0)
        self.draws: list[tuple[str, float, int]] = []

        self.inside = False

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        if not self.inside:  # not the Gaussian sampler's own Laplace proposals
            self.draws.append(("discrete_laplace", scale, size))
        return super().discrete_laplace(scale, size)

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        self.draws.append(("discrete_gaussian", sigma, size))
        self.inside = True
        try:
            return super().discrete_gaussian(sigma, size)
        finally:
            self.inside = False


@pytest.mark.parametrize(("kind", "name"), CURVED)
def test_the_curve_describes_the_noise_the_algorithm_draws(kind: TaskKind, name: str, wages_csv) -> None:
    prepared = prepare(spec(kind, name, 0.5, 1e-7), 2000)
    assert prepared.curve is not None
    (rounds,) = prepared.curve.noise
    spy = NoiseSpy()
    run_to_end(prepared.algorithm.run(prepared.spec, InMemoryAggregator(open_dataset(wages_csv)), spy))
    assert {(noise, scale) for noise, scale, _ in spy.draws} == {(rounds.noise.value, rounds.scale)}
    if name != "geometric":  # a tree draws once per level; replace-one moves 2 nodes per level
        assert rounds.count == 2 * len(spy.draws)
    if rounds.noise is NoiseKind.DISCRETE_GAUSSIAN:
        assert prepared.curve.rho == pytest.approx(rounds.count / (2 * rounds.scale**2), rel=1e-12)


def test_an_algorithm_without_steps_of_its_own_records_its_cost_as_one_step() -> None:
    pure = prepare(TaskSpec(TaskKind.QUANTILES, ("wage",), (GRID,), 1.0, 0.0, "aq"), 2000)
    assert (
        pure.curve == PrivacyCurve(steps=(DpSteps(PrivacyCost(1.0)),)) and pure.curve.form == "pure-epsilon"
    )
    approximate = prepare(TaskSpec(TaskKind.INTERIOR_POINT, ("wage",), (GRID,), 1.0, 1e-6, "treelog"), 10**6)
    assert approximate.curve is not None and approximate.curve.form == "epsilon-delta"
    assert approximate.curve.steps == (DpSteps(approximate.cost),)


TWO_COLUMNS = {TaskKind.DISTANCE, TaskKind.RECTANGLE, TaskKind.TABLE}
LABELLED = {TaskKind.THRESHOLD, TaskKind.POINT, TaskKind.RECTANGLE}


def any_spec(name: str, delta: float) -> TaskSpec:
    """A spec of the algorithm's task over GRID (two columns where the task needs them)."""
    info = get_algorithm(name)
    columns = ("wage", "education") if info.task in TWO_COLUMNS else ("wage",)
    label = "label" if info.task in LABELLED else None
    return TaskSpec(info.task, columns, (GRID,) * len(columns), 1.0, delta, name, label=label)


@pytest.mark.parametrize("name", [info.name for info in algorithms()])
@pytest.mark.parametrize("delta", [0.0, 1e-6])
def test_every_recorded_curve_implies_its_cost_and_a_pure_one_charges_its_epsilon(name: str, delta: float):
    info = get_algorithm(name)
    spec = any_spec(name, delta)
    cost, curve = info.cost(spec), info.recorded_curve(spec)
    steps = sum(r.count for r in curve.noise) + sum(s.count for s in curve.steps)
    alone = compose([BookedRelease(cost, curve)], max(cost.delta, 1e-9))
    assert alone.tight_epsilon <= cost.epsilon + max(steps, 1) * VALUE_DISCRETIZATION
    assert alone.spent.epsilon <= cost.epsilon and alone.spent.delta <= max(cost.delta, 1e-9)
    if cost.is_pure:  # a pure total: the ledger charges exactly the pure epsilon
        assert compose([BookedRelease(cost, curve)], 0.0).spent == cost
        assert curve.form in ("pld", "pure-epsilon")
    if info.guarantee_for(spec) is Guarantee.PURE:  # as the manifest states it: then nothing charges a δ
        assert cost.is_pure and curve.form in ("pld", "pure-epsilon")


@pytest.mark.parametrize(
    ("name", "delta", "at_most"),
    [("san-points", 1e-6, 0.8), ("k-point", 1e-6, 0.8), ("laplace-per-query", 1e-6, 0.5)],
)
def test_steps_in_their_own_form_charge_less_than_the_booked_cost(name: str, delta: float, at_most: float):
    """SanPoints' Laplace counts and choosing runs, or a thousand Laplace answers, compose tightly below
    the epsilon that advanced or basic composition booked."""
    info = get_algorithm(name)
    spec = any_spec(name, delta)
    cost = info.cost(spec)
    spent = compose([BookedRelease(cost, info.recorded_curve(spec))], 1e-6).spent
    assert spent.epsilon <= at_most * cost.epsilon


def test_em_each_records_one_pure_step_per_quantile() -> None:
    spec = dataclasses.replace(any_spec("em-each", 0.0), parameters=(("q", "0.25,0.5,0.75"),))
    assert get_algorithm("em-each").recorded_curve(spec).steps == (DpSteps(PrivacyCost(1 / 3), 3),)


def test_the_laplace_rounds_recorded_per_query_are_the_noise_drawn(wages_csv, tmp_path) -> None:
    queries = tmp_path / "queries.csv"
    queries.write_text("wage,education\n100,3\n2500,12\n4000,18\n")
    spec = dataclasses.replace(any_spec("laplace-per-query", 0.0), parameters=(("queries", str(queries)),))
    prepared = prepare(spec, 2001)
    assert prepared.curve is not None
    (rounds,) = prepared.curve.noise
    spy = NoiseSpy()
    run_to_end(prepared.algorithm.run(prepared.spec, InMemoryAggregator(open_dataset(wages_csv)), spy))
    laplace = [(scale, size) for noise, scale, size in spy.draws if noise == "discrete_laplace"]
    assert laplace == [(rounds.scale, rounds.count)] and rounds.count == 3


@pytest.mark.parametrize("name", ["cdf-route", "bourgain", "gaussian-per-query"])
def test_gaussian_distance_releases_record_the_rho_they_are_calibrated_to(name: str) -> None:
    from dpgui.tasks.distance import _budget

    info = get_algorithm(name)
    two = (NumericDomain(0, 100, 1), NumericDomain(0, 100, 1))
    spec = TaskSpec(TaskKind.DISTANCE, ("x", "y"), two, 1.0, 1e-6, name)
    curve = info.curve(spec)
    assert curve is not None and curve.rho == _budget(spec).rho
    assert zcdp_epsilon(curve.rho, 1e-6) <= info.cost(spec).epsilon
    assert info.curve(dataclasses.replace(spec, delta=0.0)) is None


@pytest.mark.parametrize("name", ["aim", "mst"])
def test_the_table_zcdp_algorithms_record_the_rho_they_measure_with(name: str) -> None:
    spec = any_spec(name, 1e-6)
    curve = get_algorithm(name).recorded_curve(spec)
    assert curve.rho == zcdp_rho_for(PrivacyCost(1.0, 1e-6)) and curve.form == "zcdp"


def test_independent_marginals_record_the_laplace_noise_they_draw(wages_csv) -> None:
    two = (NumericDomain(0, 2000, 10), NumericDomain(0, 18, 1))
    spec = TaskSpec(TaskKind.TABLE, ("wage", "education"), two, 1.0, 0.0, "independent")
    prepared = prepare(spec, 2001)
    (rounds,) = prepared.curve.noise
    spy = NoiseSpy()
    run_to_end(prepared.algorithm.run(prepared.spec, InMemoryAggregator(open_dataset(wages_csv)), spy))
    assert {(noise, scale) for noise, scale, _ in spy.draws} == {("discrete_laplace", rounds.scale)}
    assert rounds.count == 2 * len(spy.draws)  # a replaced record moves 2 cells of each marginal


class CountingLaplace(BatchedLaplace):
    """The sanitizers' noisy counts, each one counted; ``steer`` is added to every draw (a large value sends
    SanThresholds down its full branch on every range: two counts, one EM and one choosing run). A curve
    must cover every path, so steering the run to its longest one is fair."""

    def __init__(self, rng, scale: float, *, limit: int | None, drawn: list[float], steer: int) -> None:
        super().__init__(rng, scale, limit=limit)
        self.scale, self.drawn, self.steer = scale, drawn, steer

    def next(self) -> int:
        self.drawn.append(self.scale)
        return super().next() + self.steer


def _grid_run(
    name: str, masses: np.ndarray, monkeypatch, steer: int = 0, **parameters: float
) -> tuple[TaskSpec, dict]:
    """Run the task's algorithm on point masses over 2^16 grid points and count what it draws (each count
    shifted by ``steer``; an exponential mechanism over levels, where the algorithm has one, steered to
    level 0)."""
    import dpgui.algorithms.san_points as points
    import dpgui.algorithms.san_thresholds as thresholds
    from dpgui.data.aggregate import GridCountsAggregator

    grid = NumericDomain(0, 2**16 - 1, 1)
    info = get_algorithm(name)
    spec = TaskSpec(info.task, ("x",), (grid,), 1.0, 1e-6, name, parameters=tuple(parameters.items()))
    module = thresholds if name == "san-thresholds" else points
    seen: dict[str, list] = {"counts": [], "em": [], "choosing": []}
    real_em, real_choosing = getattr(module, "exponential_mechanism", None), module.choosing_mechanism

    def em(quality, eps, rng):  # run, then steered to level 0: each call takes one point off its range
        seen["em"].append(eps)
        real_em(quality, eps, rng)
        return 0

    def choosing(scores, params, rng):
        seen["choosing"].append(params)
        return real_choosing(scores, params, rng)

    def counting(rng, scale, *, limit=None):
        return CountingLaplace(rng, scale, limit=limit, drawn=seen["counts"], steer=steer)

    monkeypatch.setattr(module, "BatchedLaplace", counting)
    monkeypatch.setattr(module, "choosing_mechanism", choosing)
    if real_em is not None:
        monkeypatch.setattr(module, "exponential_mechanism", em)
    run_to_end(info.run(spec, GridCountsAggregator("x", grid, masses), SeededRandom(5)))
    return spec, seen


def test_san_thresholds_books_every_count_exponential_mechanism_and_choosing_run_it_makes(monkeypatch):
    """Lemma 4.8's curve lists per call two counts, one EM and one choosing run, for c calls. With every
    count steered high and every EM to level 0, each call takes the full branch and removes one point, so
    the run makes all c calls and 2c counts: a curve with fewer counts, EMs or choosing runs than the
    run made would under-charge the ledger."""
    from dpgui.tasks.sanitize_papers import _thresholds_plan

    masses = np.zeros(2**16, dtype=np.int64)
    masses[np.arange(200) * 300 + 150] = 10**5  # 200 point masses with gaps between them
    spec, seen = _grid_run("san-thresholds", masses, monkeypatch, steer=10**9, alpha=0.5)
    plan = _thresholds_plan(spec)
    curve = get_algorithm("san-thresholds").recorded_curve(spec)
    (counts,) = curve.noise
    em_steps, choosing_steps = curve.steps
    assert len(seen["counts"]) > plan.cap and len(seen["em"]) > 1  # the run is busy enough to tell
    assert len(seen["counts"]) <= counts.count and set(seen["counts"]) == {counts.scale}
    assert counts.sensitivity == 1
    assert len(seen["em"]) <= em_steps.count and set(seen["em"]) == {em_steps.cost.epsilon}
    assert len(seen["choosing"]) <= choosing_steps.count
    assert {(p.epsilon, p.delta) for p in seen["choosing"]} == {
        (choosing_steps.cost.epsilon, choosing_steps.cost.delta)
    }


def test_san_points_books_every_count_and_choosing_run_it_makes(monkeypatch):
    """Thm 4.6's curve lists I counts and I choosing runs; ten heavy values make the run use all I."""
    masses = np.zeros(2**16, dtype=np.int64)
    masses[np.arange(1, 11) * 100] = 10**5
    spec, seen = _grid_run("san-points", masses, monkeypatch, alpha=0.5)
    curve = get_algorithm("san-points").recorded_curve(spec)
    (counts,) = curve.noise
    (choosing_steps,) = curve.steps
    assert len(seen["counts"]) > 1 and len(seen["counts"]) == len(seen["choosing"])
    assert len(seen["counts"]) <= counts.count and set(seen["counts"]) == {counts.scale}
    assert len(seen["choosing"]) <= choosing_steps.count
    assert {(p.epsilon, p.delta) for p in seen["choosing"]} == {
        (choosing_steps.cost.epsilon, choosing_steps.cost.delta)
    }


@pytest.mark.parametrize("name", ["aim", "mst"])
def test_the_table_zcdp_algorithms_spend_exactly_the_rho_they_record(
    name: str, wages_csv, monkeypatch
) -> None:
    """The ledger books the recorded rho; the run must measure and select with exactly that much: the
    Gaussian measurements' 1/sigma^2 (L2 sensitivity sqrt 2) and the selections' eps^2 / 8, observed."""
    from dpgui.algorithms import marginal_table
    from tests.exact import gaussian_zcdp

    selections: list[float] = []
    real_em = marginal_table.exponential_mechanism

    def recording_em(scores, epsilon, rng, sensitivity=1.0):
        selections.append(epsilon)
        return real_em(scores, epsilon, rng, sensitivity=sensitivity)

    monkeypatch.setattr(marginal_table, "exponential_mechanism", recording_em)
    two = (NumericDomain(0, 2000, 10), NumericDomain(0, 18, 1))
    spec = TaskSpec(TaskKind.TABLE, ("wage", "education"), two, 1.0, 1e-6, name)
    prepared = prepare(spec, 2001)
    spy = NoiseSpy()
    run_to_end(prepared.algorithm.run(prepared.spec, InMemoryAggregator(open_dataset(wages_csv)), spy))
    sigmas = [scale for noise, scale, _ in spy.draws if noise == "discrete_gaussian"]
    spent = math.fsum(gaussian_zcdp(math.sqrt(2), s).rho for s in sigmas) + math.fsum(
        e**2 / 8 for e in selections
    )
    assert sigmas and spent <= prepared.curve.rho * (1 + 1e-9)
    assert spent == pytest.approx(prepared.curve.rho, rel=1e-6)
