"""Pins the tree CDF's curve on the smallest grids: any grid of >= 2 points draws noise, so it records its
curve (only a one-point grid, which a NumericDomain cannot declare, has none)."""

from __future__ import annotations

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks.runner import prepare
from dpgui.tasks.spec import TaskKind, TaskSpec


@pytest.mark.parametrize("name", ["tree-laplace", "tree-gaussian"])
@pytest.mark.parametrize("top", [1, 2, 3])
def test_small_grids_record_a_curve(name: str, top: int) -> None:
    prepared = prepare(TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, top, 1),), 0.5, 1e-6, name), 100)
    assert prepared.curve is not None
    (rounds,) = prepared.curve.noise
    assert rounds.count == 2
