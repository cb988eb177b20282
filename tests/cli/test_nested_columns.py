"""A nested (list or struct) Parquet column used as categories or labels is refused in words, uncharged."""

from __future__ import annotations

import json

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from dpgui.cli import main
from dpgui.privacy.ledger import Ledger


@pytest.fixture
def nested_parquet(tmp_path):
    rows = 60
    table = pa.table(
        {
            "x": list(range(rows)),
            "kind": pa.array([{"v": "a" if i % 2 else "b"} for i in range(rows)]),
            "label": pa.array([[i % 2] for i in range(rows)]),
        }
    )
    path = tmp_path / "nested.parquet"
    pq.write_table(table, path)
    assert main(["budget", "set", "--data", str(path), "--epsilon", "5"]) == 0
    return path


@pytest.mark.parametrize("engine", ["memory", "embedded"])
@pytest.mark.parametrize("task", ["table", "threshold"])
def test_a_nested_column_is_refused_before_the_charge(nested_parquet, tmp_path, capsys, engine, task):
    if task == "table":
        domains = tmp_path / "domains.json"
        domains.write_text(
            json.dumps({"x": {"lower": 0, "upper": 60, "bins": 6}, "kind": {"categories": ["a", "b"]}})
        )
        arguments = ["release", "table", "--domains", str(domains), "--epsilon", "1"]
    else:
        arguments = ["release", "threshold", "--feature", "x", "--label", "label", "--bounds", "0", "60",
                     "--epsilon", "1"]  # fmt: skip
    capsys.readouterr()
    code = main([*arguments, "--data", str(nested_parquet), "--engine", engine, "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2 and "nested values" in err and "unexpected" not in err, err
    ledger = Ledger()
    assert all(not ledger.entries(record.id) for record in ledger.datasets())
