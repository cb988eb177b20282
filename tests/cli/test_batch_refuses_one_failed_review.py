"""``dpgui release batch`` refuses a plan when any one release's review fails, not only when all do.

The review gate is pinned alone in test_pins_review_gate.py and for ``dpgui release`` in
tests/tasks/test_review.py; a plan collects one review per release before its single reservation.
"""

from __future__ import annotations

from pathlib import Path

from dpgui.cli import main
from dpgui.paths import dpgui_home

PLAN = """epsilon = 1.0

[[release]]
name = "wage CDF"
task = "cdf"
column = "wage"
bounds = [0, 2000]
granularity = 10

[[release]]
name = "coarse median"
task = "median"
column = "wage"
bounds = [0, 2000]
granularity = 500
"""
"""The median's grid has 5 points, so its review's grid check fails; the CDF's 201 points pass."""


def test_a_plan_with_one_failing_review_is_refused_before_anything_is_booked(
    wages_csv: Path, tmp_path: Path, capsys
):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "2"]) == 0
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    out = tmp_path / "out"
    assert main(["release", "batch", str(plan), "--data", str(wages_csv), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "[FAILED] grid of wage" in err and "refused before charging" in err
    assert '"reserved"' not in (dpgui_home() / "ledger.jsonl").read_text()
    assert not out.exists()
