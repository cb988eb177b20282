"""The refusal of missing cells in a categorical histogram without 'other' names a remedy it can use.

Observed: ``dpgui release histogram --column colour --categories red,green,blue`` on a column with blanks
refused (correctly, before the charge) with "declare it ("other": true) or keep missing values as a cell
of their own (--missing keep, a table's default)": the first is DOMAINS.json syntax the histogram command
does not read, and the second a value its --missing refuses (impute or fail only). Its flag is --other.
"""

from __future__ import annotations

import pandas as pd

from dpgui.cli import main


def test_the_refusal_names_the_other_flag_and_keep_only_for_tables(tmp_path, isolated_home, capsys):
    data = tmp_path / "colours.csv"
    pd.DataFrame({"colour": ["red", None, "blue", "green"] * 50}).to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    code = main(
        [
            "release", "histogram", "--data", str(data), "--column", "colour", "--categories",
            "red,green,blue", "--epsilon", "1", "--out", str(tmp_path / "out"),
        ]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert "a histogram: --other" in err
    assert "in a synthetic table, keep missing values" in err
