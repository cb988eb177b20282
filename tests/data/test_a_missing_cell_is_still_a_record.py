"""A record whose cells are all missing is still a record: the row count n, which every release states,
is the same for two files that differ in one record, whatever that record holds.

A one-column text file writes a missing cell as an empty line, which ``read_csv`` skipped; a workbook's
record with every cell empty is an empty row, which the loader dropped. Either way replacing one record by
one with missing cells lowered n by one, and the exported n told so exactly."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.data.backends import open_aggregator
from dpgui.data.loaders import load_table

WAGES = [310.0, 455.5, 1200.0, 87.25, 640.0]


def _neighbours(tmp_path: Path, suffix: str, columns: int) -> tuple[Path, Path]:
    """Two files of five records that differ in the third, missing in every cell in the second file (a
    missing cell written as nothing, as spreadsheets and most writers do; pandas writes "" on its line)."""
    frame = pd.DataFrame({"wage": WAGES} | ({"region": list("abcde")} if columns == 2 else {}))
    blanked = frame.astype(object)
    blanked.iloc[2] = np.nan
    paths = []
    for name, table in (("d", frame), ("d_prime", blanked)):
        path = tmp_path / f"{name}{suffix}"
        if suffix == ".xlsx":
            table.to_excel(path, index=False)
        else:
            path.write_text(table.to_csv(index=False).replace('\n""\n', "\n\n"))
        paths.append(path)
    return paths[0], paths[1]


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_a_one_column_text_file_counts_its_empty_lines_as_records(tmp_path, engine):
    d, d_prime = _neighbours(tmp_path, ".csv", columns=1)
    assert d_prime.read_text().splitlines()[3] == ""
    counts = [open_aggregator(path, engine).dataset.n_rows for path in (d, d_prime)]
    assert counts == [5, 5]
    preview = open_aggregator(d_prime, engine).preview()["wage"]
    assert preview.isna().tolist() == [False, False, True, False, False]


def test_a_missing_last_cell_is_a_record_and_the_final_line_end_is_not(tmp_path):
    path = tmp_path / "last.csv"
    path.write_text("wage\n1.0\n2.0\n\n")
    assert load_table(path)["wage"].isna().tolist() == [False, False, True]
    path.write_text("wage\n1\n2\n")
    assert len(load_table(path)) == 2


def test_a_text_file_of_several_columns_still_skips_empty_lines(tmp_path):
    """There a missing record is a line of delimiters (``,``), so an empty line is no record."""
    d, d_prime = _neighbours(tmp_path, ".csv", columns=2)
    assert d_prime.read_text().splitlines()[3] == ","
    spaced = tmp_path / "spaced.csv"
    spaced.write_text(d.read_text().replace("\n", "\n\n"))
    assert [len(load_table(path)) for path in (d, d_prime, spaced)] == [5, 5, 5]


@pytest.mark.parametrize("columns", [1, 2])
def test_an_empty_row_inside_a_sheet_is_a_record(tmp_path, columns):
    d, d_prime = _neighbours(tmp_path, ".xlsx", columns)
    frames = [load_table(path) for path in (d, d_prime)]
    assert [len(frame) for frame in frames] == [5, 5]
    assert frames[1].iloc[2].isna().all() and frames[1].drop(index=2).notna().all().all()
