"""Pins the a-priori errors in "/ n" units: a rank or count bound that does not depend on n is divided by
n, so doubling n halves the prediction (a bound multiplied by n instead would grow with n)."""

from __future__ import annotations

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec

GRID = NumericDomain(0, 5000, 1)


@pytest.mark.parametrize(
    ("kind", "name", "parameters"),
    [
        (TaskKind.QUANTILES, "em-each", {"q": "0.25,0.5,0.75"}),
        (TaskKind.QUANTILES, "aq", {"q": "0.25,0.5,0.75"}),
        (TaskKind.QUANTILES, "joint-exp", {"q": "0.25,0.5,0.75"}),
        (TaskKind.MEDIAN, "em", {}),
        (TaskKind.HISTOGRAM, "geometric", {}),
    ],
)
@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_a_rank_bound_is_divided_by_n(kind: TaskKind, name: str, parameters: dict, epsilon: float) -> None:
    info = get_algorithm(name)
    spec = TaskSpec(kind, ("wage",), (GRID,), epsilon, 0.0, name, parameters=tuple(parameters.items()))
    small, large = info.predicted_error(spec, 2000), info.predicted_error(spec, 4000)
    assert 0 < large < small < 1
    assert small == pytest.approx(2 * large, rel=1e-9)
