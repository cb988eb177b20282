"""A data check's refusal is the command's error line, printed once; further refusals are listed above it
(table audit, session 36: each was printed as 'refused: X' and again as 'dpgui: error: X')."""

from __future__ import annotations

import json

import pandas as pd

from dpgui.cli import main


def test_each_refusal_is_printed_once(tmp_path, capsys):
    data = tmp_path / "t.csv"
    pd.DataFrame({"a": ["x", "y", "z"] * 20, "b": ["1", "2", "oops"] * 20}).to_csv(data, index=False)
    domains = tmp_path / "d.json"
    domains.write_text(
        json.dumps(
            {"a": {"categories": ["x", "y"], "other": False}, "b": {"lower": 0, "upper": 5, "bins": 5}}
        )
    )
    assert main(["budget", "set", "--data", str(data), "--epsilon", "5"]) == 0
    capsys.readouterr()
    argv = ["release", "table", "--data", str(data), "--domains", str(domains), "--epsilon", "1"]
    assert main([*argv, "--algorithm", "independent", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("'z' is not a declared category") == 1
    assert err.count("'oops' is not a finite number") == 1
    assert err.splitlines()[-1].startswith("dpgui: error: ") and "(and 1 more problem)" in err
    assert "also refused: " in err and "\nrefused: " not in err
