"""``release table --missing impute --fill V`` on a table with a categorical column is refused before the
charge. The aggregation refuses a number for a categorical column's missing cells, but only once the run
reads the data, after the ledger committed the charge: the budget was spent and nothing released (fuzz)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dpgui.cli import main

DOMAINS = {"a": {"lower": 0, "upper": 10, "granularity": 1}, "b": {"categories": ["x", "y"]}}


@pytest.fixture
def table(tmp_path: Path) -> tuple[Path, Path]:
    data, domains = tmp_path / "ab.csv", tmp_path / "domains.json"
    pd.DataFrame({"a": [1.0, None, 3.0] * 100, "b": ["x", "y", None] * 100}).to_csv(data, index=False)
    domains.write_text(json.dumps(DOMAINS), encoding="utf-8")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10", "--delta", "1e-4"]) == 0
    return data, domains


@pytest.mark.parametrize("algorithm", ["mst", "independent"])
def test_a_fill_value_with_a_categorical_column_is_refused_before_the_charge(
    table, tmp_path, capsys, algorithm
):
    data, domains = table
    delta = "0" if algorithm == "independent" else "1e-6"
    code = main(
        ["release", "table", "--data", str(data), "--domains", str(domains), "--epsilon", "1",
         "--delta", delta, "--algorithm", algorithm, "--missing", "impute", "--fill", "5",
         "--out", str(tmp_path / "out")]
    )  # fmt: skip
    assert code != 0
    assert "categorical" in capsys.readouterr().err
    assert main(["budget", "show", "--data", str(data), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == []  # nothing reserved, nothing spent
