"""Pins from a mutation scan of dpgui/data/domain.py: a declared domain that is not a usable public grid is
refused with a DataError (a message for the user), never accepted nor left to crash with a Python error.

Rule (NumericDomain, default_granularity, suggest_domain docstrings): bounds and granularity must be finite
numbers with lower < upper and granularity > 0; a grid with too many points is refused ("use a coarser
granularity")."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.data import DataError, NumericDomain, suggest_domain
from dpgui.data.domain import default_granularity


@pytest.mark.parametrize("bad", [True, False, "0", None, [0]])
def test_a_bound_that_is_not_a_number_is_refused_with_a_data_error(bad) -> None:
    """'domain lower must be a finite number': a boolean or text is not a declared bound (a bool is an int
    to Python, so it would silently become 0 or 1)."""
    with pytest.raises(DataError, match="must be a finite number"):
        NumericDomain(bad, 5, 1)
    with pytest.raises(DataError, match="must be a finite number"):
        NumericDomain(-5, 5, bad)


def test_a_whole_number_bound_too_large_for_a_float_is_refused() -> None:
    """An int beyond the float range is not 'a finite number' for a domain bound: a DataError, not an
    OverflowError later on."""
    with pytest.raises(DataError, match="must be a finite number"):
        NumericDomain(0, 10**400, 1)


def test_a_grid_whose_point_count_overflows_a_float_is_refused_with_advice() -> None:
    """A range over granularity that is not even a finite float is refused ('far too many grid points; use a
    coarser granularity'), not an OverflowError from computing its size."""
    with pytest.raises(DataError, match="far too many grid points"):
        NumericDomain(-1e308, 1e308, 1e-10)


@pytest.mark.parametrize(("lower", "upper"), [(1.0, 0.0), (0.0, 0.0), (math.nan, 1.0), (0.0, math.inf)])
def test_default_granularity_refuses_bounds_that_are_not_finite_and_ordered(lower, upper) -> None:
    """default_granularity: 'bounds must be finite with lower < upper' (a DataError naming them), not a
    math domain error from the log of a negative or NaN span."""
    with pytest.raises(DataError, match="bounds must be finite with lower < upper"):
        default_granularity(lower, upper)


@pytest.mark.parametrize("granularity", [0.0, -1.0, math.nan, math.inf])
def test_suggest_domain_refuses_a_granularity_that_is_not_a_finite_positive_number(granularity) -> None:
    """suggest_domain with a declared granularity: it must be 'a finite number > 0' (DataError), not a
    ZeroDivisionError or a grid with a negative step."""
    with pytest.raises(DataError, match="granularity"):
        suggest_domain(np.array([1.5, 2.5, 7.25]), granularity)


def test_the_exact_float_limit_is_2_pow_53_points_inclusive() -> None:
    """NumericDomain: 'Beyond 2^53 points floats cannot tell neighbouring points apart', so a fractional grid
    of exactly 2^53 points is accepted and one of 2^53 + 1 points is refused."""
    assert NumericDomain(0, 2**52 - 0.5, 0.5).size == 2**53
    with pytest.raises(DataError, match="more than 2\\^53 grid points"):
        NumericDomain(0, 2**52, 0.5)
