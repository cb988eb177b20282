"""A plan's manifests tie each release to the ledger and state the budget so that it adds up.

Each manifest names ``ledger_head``, the chain head its commit line follows (privacy.md: a ledger cut back
to before a release is then evident from the release's manifest); only single releases did. A plan is
reserved as a whole before its first release, so its first manifest said "spent 0, remaining 8 of 10":
the manifest now states the ``pending`` part, and total = spent + pending + remaining for basic costs.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.cli import main
from tests.cli.test_batch_stopped_writes_its_committed_releases import PLAN


def test_every_manifest_of_a_plan_names_its_commit_lines_prev_and_the_pending_plan(
    wages_csv, tmp_path: Path, isolated_home: Path
) -> None:
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    out = tmp_path / "out"
    assert main(["release", "batch", str(plan), "--data", str(wages_csv), "--out", str(out)]) == 0
    lines = [json.loads(line) for line in (isolated_home / "ledger.jsonl").read_text().splitlines()]
    commits = {line["release_id"]: line for line in lines if line["type"] == "committed"}
    manifests = [json.loads(path.read_text()) for path in sorted(out.glob("*/manifest.json"))]
    assert len(manifests) == 2
    for manifest in manifests:
        commit = commits[manifest["release_id"]]
        assert manifest["ledger_head"] == {"seq": commit["seq"] - 1, "hash": commit["prev"]}
    first = manifests[0]["budget_before"]
    assert first["spent"]["epsilon"] == 0.0
    assert first["pending"]["epsilon"] == pytest.approx(1.0)  # the whole plan, reserved before it runs
    assert first["remaining"]["epsilon"] == pytest.approx(4.0)
    last = manifests[-1]["budget_after"]
    assert last["pending"]["epsilon"] == 0.0
    assert last["spent"]["epsilon"] + last["remaining"]["epsilon"] == pytest.approx(5.0)


def test_every_release_of_a_plan_names_the_plan_and_its_place_in_it(
    wages_csv, tmp_path: Path, isolated_home: Path
) -> None:
    """A release's folder of a plan did not say it was one: its manifest and report read as a release of
    its own, with no pointer to the plan's report and summary beside them."""
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    out = tmp_path / "out"
    assert main(["release", "batch", str(plan), "--data", str(wages_csv), "--out", str(out)]) == 0
    folders = sorted(path for path in out.iterdir() if path.is_dir())
    summary = json.loads((out / "plan.json").read_text())["releases"]
    for position, (folder, entry) in enumerate(zip(folders, summary, strict=True), 1):
        manifest = json.loads((folder / "manifest.json").read_text())
        assert manifest["plan"] == {
            "release_name": entry["name"],
            "position": position,
            "of": 2,
            "plan_files": ["../report.html", "../plan.json"],
        }
        assert all((folder / name).resolve().is_file() for name in manifest["plan"]["plan_files"])
        assert f"release {position} of 2 of a release plan" in (folder / "report.html").read_text()
