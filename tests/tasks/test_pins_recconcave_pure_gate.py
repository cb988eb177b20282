"""Pins RecConcave's delta gate to its level count: a grid of at most 32 thresholds (one level, no A_dist)
runs pure, so delta = 0 is accepted there and refused only above (per_mechanism_cost's rule)."""

from __future__ import annotations

import math

from dpgui.data.domain import NumericDomain
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec


def spec(top: int, delta: float) -> TaskSpec:
    return TaskSpec(
        TaskKind.THRESHOLD, ("age",), (NumericDomain(0, top, 1),), 1.0, delta, "recconcave",
        parameters=(("direction", "ge"),), label="retired",
    )  # fmt: skip


def test_recconcave_runs_pure_on_a_one_level_grid() -> None:
    info = get_algorithm("recconcave")
    small = spec(20, 0.0)
    assert info.preconditions(small, 3000) == ()
    assert math.isfinite(info.predicted_error(small, 3000))
    large = spec(120, 0.0)
    assert info.preconditions(large, 3000) != ()
    assert info.predicted_error(large, 3000) == math.inf
