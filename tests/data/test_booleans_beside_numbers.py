"""A workbook column mixing TRUE and 1 (or FALSE and 0): each cell reads as itself, whatever comes first.

pandas' factorize hashes True as 1, so the first such cell decided what all of them read (a table audit):
two workbooks differing in their first record released (true, 1) counts of [1000, 0] and [0, 1000], a
change of one record moving every count. ``factorize_cells`` keeps booleans apart."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.data.domain import CategoricalDomain
from dpgui.data.loaders import factorize_cells, load_table
from dpgui.data.validation import distinct_text


@pytest.mark.parametrize("first", [True, 1])
def test_a_workbooks_true_and_1_count_apart_whatever_the_first_record(tmp_path: Path, first: object):
    path = tmp_path / "flags.xlsx"
    pd.DataFrame({"flag": [first] + [True] * 499 + [1] * 500 + [False] * 3 + [0] * 2}).to_excel(
        path, index=False
    )
    frame = load_table(path)
    indices = CategoricalDomain(("true", "1", "false", "0"), other=True).to_indices(
        frame["flag"], file_name=path.name
    )
    counts = np.bincount(indices, minlength=5)
    assert counts.sum() == 1005
    assert list(counts) == ([500, 500, 3, 2, 0] if first is True else [499, 501, 3, 2, 0])


def test_factorize_cells_keeps_booleans_apart_and_missing_cells_missing():
    values = pd.Series([1, True, None, 0, False, "a", 1.0, np.nan, True], dtype=object)
    codes, uniques = factorize_cells(values)
    read = [None if code < 0 else uniques[code] for code in codes]
    assert [type(v).__name__ for v in read] == ["int", "bool", "NoneType", "int", "bool", "str", "int",
                                                "NoneType", "bool"]  # fmt: skip
    assert codes[0] == codes[6] and codes[1] == codes[8] and codes[0] != codes[1]
    _, texts = distinct_text(values)
    assert sorted(texts) == ["0", "1", "a", "false", "true"]


def test_a_column_of_one_kind_is_factorized_as_pandas_does():
    values = pd.Series(["a", "b", "a", None], dtype=object)
    codes, uniques = factorize_cells(values)
    expected_codes, expected_uniques = pd.factorize(values)
    assert list(codes) == list(expected_codes) and list(uniques) == list(expected_uniques)
