"""``dpgui budget show``: the accountant's spent budget beside basic composition, as text and as JSON."""

from __future__ import annotations

import json

import pytest

from dpgui.cli import main


def gaussian_cdf(data, out) -> int:
    return main(["release", "cdf", "--data", str(data), "--column", "wage", "--epsilon", "0.5",
                 "--delta", "1e-7", "--bounds", "0", "2000", "--algorithm", "tree-gaussian",
                 "--out", str(out)])  # fmt: skip


def test_budget_show_json_prints_total_spent_tight_and_basic_as_numbers(wages_csv, tmp_path, capsys):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "2", "--delta", "1e-6"]) == 0
    for i in range(5):  # 5 x 0.5 = 2.5 > 2 under basic composition: only the accountant lets all five run
        assert gaussian_cdf(wages_csv, tmp_path / f"o{i}") == 0
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(wages_csv), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["total"] == {"epsilon": 2.0, "delta": 1e-6}
    assert shown["spent_basic"]["epsilon"] == pytest.approx(2.5)
    assert shown["spent"]["epsilon"] < 1.5 and shown["spent"]["delta"] == 1e-6
    assert shown["saving_epsilon"] == pytest.approx(
        shown["spent_basic"]["epsilon"] - shown["spent"]["epsilon"]
    )
    assert [entry["curve"]["noise"][0]["noise"] for entry in shown["entries"]] == ["discrete_gaussian"] * 5


def test_budget_show_text_states_the_saving(wages_csv, tmp_path, capsys):
    main(["budget", "set", "--data", str(wages_csv), "--epsilon", "2", "--delta", "1e-6"])
    assert gaussian_cdf(wages_csv, tmp_path / "a") == 0
    assert gaussian_cdf(wages_csv, tmp_path / "b") == 0
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    out = capsys.readouterr().out
    assert "basic composition: ε=1" in out and "saved ε=" in out and "[pld]" in out
    assert "at δ = 1e-06 (all releases as one guarantee)" in out and "δ not yet booked: 8e-07 of 1e-06" in out


def test_the_manifest_states_the_curve_the_ledger_recorded(wages_csv, tmp_path, capsys):
    main(["budget", "set", "--data", str(wages_csv), "--epsilon", "2", "--delta", "1e-6"])
    assert gaussian_cdf(wages_csv, tmp_path / "a") == 0
    manifest = json.loads((tmp_path / "a" / "manifest.json").read_text())
    capsys.readouterr()
    main(["budget", "show", "--data", str(wages_csv), "--json"])
    shown = json.loads(capsys.readouterr().out)
    (entry,) = shown["entries"]
    assert manifest["privacy_curve"] == entry["curve"] is not None
    assert manifest["budget_after"]["spent"] == shown["spent"]  # staged before the commit, yet the charge
    assert manifest["budget_after"]["spent_basic_composition"]["epsilon"] == pytest.approx(0.5)
    # a pure exponential mechanism's too: its manifest said null beside the ledger's one pure step
    median = ["release", "median", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "20000"]
    assert main([*median, "--epsilon", "0.25", "--algorithm", "em", "--out", str(tmp_path / "b")]) == 0
    pure = json.loads((tmp_path / "b" / "manifest.json").read_text())["privacy_curve"]
    capsys.readouterr()
    main(["budget", "show", "--data", str(wages_csv), "--json"])
    assert pure == json.loads(capsys.readouterr().out)["entries"][-1]["curve"] is not None
