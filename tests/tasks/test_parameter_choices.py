"""A parameter with choices accepts those values only, in the core (what the app and the CLI both call)."""

from __future__ import annotations

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks.preflight import PreflightError, check_parameters
from dpgui.tasks.spec import TaskKind, TaskSpec


def spec(kind: TaskKind, parameters: tuple[tuple[str, str], ...]) -> TaskSpec:
    columns = ("x", "label") if kind is TaskKind.THRESHOLD else ("x", "y")
    domains = (NumericDomain(0, 10, 1), NumericDomain(0, 10, 1))
    return TaskSpec(kind, columns, domains, epsilon=1.0, parameters=parameters)


@pytest.mark.parametrize(
    ("kind", "name", "good", "bad"),
    [(TaskKind.THRESHOLD, "direction", "le", "sideways"), (TaskKind.DISTANCE, "metric", "l2", "cosine")],
)
def test_only_the_declared_choices_pass(kind: TaskKind, name: str, good: str, bad: str) -> None:
    check_parameters(spec(kind, ((name, good),)))
    with pytest.raises(PreflightError, match=f"{name} must be one of"):
        check_parameters(spec(kind, ((name, bad),)))
