"""Pins from a mutation scan of dpgui/data/domain.py: grid indices back to values (``from_grid``), labels,
units, and the nice steps of suggested grids.

Rules quoted from the docstrings: from_grid -- 'For domains beyond 2^53 points the sum lower + index is
formed exactly in 64-bit integers and rounded to float64 once'; indices outside [0, size - 1] are refused;
CategoricalDomain.labels -- 'the categories, then OTHER when declared'; checked_unit -- 'one line of at most
MAX_UNIT_LENGTH (40) printable characters'; common_unit -- 'The unit every one of domains declares, or ""'."""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.data import CategoricalDomain, DataError, NumericDomain, suggest_domain
from dpgui.data.domain import OTHER, checked_unit, common_unit


def test_a_huge_grid_with_a_negative_lower_bound_converts_indices_exactly() -> None:
    assert NumericDomain(-5, 2**60, 1).from_grid([0, 10]).tolist() == [-5.0, 5.0]


def test_a_huge_grid_rounds_lower_plus_index_once() -> None:
    """2^60 + 128 + 1 rounds to 2^60 + 256; rounding the index first (2^60, ties to even) would lose it."""
    assert NumericDomain(1, 2**61, 1).from_grid([2**60 + 128])[0] == float(2**60 + 129)


def test_a_fractional_grid_of_2_pow_53_points_keeps_its_granularity() -> None:
    """At 2^53 points (not beyond) a fractional grid is still converted as lower + index * granularity."""
    assert NumericDomain(0, 2**52 - 0.5, 0.5).from_grid([2]).tolist() == [1.0]


@pytest.mark.parametrize(
    ("indices", "message"),
    [
        ([0, 11], "grid index 11 is outside"),
        (np.array([-1, 3]), "must be >= 0"),
        (np.array([1.0]), "integers"),
        ([2**64], "must lie in"),
    ],
)
def test_any_index_outside_the_grid_or_not_an_integer_is_refused(indices, message) -> None:
    with pytest.raises(ValueError, match=message):
        NumericDomain(0, 10, 1).from_grid(indices)


def test_other_is_a_label_only_when_declared() -> None:
    assert CategoricalDomain(("a", "b")).labels == ("a", "b")
    assert CategoricalDomain(("a", "b"), other=True).labels == ("a", "b", OTHER)


def test_a_unit_of_40_characters_is_accepted_and_41_refused() -> None:
    assert checked_unit("x" * 40) == "x" * 40
    with pytest.raises(DataError, match="at most 40 printable characters"):
        checked_unit("x" * 41)


def test_the_common_unit_is_the_one_every_domain_declares() -> None:
    usd, eur, none = (
        NumericDomain(0, 1, 0.5, unit="USD"),
        NumericDomain(0, 1, 0.5, unit="EUR"),
        NumericDomain(0, 1, 0.5),
    )
    assert common_unit([usd, usd]) == "USD"
    assert common_unit([usd, eur]) == "" == common_unit([usd, none])


def test_a_rounding_step_between_5_and_10_units_of_the_granularity_rounds_up_to_10() -> None:
    """suggest_domain with granularity 0.15 and a tenth of the magnitude 1: the step is the smallest 1, 2 or
    5 times a power of ten times 0.15 that is at least 1 -- 10 x 0.15 = 1.5 -- so the top 53 rounds to 54."""
    domain = suggest_domain(np.array([3.5, 48.5]), 0.15)
    assert (domain.lower, domain.upper) == (0.0, 54.0)


def test_values_of_gives_exact_ints_on_whole_grids_and_floats_otherwise() -> None:
    """values_of: 'exact ints on whole-number grids, floats otherwise' (a whole lower bound with a
    fractional step is not a whole-number grid)."""
    whole = NumericDomain(0, 10, 1).values_of([0, 3])
    assert whole == [0, 3] and all(type(v) is int for v in whole)
    assert NumericDomain(0, 10, 0.5).values_of([3]) == [1.5]
