"""Pins from a mutation scan of dpgui/data/domain.py: the grids suggested from a PUBLIC sample
(``suggest_domain``) and the grids declared by bounds (``default_granularity``, ``declared_grid``).

Each test states the documented rule it checks (quoted from the function's docstring)."""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.data import NumericDomain, suggest_domain
from dpgui.data.domain import TABLE_SUGGESTED_INTERVALS, declared_grid, default_granularity


@pytest.mark.parametrize(
    ("sample", "lower", "upper"), [([0.0, 3.7, 10.0], 0.0, 11.0), ([-10.0, -3.7, 0.0], -11.0, 0.0)]
)
def test_a_sample_touching_zero_is_padded_away_from_zero_only(sample, lower, upper) -> None:
    """suggest_domain: 'padded by a tenth of their span on each side (never across zero: a sample of
    non-negative values keeps a lower bound >= 0)' -- a sample whose minimum is exactly 0 keeps lower 0
    (and one whose maximum is 0 keeps upper 0), while the other side is padded by a tenth of the span."""
    domain = suggest_domain(np.array(sample))
    assert (domain.lower, domain.upper) == (lower, upper)


def test_an_all_zero_sample_is_widened_to_one_unit() -> None:
    """_outward: 'widened to multiples of unit (and to one unit at least)': a sample of zeros (whole
    numbers, so granularity 1) gets [0, 1], not a wider range."""
    assert suggest_domain(np.zeros(3)) == NumericDomain(0.0, 1.0, 1.0)


def test_whole_numbers_keep_granularity_one_up_to_2_pow_20_apart_by_default() -> None:
    """'a sample of whole numbers (padded, up to 2^20 apart) keeps granularity 1' -- the span counts, not
    the size of the numbers: 0..10,000 and values around a million both keep step 1."""
    assert suggest_domain(np.arange(0, 10_001)).granularity == 1.0
    around_a_million = suggest_domain(np.array([1_000_000, 1_000_050, 1_000_100]))
    assert around_a_million == NumericDomain(999_990.0, 1_000_110.0, 1.0)


def test_a_synthetic_table_keeps_granularity_one_only_up_to_4_x_intervals_whole_numbers() -> None:
    """'With fewer intervals (a synthetic table's TABLE_SUGGESTED_INTERVALS), whole numbers keep granularity 1
    only up to 4 x intervals of them' (4 x 32 = 128): [0, 100] pads to [0, 110] (step 1), [0, 150] pads to
    [0, 165], over 128 (a coarser step)."""
    assert TABLE_SUGGESTED_INTERVALS == 32
    assert suggest_domain(np.array([0.0, 100.0]), intervals=TABLE_SUGGESTED_INTERVALS) == NumericDomain(
        0, 110, 1
    )
    wide = suggest_domain(np.array([0.0, 150.0]), intervals=TABLE_SUGGESTED_INTERVALS)
    assert wide.granularity > 1


@pytest.mark.parametrize(("sample", "granularity"), [([3, 48], None), ([3.5, 48.5], 0.5)])
def test_bounds_are_rounded_outward_to_the_next_multiple_of_a_tenth_of_the_magnitude(
    sample, granularity
) -> None:
    """'padded by a tenth of their span ..., then rounded outward to a "nice" number (a multiple of a tenth
    of the sample's order of magnitude)': a span of about 45 pads to at most 52.5 and rounds up to 53 (a
    multiple of 1), not to a coarser multiple such as 54."""
    domain = suggest_domain(np.array(sample, dtype=float), granularity)
    assert (domain.lower, domain.upper) == (0.0, 53.0)


def test_default_granularity_depends_on_the_bounds_span_as_documented() -> None:
    """default_granularity: 'Whole-number bounds holding 1,000 to 2^20 + 1 whole numbers get granularity 1;
    otherwise the largest 1, 2 or 5 times a power of ten that gives at least 10,000 intervals'."""
    assert default_granularity(2**20, 2**20 + 1000) == 1.0  # the span counts, not the bounds' size
    assert default_granularity(0, 2**20) == 1.0  # 2^20 + 1 whole numbers: the top of the range
    assert default_granularity(0, 2**20 + 1) == 100.0
    assert default_granularity(0.5, 2000) == 0.1  # a fractional bound: not whole numbers
    assert default_granularity(10, 11) == 0.0001  # span 1 / 10,000


def test_declared_bins_divide_the_declared_range() -> None:
    """declared_grid: '``bins`` B gives the grid step (upper - lower) / B'; B >= 1 is accepted."""
    assert declared_grid(10, 20, bins=5) == NumericDomain(10, 20, 2)
    assert declared_grid(0, 1, bins=1).size == 2


def test_with_a_declared_granularity_the_bounds_round_to_a_nice_multiple_of_it_not_below_the_unit() -> None:
    """suggest_domain: bounds are 'rounded outward to a "nice" number (a multiple of a tenth of the sample's
    order of magnitude)' and 'the bounds are multiples of the step': with granularity 0.3 and a span of 45
    (a tenth of the magnitude: 1) the rounding step is the smallest nice multiple of 0.3 that is at least 1,
    i.e. 0.3 x 5 = 1.5, so the padded top 53 rounds to 54 -- never to a finer step such as 0.6 (53.4)."""
    domain = suggest_domain(np.array([3.5, 48.5]), 0.3)
    assert (domain.lower, domain.upper, domain.granularity) == (0.0, 54.0, 0.3)
