"""A grid step finer than float64 can tell apart at the bounds is refused before any charge: an audit's
[1e15, 1e15 + 0.25] at step 2e-5 released 12,501 CDF rows holding 3 distinct values, each with several
different answers."""

from __future__ import annotations

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks.preflight import PreflightError, check_parameters
from dpgui.tasks.spec import TaskKind, TaskSpec


def _spec(domain: NumericDomain) -> TaskSpec:
    return TaskSpec(kind=TaskKind.CDF, columns=("x",), domains=(domain,), epsilon=1.0)


@pytest.mark.parametrize(
    ("lower", "upper", "step"),
    [(1e15, 1e15 + 0.25, 2e-5), (1.7e12, 1.7e12 + 1, 1e-4), (-1e15 - 0.25, -1e15, 0.25)],
)
def test_a_step_floats_cannot_resolve_is_refused(lower: float, upper: float, step: float):
    with pytest.raises(PreflightError, match="finer than 64-bit numbers can tell apart"):
        check_parameters(_spec(NumericDomain(lower, upper, step)))


@pytest.mark.parametrize(
    ("lower", "upper", "step"), [(1e15, 1e15 + 8, 0.5), (0, 1e-300, 1e-303), (0, 100, 1e-4)]
)
def test_a_step_of_a_few_float_spacings_or_more_passes(lower: float, upper: float, step: float):
    check_parameters(_spec(NumericDomain(lower, upper, step)))


def test_the_default_step_is_one_floats_tell_apart():
    """Epoch milliseconds one apart took the default step 1e-4, 10,001 points holding 4,097 values; the
    default is now the smallest nice step float64 resolves there, which the pre-flight passes."""
    from dpgui.data.domain import declared_grid

    grid = declared_grid(1.7e12, 1.7e12 + 1)
    assert grid.granularity == 0.001
    check_parameters(_spec(grid))
