"""``dpgui plan batch`` and ``dpgui release batch``: the split as numbers, and a plan run whole."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.cli import batch_cmd, main
from dpgui.paths import dpgui_home
from tests.conftest import holds_canary

PLAN = """epsilon = 1.0
delta = 1e-6

[[release]]
name = "wage CDF"
task = "cdf"
column = "wage"
bounds = [0, 2000]
granularity = 10

[[release]]
name = "wage median"
task = "median"
column = "wage"
bounds = [0, 2000]
weight = 2.0
"""


@pytest.fixture
def plan_file(tmp_path: Path) -> Path:
    path = tmp_path / "plan.toml"
    path.write_text(PLAN)
    return path


def test_plan_batch_json_prints_the_split_and_predicted_errors(plan_file, capsys):
    assert main(["plan", "batch", str(plan_file), "--n", "2001", "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert [r["name"] for r in shown["releases"]] == ["wage CDF", "wage median"]
    assert sum(r["epsilon"] for r in shown["releases"]) <= 1.0
    assert all(r["predicted_error"] > 0 for r in shown["releases"])
    assert shown["charged"]["epsilon"] <= shown["total"]["epsilon"]


def test_plan_without_batch_still_needs_bounds_and_epsilon(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["plan", "cdf", "--n", "100"])
    assert exit_.value.code == 2 and "--bounds, --epsilon" in capsys.readouterr().err


def test_release_batch_reserves_the_whole_plan_then_writes_one_folder(plan_file, wages_csv, tmp_path, capsys):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "2", "--delta", "1e-6"]) == 0
    out = tmp_path / "out"
    assert main(["release", "batch", str(plan_file), "--data", str(wages_csv), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir()) == [
        "01-wage-cdf",
        "02-wage-median",
        "plan.json",
        "report.html",
    ]
    summary = json.loads((out / "plan.json").read_text())
    assert [r["name"] for r in summary["releases"]] == ["wage CDF", "wage median"]
    for folder in ("01-wage-cdf", "02-wage-median"):
        assert (out / folder / "manifest.json").exists()
        assert not holds_canary((out / folder / "release.csv").read_text())
    lines = [json.loads(line) for line in (dpgui_home() / "ledger.jsonl").read_text().splitlines()]
    kinds = [line["type"] for line in lines if line["type"] in ("reserved", "touched", "committed")]
    assert kinds == ["reserved", "reserved", "touched", "committed", "touched", "committed"]


def test_each_release_of_a_plan_is_reviewed_after_the_earlier_ones_with_autos_reason(
    plan_file, wages_csv, tmp_path, capsys
):
    """Docs audit, session 34: each release's review was built as if it ran alone, so the second's "Budget
    after" (5.29) stood above the first's (5.01), and an auto release read "Why: chosen by you". The plan's
    reviews (as the app's) compose the earlier releases, and say why auto chose."""
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "2", "--delta", "1e-6"]) == 0
    out = tmp_path / "out"
    assert main(["release", "batch", str(plan_file), "--data", str(wages_csv), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if "Budget after:" in line]
    after = [float(line.split("ε = ")[1].split(",")[0]) for line in lines]
    shown = json.loads((out / "plan.json").read_text())
    assert len(after) == 2 and after[0] > after[1]
    assert after[1] == pytest.approx(shown["budget_after"]["remaining"]["epsilon"], rel=1e-5)
    assert err.count("Why: auto chose") == 2 and "chosen by you" not in err


def test_a_plan_over_budget_is_refused_before_anything_is_booked(plan_file, wages_csv, tmp_path, capsys):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "0.5"]) == 0
    code = main(["release", "batch", str(plan_file), "--data", str(wages_csv), "--out", str(tmp_path / "o")])
    assert code != 0
    assert "These 2 releases need" in capsys.readouterr().err
    assert '"reserved"' not in (dpgui_home() / "ledger.jsonl").read_text()
    assert not (tmp_path / "o").exists()


def test_a_learning_release_without_a_label_is_refused_before_anything_is_booked(wages_csv, tmp_path, capsys):
    """A fuzzed plan's threshold release without 'label' passed the review, was charged, then failed
    reading the data ("a learning task needs a label column")."""
    plan = tmp_path / "nolabel.toml"
    plan.write_text("epsilon = 0.5\n[[release]]\ntask = 'threshold'\ncolumn = 'wage'\nbounds = [0, 100]\n")
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    code = main(["release", "batch", str(plan), "--data", str(wages_csv), "--out", str(tmp_path / "o")])
    assert code == 2 and "needs a label column" in capsys.readouterr().err
    assert '"reserved"' not in (dpgui_home() / "ledger.jsonl").read_text()


def test_a_plan_into_a_folder_that_holds_files_is_refused_before_anything_is_booked(
    plan_file, wages_csv, tmp_path, monkeypatch
):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "2", "--delta", "1e-6"]) == 0
    out = tmp_path / "taken"
    out.mkdir()
    (out / "release.csv").write_text("earlier")
    passes = []
    monkeypatch.setattr(batch_cmd.preflight, "data_check", lambda *args: passes.append(args))
    assert main(["release", "batch", str(plan_file), "--data", str(wages_csv), "--out", str(out)]) == 2
    assert '"reserved"' not in (dpgui_home() / "ledger.jsonl").read_text()
    assert not passes  # refused before the pass over the data (docs audit: after 15 s of it)
