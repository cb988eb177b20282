"""``dpgui release batch`` writes each release into its folder before the ledger commits it.

Rule checked: nothing is charged without a result. The plan's releases were written only at its end (or
when an error ended it): a crash that no handler sees (the process killed, the machine off) after a
commit lost every committed release of the plan, charged and without a file. Each is now written into
``--out/NN-name/`` first, and its commit line says where, as one release is staged before its commit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.cli import main
from dpgui.privacy.ledger import Ledger
from tests.cli.test_batch_stopped_writes_its_committed_releases import PLAN


def test_each_release_of_a_plan_is_on_disk_when_it_is_committed(
    wages_csv: Path, tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    out = tmp_path / "out"
    on_disk_at_commit: list[list[str]] = []
    real_commit = Ledger.commit

    def commit(self: Ledger, reservation: object, release_id: object = None, files: object = None) -> None:
        on_disk_at_commit.append(sorted(p.parent.name for p in out.glob("*/manifest.json")))
        real_commit(self, reservation, release_id, files)

    monkeypatch.setattr(Ledger, "commit", commit)
    assert main(["release", "batch", str(plan), "--data", str(wages_csv), "--out", str(out)]) == 0
    assert on_disk_at_commit == [["01-wage-cdf"], ["01-wage-cdf", "02-wage-median"]]
    lines = [json.loads(line) for line in (isolated_home / "ledger.jsonl").read_text().splitlines()]
    files = [line.get("files") for line in lines if line["type"] == "committed"]
    assert files == [f"written to {out / '01-wage-cdf'}", f"written to {out / '02-wage-median'}"]
    summary = json.loads((out / "plan.json").read_text())
    assert [r["folder"] for r in summary["releases"]] == ["01-wage-cdf", "02-wage-median"]
