"""Pins from a mutation scan of dpgui/data/validation.py: a refused column gets a clear message naming the
file, the column and what is wrong (validation.py: "Checking and converting the columns a release reads, with
messages that point at the offending cell")."""

from __future__ import annotations

import pandas as pd
import pytest

from dpgui.data import DataError
from dpgui.data.validation import binary_labels, distinct_text


def test_an_unknown_label_column_is_refused_naming_the_file_and_the_columns() -> None:
    """require_columns: 'Raise DataError naming the first unknown column and listing the available ones'
    -- for a label column too, not a KeyError from pandas."""
    with pytest.raises(DataError, match=r"f.csv: no column 'nope'; the columns are 'y'"):
        binary_labels(pd.DataFrame({"y": [1, 0]}), "nope", None, file_name="f.csv")


def test_bad_labels_list_the_first_five_distinct_values_and_an_ellipsis_only_beyond_them() -> None:
    """binary_labels: 'any other value raises DataError, listing the first few distinct values' -- '...'
    marks values left out, so it appears only when there are more than five."""
    with pytest.raises(DataError, match=r"has 3 distinct values \('a', 'b', '1'\), not just") as few:
        binary_labels(pd.DataFrame({"y": ["a", "b", "1"]}), "y", None, file_name="f.csv")
    assert "..." not in str(few.value)
    with pytest.raises(DataError, match=r"\('a', 'b', 'c', 'd', 'e', \.\.\.\)"):
        binary_labels(pd.DataFrame({"y": list("abcdefg")}), "y", None, file_name="f.csv")


def test_a_nested_column_is_refused_showing_an_example_cell() -> None:
    """distinct_text: lists or records are not one value per cell; the refusal shows one present cell."""
    with pytest.raises(DataError, match=r"column 'tags' holds nested values such as '\[1, 2\]'"):
        distinct_text(pd.Series([[1, 2], None, [3]], name="tags"))


def test_exactly_five_bad_label_values_are_all_shown_without_an_ellipsis() -> None:
    with pytest.raises(DataError, match=r"\('a', 'b', 'c', 'd', 'e'\), not just") as five:
        binary_labels(pd.DataFrame({"y": list("abcde")}), "y", None, file_name="f.csv")
    assert "..." not in str(five.value)


def test_a_label_column_using_every_accepted_spelling_is_read() -> None:
    """binary_labels: 'every cell must be one of 0/1, true/false or yes/no (any case)' -- a column mixing all
    six spellings is valid."""
    frame = pd.DataFrame({"y": ["0", "1", "false", "true", "no", "YES"]})
    assert binary_labels(frame, "y", None, file_name="f.csv").tolist() == [
        False,
        True,
        False,
        True,
        False,
        True,
    ]
