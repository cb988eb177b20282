"""A numeric cell like '?' (UCI's missing marker) is refused with the way out: write it blank or NA."""

from __future__ import annotations

import pytest

from dpgui.data.checks import MARKER_HINT, _not_a_number


@pytest.mark.parametrize("cell", ["?", " ? ", "unknown", "-"])
def test_a_cell_without_digits_is_refused_with_the_missing_marker_hint(cell: str) -> None:
    assert _not_a_number(cell) == f"is not a finite number{MARKER_HINT}"


@pytest.mark.parametrize("cell", ["inf", "-Infinity", "12a", "1,5x"])
def test_a_number_or_a_cell_with_digits_gets_no_missing_marker_hint(cell: str) -> None:
    assert _not_a_number(cell) == "is not a finite number"


def test_a_number_with_a_decimal_comma_keeps_its_own_hint() -> None:
    assert "decimal point" in _not_a_number("12,5") and MARKER_HINT not in _not_a_number("12,5")


@pytest.mark.parametrize("cell", ["1,234,567", "3,011.89", "-12,500.5", " 1.234,5 "])
def test_a_number_with_thousands_separators_gets_the_decimal_mark_hint(cell: str) -> None:
    """'1,200' had the hint, but a number with two separators or a decimal point after one (a
    spreadsheet's "#,##0.00" format) was refused without it, though the cure is the same."""
    assert "no thousands separator" in _not_a_number(cell) and MARKER_HINT not in _not_a_number(cell)
