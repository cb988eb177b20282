"""A queries file with text in a numeric column is refused naming the cell, before anything is charged.

Observed: ``dpgui release distance --queries q.csv`` with a query reading 'x' refused (exit 4, nothing
charged) with numpy's "could not convert string to float: 'x'", which names neither the file, the row nor
the column; a blank or 'inf' got "has missing or non-numeric values" without saying where.
"""

from __future__ import annotations

import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.tasks.distance import load_queries


@pytest.mark.parametrize(("cell", "shown"), [("x", "'x'"), ("inf", "'inf'"), ("", "nan")])
def test_the_refusal_names_the_file_row_and_column(tmp_path, cell, shown):
    path = tmp_path / "queries.csv"
    path.write_text(f"a,b\n1,2\n3,{cell}\n")
    with pytest.raises(ValueError) as refused:
        load_queries(path, ("a", "b"))
    message = str(refused.value)
    assert "queries.csv" in message and "row 2" in message and "'b'" in message and shown in message
    assert "could not convert" not in message


def test_numbers_written_as_text_are_still_read(tmp_path):
    path = tmp_path / "queries.csv"
    pd.DataFrame({"b": ["2", "0.5"], "a": [1, 3]}).to_csv(path, index=False)
    assert load_queries(path, ("a", "b")).tolist() == [[1.0, 2.0], [3.0, 0.5]]


def test_the_cli_refuses_before_any_charge(tmp_path, isolated_home, capsys):
    data = tmp_path / "points.csv"
    pd.DataFrame({"a": range(200), "b": range(200)}).to_csv(data, index=False)
    queries = tmp_path / "q.csv"
    queries.write_text("a,b\n1,x\n")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    code = main(
        [
            "release", "distance", "--data", str(data), "--columns", "a,b", "--bounds", "0", "200", "0",
            "200", "--algorithm", "cdf-route", "--queries", str(queries), "--epsilon", "1", "--out",
            str(tmp_path / "out"),
        ]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2, err  # an input error, as the user guide says (it was 4, "precondition failed")
    assert "row 1, column 'b' reads 'x'" in err
    assert main(["budget", "show", "--data", str(data)]) == 0
    assert "spent ε=0" in capsys.readouterr().out
