"""A declared fill value must lie inside the column's bounds: --fill -5 on [0, 10^6] was accepted, every
missing cell counted as 0 (clipped), and the manifest said 'missing values replaced by -5'."""

from __future__ import annotations

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.data.missing import MissingPolicy
from dpgui.tasks.preflight import PreflightError, check_parameters
from dpgui.tasks.spec import TaskKind, TaskSpec


def spec(fill: float) -> TaskSpec:
    domains = (NumericDomain(0, 100, 1), NumericDomain(-10, 10, 1))
    return TaskSpec(TaskKind.DISTANCE, ("a", "b"), domains, 1.0, missing=MissingPolicy(fill_value=fill))


@pytest.mark.parametrize("fill", [0.0, 10.0, 2.5])
def test_a_fill_inside_every_columns_bounds_passes(fill: float):
    check_parameters(spec(fill))


@pytest.mark.parametrize(("fill", "column"), [(-0.5, "a"), (10.5, "b"), (-11.0, "a")])
def test_a_fill_outside_a_columns_bounds_is_refused_naming_it(fill: float, column: str):
    with pytest.raises(PreflightError, match=f"outside the declared bounds .* of column '{column}'"):
        check_parameters(spec(fill))
