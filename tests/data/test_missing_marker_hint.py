"""A numeric cell like '?' (UCI's missing marker) is refused with the way out: write it blank or NA."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.data.checks import CATEGORY_HINT, COLUMNAR_MARKER_HINT, DATE_HINT, MARKER_HINT, _not_a_number
from dpgui.data.validation import BOOLEAN_HINT


@pytest.mark.parametrize("cell", ["?", " ? ", "unknown", "-"])
def test_a_cell_without_digits_is_refused_with_the_missing_marker_hint(cell: str) -> None:
    assert _not_a_number(cell) == f"is not a finite number{MARKER_HINT}"


@pytest.mark.parametrize("cell", ["inf", "-Infinity"])
def test_a_number_gets_no_missing_marker_hint(cell: str) -> None:
    assert _not_a_number(cell) == "is not a finite number"


@pytest.mark.parametrize("cell", ["12a", "1,5x", "Город_139"])
def test_a_cell_with_digits_may_be_a_category_code_and_is_told_how_to_declare_one(cell: str) -> None:
    """Table audit, session 36: a categorical column declared with bounds was told only that 'Город_139'
    is not a finite number."""
    assert _not_a_number(cell) == f"is not a finite number{CATEGORY_HINT}"


def test_a_number_with_a_decimal_comma_keeps_its_own_hint() -> None:
    assert "one decimal mark" in _not_a_number("12,5") and MARKER_HINT not in _not_a_number("12,5")


@pytest.mark.parametrize("cell", ["1,234,567", "3,011.89", "-12,500.5", " 1.234,5 "])
def test_a_number_with_thousands_separators_gets_the_decimal_mark_hint(cell: str) -> None:
    """'1,200' had the hint, but a number with two separators or a decimal point after one (a
    spreadsheet's "#,##0.00" format) was refused without it, though the cure is the same."""
    assert "no thousands separator" in _not_a_number(cell) and MARKER_HINT not in _not_a_number(cell)


@pytest.mark.parametrize("file_name", ["codes.parquet", "codes.PQ", "codes.feather", "codes.arrow"])
def test_a_missing_marker_in_a_columnar_file_is_told_to_be_null_not_na(file_name: str) -> None:
    """The text hint's "write NA, which every reader takes as missing" does not hold for Parquet or
    Feather: their readers keep the text 'NA', so the custodian who followed it was refused again."""
    assert _not_a_number("?", file_name) == f"is not a finite number{COLUMNAR_MARKER_HINT}"
    assert (
        _not_a_number("?", "codes.xlsx")
        == _not_a_number("?", "codes.csv")
        == f"is not a finite number{MARKER_HINT}"
    )


@pytest.mark.parametrize(
    "cell",
    ["2021-10-09 12:06:00", "2021-10-09", "09/10/2021", "9.10.2021 08:30", pd.Timestamp("2021-10-09 12:06")],
)
def test_a_date_in_a_numeric_column_is_told_how_to_declare_it(cell: object) -> None:
    """Unseen-tables audit, session 34: a timestamp column released as a histogram was refused with only
    "'2021-10-09 12:06:00' is not a finite number"; the refusal now says what to do."""
    assert _not_a_number(cell) == f"is not a finite number{DATE_HINT}"
    assert DATE_HINT not in _not_a_number("12:06 meeting")  # digits but no date: a code, maybe


@pytest.mark.parametrize("cell", [True, False, np.bool_(True)])
def test_a_true_false_cell_is_told_how_to_count_its_column(cell: object) -> None:
    """Loader fuzz (session 36): a TRUE/FALSE column is refused in a numeric task; the data check says why."""
    assert _not_a_number(cell) == f"is not a finite number{BOOLEAN_HINT}"
