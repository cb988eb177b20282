"""``budget set`` on a file new to the ledger names the known datasets with the same columns, and
``budget link`` makes the file spend one's budget: a copy saved as Parquet started a fresh budget silently."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dpgui.cli.main import main


def _release(data: Path, out: Path) -> int:
    return main(["release", "median", "--data", str(data), "--column", "wage", "--bounds", "0", "20000",
                 "--epsilon", "0.5", "--out", str(out)])  # fmt: skip


def test_a_copy_is_named_at_budget_set_and_linked_to_the_originals_budget(
    wages_csv: Path, tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "1"]) == 0
    assert "note:" not in capsys.readouterr().err  # the first dataset resembles none
    assert _release(wages_csv, tmp_path / "first") == 0
    copy = tmp_path / "wages.parquet"
    pd.read_csv(wages_csv).to_parquet(copy)
    capsys.readouterr()
    assert main(["budget", "set", "--data", str(copy), "--epsilon", "1"]) == 0
    err = capsys.readouterr().err
    assert "wages.parquet is new to the ledger" in err and "ε=0.5 of 1 spent" in err
    assert f"dpgui budget link --data {copy} --to {wages_csv.resolve()}" in err
    assert main(["budget", "link", "--data", str(copy), "--to", str(wages_csv)]) == 0
    assert "spent ε=0.5; remaining ε=0.5" in capsys.readouterr().out
    assert _release(copy, tmp_path / "second") == 0
    assert _release(copy, tmp_path / "third") == 3  # refused: the original's total of 1 is spent
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    assert "spent ε=1; remaining ε=0" in capsys.readouterr().out


def test_a_link_to_a_path_the_ledger_never_saw_is_refused(
    wages_csv: Path, tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "link", "--data", str(wages_csv), "--to", str(tmp_path / "unknown.csv")]) == 2
    assert "the ledger knows no dataset at" in capsys.readouterr().err
