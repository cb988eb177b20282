"""Every recorded privacy curve implies the cost its algorithm books, and matches the noise it draws."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.accountant import VALUE_DISCRETIZATION, BookedRelease, compose
from dpgui.privacy.cost import zcdp_epsilon
from dpgui.privacy.curve import NoiseKind
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import algorithms, get_algorithm
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


def test_algorithms_without_a_curve_record_none() -> None:
    prepared = prepare(TaskSpec(TaskKind.QUANTILES, ("wage",), (GRID,), 1.0, 0.0, "aq"), 2000)
    assert prepared.curve is None


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
