"""``release table --missing impute`` on a categorical column declared without "other" (``"other": false``)
whose data has missing cells is refused before the charge. Imputing counts a missing category as 'other',
which such a column does not have; the aggregation said so only once the run read the data, after the
ledger committed the charge: the budget was spent and nothing released (fuzz)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dpgui.cli import main

DOMAINS = {"a": {"lower": 0, "upper": 10, "granularity": 1}, "b": {"categories": ["x", "y"], "other": False}}


@pytest.fixture
def table(tmp_path: Path) -> tuple[Path, Path]:
    data, domains = tmp_path / "ab.csv", tmp_path / "domains.json"
    pd.DataFrame({"a": [1.0, 2.0, 3.0] * 100, "b": ["x", "y", None] * 100}).to_csv(data, index=False)
    domains.write_text(json.dumps(DOMAINS), encoding="utf-8")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10", "--delta", "1e-4"]) == 0
    return data, domains


def _release(data: Path, domains: Path, out: Path, missing: str) -> int:
    return main(
        ["release", "table", "--data", str(data), "--domains", str(domains), "--epsilon", "1",
         "--algorithm", "independent", "--missing", missing, "--out", str(out)]
    )  # fmt: skip


def test_imputing_a_category_list_without_other_is_refused_before_the_charge(table, tmp_path, capsys):
    data, domains = table
    assert _release(data, domains, tmp_path / "out", "impute") != 0
    assert "column 'b' has 100 missing cells" in capsys.readouterr().err
    assert main(["budget", "show", "--data", str(data), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == []  # nothing reserved, nothing spent


def test_keeping_them_releases_the_blanks_instead(table, tmp_path, capsys):
    data, domains = table
    assert _release(data, domains, tmp_path / "out", "keep") == 0, capsys.readouterr().err
    synthetic = pd.read_csv(tmp_path / "out" / "synthetic.csv")
    assert set(synthetic["b"].dropna()) <= {"x", "y"}
