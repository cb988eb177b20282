"""A table column whose every cell is missing is refused before the charge, and the refusal says what to do:
it once ended at "nothing to release", leaving the custodian to guess that the column must leave
DOMAINS.json (fuzz: a 100%-missing column among seven)."""

from __future__ import annotations

import json

import pandas as pd

from dpgui.cli import main


def test_an_all_missing_column_is_refused_with_the_way_out(tmp_path, capsys):
    data, domains = tmp_path / "t.csv", tmp_path / "domains.json"
    pd.DataFrame({"a": [1, 2, 3] * 50, "empty": [None] * 150}).to_csv(data, index=False)
    declared = {"a": {"lower": 0, "upper": 5, "granularity": 1}, "empty": {"lower": 0, "upper": 5, "bins": 5}}
    domains.write_text(json.dumps(declared), encoding="utf-8")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    code = main(
        ["release", "table", "--data", str(data), "--domains", str(domains), "--epsilon", "1",
         "--out", str(tmp_path / "out")]
    )  # fmt: skip
    assert code != 0
    assert (
        "every cell of column 'empty' is missing; nothing to release: leave it out" in capsys.readouterr().err
    )
    assert main(["budget", "show", "--data", str(data), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == []
