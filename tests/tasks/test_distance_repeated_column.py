"""A distance release refuses a column listed twice (it would count twice in every distance), before any
charge: every distance algorithm's preconditions name the repeated column."""

from __future__ import annotations

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks.registry import algorithms
from dpgui.tasks.spec import TaskKind, TaskSpec

BOX = NumericDomain(0.0, 10.0, 1.0)


@pytest.mark.parametrize("info", algorithms(TaskKind.DISTANCE), ids=lambda info: info.name)
def test_every_distance_algorithm_refuses_a_repeated_column(info) -> None:
    spec = TaskSpec(TaskKind.DISTANCE, ("a", "b", "a"), (BOX, BOX, BOX), 1.0, 1e-6, algorithm=info.name)
    assert any("a is repeated" in failure.message for failure in info.preconditions(spec, 1000))


@pytest.mark.parametrize("info", algorithms(TaskKind.DISTANCE), ids=lambda info: info.name)
def test_distinct_columns_are_not_refused_as_repeated(info) -> None:
    spec = TaskSpec(TaskKind.DISTANCE, ("a", "b"), (BOX, BOX), 1.0, 1e-6, algorithm=info.name)
    assert not any("repeated" in failure.message for failure in info.preconditions(spec, 1000))
