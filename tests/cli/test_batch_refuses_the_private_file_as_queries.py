"""A release plan cannot name the private file as a distance release's PUBLIC queries file.

Rule checked: no rows in exports (privacy rule 6). A plan's ``parameters = { queries = "..." }`` reaches
the distance release like ``--queries``; the single release refuses a queries file with the private file's
bytes, but ``dpgui release batch`` reserved the plan through its own path and exported every private row
in ``01-<name>/release.csv``.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from dpgui.cli import main
from tests.conftest import CANARY, holds_canary


def reservations(home: Path) -> int:
    ledger = home / "ledger.jsonl"
    if not ledger.exists():
        return 0
    return sum(json.loads(line)["type"] == "reserved" for line in ledger.read_text().splitlines())


def test_a_plan_naming_the_private_file_as_queries_is_refused_before_any_charge(
    tmp_path, isolated_home, capsys
):
    rng = np.random.default_rng(4)
    frame = pd.DataFrame(
        {"x": np.round(rng.uniform(0, 100, 300), 2), "y": np.round(rng.uniform(0, 10, 300), 2)}
    )
    frame.loc[0, "x"] = CANARY
    data = tmp_path / "private.csv"
    frame.to_csv(data, index=False)
    plan = tmp_path / "plan.toml"
    plan.write_text(
        'epsilon = 1.0\n\n[[release]]\nname = "dist"\ntask = "distance"\ncolumns = ["x", "y"]\n'
        'bounds = [0, 100, 0, 10]\ngranularity = [1, 0.1]\nalgorithm = "cdf-route"\n'
        f"parameters = {{ queries = {json.dumps(str(data))} }}\n"
    )
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    out = tmp_path / "out"
    code = main(["release", "batch", str(plan), "--data", str(data), "--out", str(out), "--accept-warnings"])
    err = capsys.readouterr().err
    exported = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert not [p.name for p in exported if holds_canary(p.read_bytes())], "a private row was exported"
    assert code == 2, err
    assert "queries" in err
    assert reservations(isolated_home) == 0
