"""A release says on stderr how the file is read, as the app's Data page does: a workbook's sheet and the
sheets it skips, a text file's encoding and delimiter (loader audit, session 36: nothing named the sheet)."""

from __future__ import annotations

import pandas as pd

from dpgui.cli import main


def test_a_release_names_the_sheet_it_reads_and_those_it_skips(tmp_path, capsys):
    path = tmp_path / "book.xlsx"
    with pd.ExcelWriter(path) as workbook:
        pd.DataFrame({"x": range(50)}).to_excel(workbook, sheet_name="current", index=False)
        pd.DataFrame({"x": [1] * 50}).to_excel(workbook, sheet_name="old_2019", index=False)
    assert main(["budget", "set", "--data", str(path), "--epsilon", "5"]) == 0
    argv = ["release", "median", "--data", str(path), "--column", "x", "--bounds", "0", "100"]
    assert main([*argv, "--epsilon", "1", "--out", str(tmp_path / "o")]) == 0
    err = capsys.readouterr().err
    assert "book.xlsx: read as Excel workbook (first sheet 'current'; not read: 'old_2019')" in err


def test_a_text_release_names_its_encoding_and_delimiter(wages_csv, tmp_path, capsys):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    argv = ["release", "median", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "5000"]
    assert main([*argv, "--epsilon", "1", "--out", str(tmp_path / "o")]) == 0
    assert "wages.csv: read as UTF-8 text, comma-separated" in capsys.readouterr().err
