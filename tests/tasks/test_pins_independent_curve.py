"""Pins the independent-marginals curve to the noise it draws at an epsilon other than 1 (at eps = 1 the
scale 2d/eps and a wrong 2d*eps coincide)."""

from __future__ import annotations

import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.tasks.runner import prepare
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.tasks.test_curves import NoiseSpy


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_independent_curve_matches_the_drawn_scale_off_epsilon_one(epsilon: float, wages_csv) -> None:
    two = (NumericDomain(0, 2000, 10), NumericDomain(0, 18, 1))
    spec = TaskSpec(TaskKind.TABLE, ("wage", "education"), two, epsilon, 0.0, "independent")
    prepared = prepare(spec, 2001)
    (rounds,) = prepared.curve.noise
    assert rounds.scale == pytest.approx(2 * 2 / epsilon)
    assert rounds.epsilon == pytest.approx(prepared.cost.epsilon, rel=1e-12)
    spy = NoiseSpy()
    run_to_end(prepared.algorithm.run(prepared.spec, InMemoryAggregator(open_dataset(wages_csv)), spy))
    assert {(noise, scale) for noise, scale, _ in spy.draws} == {("discrete_laplace", rounds.scale)}
