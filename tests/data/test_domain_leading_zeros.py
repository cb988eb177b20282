"""Codes written with leading zeros (ZIP codes "02134", "007"): a CSV reader parses such a column as
integers, so before every cell of "02134" read 2134, matched none of the categories the file spells, and a
synthetic table released the column as 'other' (sweep of unseen tables). A number that is declared itself,
or that two codes read as, stays as it was."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from dpgui.data.aggregate import cell_indices
from dpgui.data.domain import CategoricalDomain
from dpgui.data.loaders import load_table
from dpgui.data.missing import MissingKind, MissingPolicy


def test_codes_with_leading_zeros_count_as_the_file_spells_them(tmp_path: Path):
    path = tmp_path / "zips.csv"
    path.write_text("zip\n02134\n00501\n94110\n\n02134\n", encoding="utf-8")
    frame = load_table(path)
    domain = CategoricalDomain(("02134", "00501", "94110"), other=True)
    indices = cell_indices(frame, "zip", domain, MissingPolicy(MissingKind.KEEP), file_name=path.name)
    assert list(indices) == [0, 1, 2, 4, 0]  # none 'other' (index 3); the empty line is a missing zip (4)


def test_a_number_declared_itself_or_read_from_two_codes_keeps_its_own_match():
    cells = pd.Series([7, 7, 5], name="code")
    declared = CategoricalDomain(("007", "7", "05", "005"), other=True)
    indices = declared.to_indices(cells, file_name="codes.csv")
    assert list(indices) == [1, 1, 4]  # 7 is the declared "7"; 5 could be "05" or "005": 'other'
