"""NumericDomain, suggest_domain and CategoricalDomain."""

from __future__ import annotations

import math
from decimal import Decimal

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpgui.data import CategoricalDomain, DataError, NumericDomain, suggest_domain
from dpgui.data.domain import (
    TABLE_SUGGESTED_INTERVALS,
    axis_title,
    declared_grid,
    describe_outside,
    parse_categories,
)

finite = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False)


@st.composite
def domains(draw: st.DrawFn) -> NumericDomain:
    lower = draw(st.floats(min_value=-1e4, max_value=1e4, allow_nan=False))
    granularity = draw(st.sampled_from([0.001, 0.01, 0.25, 0.3, 1.0, 7.0]))
    span = draw(st.floats(min_value=granularity, max_value=1e4 * granularity))
    return NumericDomain(lower, lower + span, granularity)


def test_size_follows_the_floor_formula_and_last_point_may_fall_short() -> None:
    domain = NumericDomain(0.0, 1.0, 0.3)
    assert domain.size == 4  # 0, 0.3, 0.6, 0.9
    assert domain.value_of(3) == pytest.approx(0.9)
    assert NumericDomain(0.0, 1.0, 0.1).size == 11  # 1 / 0.1 rounds just below 10
    assert NumericDomain(0.0, 0.3, 0.1).size == 4  # 0.3 / 0.1 = 2.9999999999999996
    assert NumericDomain(-5, 5, 1).size == 11


def test_bits_is_ceil_log2_of_size() -> None:
    assert NumericDomain(0, 1, 1).bits == 1
    assert NumericDomain(0, 4, 1).bits == 3  # 5 points
    assert NumericDomain(0, 1023, 1).bits == 10


@pytest.mark.parametrize(
    ("lower", "upper", "granularity", "message"),
    [
        (0.0, math.inf, 1.0, "finite"),
        (math.nan, 1.0, 1.0, "finite"),
        (1.0, 1.0, 0.1, "below the upper bound"),
        (0.0, 1.0, 0.0, "granularity must be > 0"),
        (0.0, 1.0, -1.0, "granularity must be > 0"),
        (0, 2**64, 1, "more than 2\\^64"),
        (0.0, 2.0**70, 1.0, "more than 2\\^64"),
        (0.0, 2.0**60, 0.5, "more than 2\\^53"),
        (0.5, 2.0**60, 1.0, "more than 2\\^53"),
        (-(2**63) - 1, 2**63 - 10, 1, "64-bit integer range"),
        (2**63, 2**64 + 5, 1, "64-bit integer range"),
    ],
)
def test_invalid_domains_are_refused(lower: float, upper: float, granularity: float, message: str) -> None:
    with pytest.raises(DataError, match=message):
        NumericDomain(lower, upper, granularity)


def test_to_grid_clips_at_both_bounds_and_rounds_to_nearest_point() -> None:
    domain = NumericDomain(0.0, 10.0, 0.5)
    values = np.array([-3.0, 0.0, 0.24, 0.26, 4.9, 10.0, 11.0, -np.inf, np.inf])
    assert domain.to_grid(values).tolist() == [0, 0, 0, 1, 10, 20, 20, 0, 20]
    assert domain.to_grid(values).dtype == np.uint64


def test_values_above_a_short_last_point_snap_to_it() -> None:
    domain = NumericDomain(0.0, 1.0, 0.6)  # points 0 and 0.6
    assert domain.to_grid(np.array([0.95, 1.0])).tolist() == [1, 1]


def test_to_grid_refuses_nan() -> None:
    with pytest.raises(ValueError, match="missing-value policy"):
        NumericDomain(0.0, 1.0, 0.5).to_grid(np.array([np.nan]))


@given(domains(), st.lists(finite, min_size=1, max_size=50))
def test_from_grid_of_to_grid_is_within_half_a_step_of_the_clipped_value(
    domain: NumericDomain, values: list[float]
) -> None:
    x = np.array(values)
    last = domain.from_grid(np.array([domain.size - 1], dtype=np.uint64))[0]
    clipped = np.clip(x, domain.lower, last)
    snapped = domain.from_grid(domain.to_grid(x))
    assert np.all(np.abs(snapped - clipped) <= domain.granularity / 2 * (1 + 1e-6) + 1e-9)


@given(domains(), finite, finite)
def test_to_grid_is_monotone(domain: NumericDomain, x: float, y: float) -> None:
    low, high = sorted((x, y))
    grid = domain.to_grid(np.array([low, high]))
    assert grid[0] <= grid[1]


def test_2_pow_64_point_integer_domain_is_exact_at_the_top() -> None:
    domain = NumericDomain(0, 2**64 - 1, 1)
    assert domain.size == 2**64
    assert domain.bits == 64
    top = domain.value_of(2**64 - 1)
    assert isinstance(top, int) and top == 2**64 - 1
    assert domain.to_grid(np.array([1e30, 2.0**64, 5.0, -1.0])).tolist() == [2**64 - 1, 2**64 - 1, 5, 0]
    assert domain.from_grid([2**64 - 1, 3]).tolist() == [2.0**64, 3.0]


def test_signed_huge_domain_converts_indices_exactly() -> None:
    domain = NumericDomain(-(2**63), 2**63 - 1, 1)
    assert domain.value_of(0) == -(2**63)
    assert domain.from_grid(np.array([0, 2**63, 2**64 - 1], dtype=np.uint64)).tolist() == [
        -(2.0**63),
        0.0,
        2.0**63,
    ]


def test_from_grid_refuses_indices_outside_the_grid() -> None:
    domain = NumericDomain(0.0, 1.0, 0.5)
    with pytest.raises(ValueError, match="outside"):
        domain.from_grid(np.array([3]))
    with pytest.raises(ValueError, match=">= 0"):
        domain.from_grid(np.array([-1]))
    with pytest.raises(ValueError, match="outside"):
        domain.value_of(3)


def test_value_of_refuses_the_index_one_past_the_last_point_of_a_whole_number_grid() -> None:
    domain = NumericDomain(0, 10, 2)  # 6 points: 0, 2, ..., 10
    assert domain.value_of(5) == 10
    with pytest.raises(ValueError, match="outside"):
        domain.value_of(6)  # would be 12, beyond the upper bound


def test_value_of_is_a_float_on_fractional_grids_and_an_int_on_whole_ones() -> None:
    assert NumericDomain(0.0, 1.0, 0.25).value_of(3) == 0.75
    value = NumericDomain(10.0, 20.0, 2.0).value_of(2)
    assert value == 14 and isinstance(value, int)


def _is_nice(step: float) -> bool:
    mantissa = Decimal(repr(step)).normalize().as_tuple()
    return len(mantissa.digits) == 1 and mantissa.digits[0] in (1, 2, 5)


def _is_multiple(value: float, step: float) -> bool:
    return (Decimal(repr(value)) / Decimal(repr(step))) % 1 == 0


@given(st.lists(st.floats(min_value=-1e7, max_value=1e7, allow_nan=False), min_size=1, max_size=30))
def test_suggested_domain_contains_the_public_sample_and_is_nice(values: list[float]) -> None:
    domain = suggest_domain(np.array(values))
    assert domain.lower <= min(values) and max(values) <= domain.upper
    assert _is_nice(domain.granularity)
    assert _is_multiple(domain.lower, domain.granularity) and _is_multiple(domain.upper, domain.granularity)
    small = max(values) - min(values) <= 2**19 and max(map(abs, values)) <= 2**22
    if all(float(v).is_integer() for v in values) and small:
        assert domain.granularity == 1
    else:
        assert 1_001 <= domain.size <= 10_001


def test_suggested_domain_for_weekly_wages() -> None:
    domain = suggest_domain(np.array([50.05, 1200.0, 18777.2, np.nan]))
    assert (domain.lower, domain.upper, domain.granularity) == (0.0, 21000.0, 20.0)


def test_a_whole_number_public_column_keeps_granularity_one_and_a_padded_range() -> None:
    education = suggest_domain(np.array([2, 8, 12, 18]))  # issue 15 item 3: once 0.01 steps over [2, 18]
    assert (education.lower, education.upper, education.granularity) == (0, 20, 1)
    age = suggest_domain(np.array([18, 40, 64]))
    assert age.granularity == 1 and age.lower < 18 and age.upper > 64


def test_a_synthetic_table_is_suggested_tens_of_cells_per_numeric_column() -> None:
    """A table's pairs multiply their cells: the coarse suggestion keeps short whole-number ranges whole
    and cuts a wide or fractional range into at least TABLE_SUGGESTED_INTERVALS nice steps, not 1,000."""
    wages = suggest_domain(np.array([50.05, 1200.0, 18777.2]), intervals=TABLE_SUGGESTED_INTERVALS)
    assert (wages.lower, wages.upper, wages.granularity) == (0.0, 21000.0, 500.0)  # 43 grid points
    assert TABLE_SUGGESTED_INTERVALS <= wages.size - 1 < 2.5 * TABLE_SUGGESTED_INTERVALS
    education = suggest_domain(np.array([2, 8, 12, 18]), intervals=TABLE_SUGGESTED_INTERVALS)
    assert education.granularity == 1
    incomes = suggest_domain(np.array([0, 150, 99_000]), intervals=TABLE_SUGGESTED_INTERVALS)
    assert incomes.granularity > 1 and incomes.size - 1 < 2.5 * TABLE_SUGGESTED_INTERVALS


def test_a_padded_suggestion_does_not_cross_zero_where_the_sample_does_not() -> None:
    assert suggest_domain(np.array([1.0, 44.5])).lower == 0
    assert suggest_domain(np.array([-44.5, -1.0])).upper == 0


@pytest.mark.parametrize(
    ("bounds", "granularity"), [((0, 1), 1e-4), ((0, 20), 0.002), ((0, 998), 0.05), ((0, 999), 1.0)]
)
def test_a_default_grid_has_at_least_1000_points_and_whole_steps_only_over_1000_whole_numbers(
    bounds: tuple[int, int], granularity: float
) -> None:
    domain = declared_grid(*bounds)
    assert domain.granularity == pytest.approx(granularity) and domain.size >= 1000


@given(
    st.lists(st.floats(min_value=-1e5, max_value=1e5, allow_nan=False), min_size=1, max_size=30),
    st.sampled_from([0.3, 1.0, 2.5, 1000.0]),
)
def test_suggested_domain_with_declared_granularity_keeps_it_and_ends_on_a_grid_point(
    values: list[float], granularity: float
) -> None:
    domain = suggest_domain(np.array(values), granularity)
    assert domain.granularity == granularity
    assert domain.lower <= min(values) and max(values) <= domain.upper
    assert domain.value_of(domain.size - 1) == pytest.approx(domain.upper)


def test_suggest_domain_refuses_a_sample_without_finite_values() -> None:
    with pytest.raises(DataError, match="no finite values"):
        suggest_domain(np.array([np.nan, np.inf]))


def test_categorical_indices_follow_the_declared_order_and_other_comes_last() -> None:
    domain = CategoricalDomain(("south", "west"), other=True)
    values = pd.Series(["west", " south", "north", None], name="region")
    assert domain.to_indices(values, file_name="f.csv").tolist() == [1, 0, 2, 2]
    assert domain.size == 3


def test_categorical_codes_read_as_floats_match_integer_categories() -> None:
    domain = CategoricalDomain(("1", "2"))
    assert domain.to_indices(pd.Series([2.0, 1.0], name="code"), file_name="f.csv").tolist() == [1, 0]


def test_undeclared_category_names_column_and_first_row() -> None:
    domain = CategoricalDomain(("south", "west"))
    values = pd.Series(["west", "south", "north", "east"], name="region")
    with pytest.raises(
        DataError, match=r"f\.csv, row 3, column 'region': 'north' is not a declared category"
    ):
        domain.to_indices(values, file_name="f.csv")


@pytest.mark.parametrize("categories", [(), ("a", "a")])
def test_invalid_category_lists_are_refused(categories: tuple[str, ...]) -> None:
    with pytest.raises(DataError):
        CategoricalDomain(categories)


@pytest.mark.parametrize("values", [[0.0, 5e-324], [1e7, 1e7 + 1e-8], [3.0, 3.0]])
def test_suggested_domain_for_degenerate_samples_has_distinct_float_grid_points(values: list[float]) -> None:
    domain = suggest_domain(np.array(values))
    points = domain.from_grid(np.arange(domain.size))
    assert np.all(np.diff(points) > 0)
    assert domain.lower <= min(values) and max(values) <= domain.upper


def test_a_declared_grid_takes_a_granularity_or_a_number_of_bins_not_both():
    assert declared_grid(0, 20000, bins=100) == NumericDomain(0, 20000, 200)
    assert declared_grid(0, 10, granularity=0.5) == NumericDomain(0, 10, 0.5)
    assert declared_grid(0, 10) == NumericDomain(0, 10, 0.001)  # the default: at least 1,000 points
    with pytest.raises(DataError, match="not both"):
        declared_grid(0, 10, granularity=1, bins=5)
    with pytest.raises(DataError, match=">= 1"):
        declared_grid(0, 10, bins=0)


def test_declared_categories_are_split_on_commas_and_stripped():
    assert parse_categories(" north, south ,, west ") == ("north", "south", "west")


def test_snapping_up_encodes_a_value_at_the_smallest_grid_point_not_below_it():
    domain = NumericDomain(0, 1, 0.1)
    values = np.array([0.0, 0.01, 0.1, 0.3, 0.31, 0.99, 1.0, -5.0, 7.0])
    assert domain.snapped_up().to_grid(values).tolist() == [0, 1, 1, 3, 4, 10, 10, 0, 10]
    assert domain.to_grid(values).tolist() == [0, 0, 1, 3, 3, 10, 10, 0, 10]
    assert domain.snapped_up() == domain and hash(domain.snapped_up()) == hash(domain)


def test_snapping_up_encodes_every_grid_point_as_its_own_index_despite_float_error():
    domain = NumericDomain(0, 2, 0.1).snapped_up()
    indices = np.arange(domain.size)  # point 3 is 3 * 0.1 = 0.30000000000000004, and 0.3... / 0.1 > 3
    assert domain.to_grid(domain.from_grid(indices)).tolist() == indices.tolist()


def test_a_declared_unit_is_a_stripped_label_that_changes_no_grid():
    domain = NumericDomain(0, 3000, 100, unit="  USD ")
    assert domain.unit == "USD" and domain == NumericDomain(0, 3000, 100)
    assert domain.snapped_up().unit == "USD"
    assert axis_title("wage", domain) == "wage (USD)"
    assert axis_title("wage", NumericDomain(0, 1, 0.5)) == "wage"
    assert declared_grid(0, 10, bins=5, unit="years").unit == "years"


@pytest.mark.parametrize("unit", ["two\nlines", "x" * 41])
def test_a_unit_that_is_not_one_short_line_is_refused(unit):
    with pytest.raises(DataError, match="unit"):
        NumericDomain(0, 1, 0.5, unit=unit)


@pytest.mark.parametrize("declared", [("false", "true"), ("False", "True"), ("FALSE", "TRUE")])
def test_a_boolean_column_matches_its_declared_true_and_false_in_any_case(declared) -> None:
    """A boolean column (Parquet, Feather, a CSV pandas read as booleans) keeps no spelling of its own: it
    reads true and false, and a declared False/True in any case counts it, not 'other'."""
    domain = CategoricalDomain(declared, other=True)
    values = pd.Series([True, False, True, None], dtype="boolean", name="flag")
    assert domain.to_indices(values, file_name="f.parquet").tolist() == [1, 0, 1, 2]
    plain = pd.Series([True, False, True], name="flag")
    assert domain.to_indices(plain, file_name="f.parquet").tolist() == [1, 0, 1]


def test_values_outside_are_described_per_kind_of_column():
    """A category histogram's report said its values were "clipped to the declared bounds" (an audit)."""

    grid, open_list = NumericDomain(0, 10, 1), CategoricalDomain(("a", "b"), other=True)
    closed = CategoricalDomain(("a", "b"))
    assert describe_outside(("x",), (grid,)) == "clipped to the declared bounds"
    assert describe_outside(("r",), (open_list,)) == "r: counted as 'other'"
    assert describe_outside(("x", "r", "s"), (grid, open_list, closed)) == (
        "clipped to the declared bounds (x); r: counted as 'other'; s: none allowed (no 'other' cell)"
    )
