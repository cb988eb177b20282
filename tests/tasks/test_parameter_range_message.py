"""A parameter out of its range is refused with its value and limits written out, not rounded to 6 digits:
``--rows 10000001`` once read "rows must be in [0, 1e+07], got 1e+07", a value that looks allowed."""

from __future__ import annotations

import pytest

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.tasks.preflight import PreflightError, check_parameters
from dpgui.tasks.spec import TaskKind, TaskSpec


def table(parameters: tuple[tuple[str, object], ...]) -> TaskSpec:
    domains = (NumericDomain(0, 10, 1), CategoricalDomain(("a", "b")))
    return TaskSpec(
        TaskKind.TABLE, ("x", "c"), domains, epsilon=1.0, delta=1e-6, algorithm="aim", parameters=parameters
    )


@pytest.mark.parametrize(
    ("name", "value", "shown"),
    [("rows", 10_000_001, "got 10,000,001"), ("time_limit", 86400.5, "got 86,400.5")],
)
def test_a_value_just_past_its_limit_is_shown_as_given(name: str, value: object, shown: str) -> None:
    with pytest.raises(PreflightError, match=f"{name} must be in") as refused:
        check_parameters(table(((name, value),)))
    assert shown in str(refused.value)
