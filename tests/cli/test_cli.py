"""The dpgui command: exit codes 0, 2, 3, 4 with one clear message, and a canary that never leaks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.cli import main
from tests.conftest import holds_canary


def release_median(data: Path, out: Path, *extra: str) -> int:
    return main(
        ["release", "median", "--data", str(data), "--column", "wage", "--bounds", "0", "20000",
         "--epsilon", "1", "--out", str(out), *extra]
    )  # fmt: skip


def test_release_without_a_total_budget_is_refused_with_exit_3(wages_csv, tmp_path, capsys):
    assert release_median(wages_csv, tmp_path / "out") == 3
    err = capsys.readouterr().err
    assert "budget set" in err and "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_release_succeeds_and_charges_the_ledger(wages_csv, tmp_path, capsys):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "1.5"]) == 0
    assert release_median(wages_csv, tmp_path / "out") == 0
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["epsilon"] == 1.0
    assert manifest["budget_after"]["spent"]["epsilon"] == pytest.approx(1.0)
    assert manifest["neighbouring_relation"] == "replace one record; row count public"
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    assert "remaining ε=0.5" in capsys.readouterr().out


def test_overspend_is_refused_with_exit_3_and_nothing_is_written(wages_csv, tmp_path, capsys):
    main(["budget", "set", "--data", str(wages_csv), "--epsilon", "1.5"])
    assert release_median(wages_csv, tmp_path / "first") == 0
    assert release_median(wages_csv, tmp_path / "second") == 3
    assert "remains" in capsys.readouterr().err
    assert not (tmp_path / "second").exists()


def test_unknown_column_is_a_usage_error_with_exit_2(wages_csv, tmp_path, capsys):
    main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"])
    code = main(
        ["release", "median", "--data", str(wages_csv), "--column", "salary", "--bounds", "0", "1",
         "--epsilon", "1", "--out", str(tmp_path / "o")]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "salary" in err and "Traceback" not in err


def test_missing_file_and_bad_bounds_exit_2(tmp_path, capsys):
    assert release_median(tmp_path / "nope.csv", tmp_path / "o") == 2
    code = main(
        ["release", "median", "--data", str(tmp_path / "nope.csv"), "--column", "wage", "--bounds", "5", "1",
         "--epsilon", "1", "--out", str(tmp_path / "o")]
    )  # fmt: skip
    assert code == 2
    assert "Traceback" not in capsys.readouterr().err


def test_argparse_usage_errors_exit_2():
    with pytest.raises(SystemExit) as exit_info:
        main(["release", "median", "--data"])
    assert exit_info.value.code == 2


def test_precondition_failure_exits_4_with_the_minimum_n(wages_csv, tmp_path, capsys):
    """The interior-point guarantee needs n >= 2 + (4/eps) ln(|X|/beta): far above 2,001 at eps = 0.01."""
    main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"])
    code = main(
        ["release", "interior-point", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "20000",
         "--epsilon", "0.01", "--out", str(tmp_path / "o")]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 4 and "minimum n" in err
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    assert "spent ε=0;" in capsys.readouterr().out  # refused before anything was reserved


@pytest.mark.parametrize("task", ["cdf", "histogram"])
def test_a_grid_beyond_the_algorithms_size_is_a_usage_error(wages_csv, tmp_path, capsys, task):
    """Docs audit, session 34: a grid of 120,000,001 points exited 4, which promises a minimum n; no n helps,
    so it is a usage error (exit 2), as a grid over --max-memory is."""
    main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"])
    code = main(
        ["release", task, "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "120",
         "--granularity", "1e-6", "--epsilon", "1", "--algorithm", "geometric" if task == "histogram" else
         "tree-laplace", "--out", str(tmp_path / "o")]
    )  # fmt: skip
    assert code == 2 and "at most 2^26" in capsys.readouterr().err


def test_canary_never_appears_in_any_exported_byte(wages_csv, tmp_path):
    main(["budget", "set", "--data", str(wages_csv), "--epsilon", "10"])
    out = tmp_path / "out"
    assert release_median(wages_csv, out, "--algorithm", "em") == 0
    for exported in out.iterdir():
        assert not holds_canary(exported.read_bytes()), exported


def test_algorithms_lists_the_registry(capsys):
    assert main(["algorithms"]) == 0
    out = capsys.readouterr().out
    assert "em" in out and "pure" in out and "paper 002" in out


def test_docs_algorithms_table_is_generated_from_the_current_registry(capsys):
    """docs/algorithms.md must be regenerated (`dpgui algorithms --markdown`) when the registry changes."""
    docs = Path(__file__).resolve().parents[2] / "docs" / "algorithms.md"
    assert main(["algorithms", "--markdown"]) == 0
    assert docs.read_text(encoding="utf-8") == capsys.readouterr().out


def test_embedded_engine_reports_scan_progress_on_stderr(wages_csv, tmp_path, capsys):
    main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"])
    assert release_median(wages_csv, tmp_path / "out", "--engine", "embedded") == 0
    err = capsys.readouterr().err
    assert "scanning the private data: 100%" in err
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["aggregation_backend"] == "embedded"


def test_ctrl_c_exits_130_with_one_line(monkeypatch, capsys):
    from dpgui.cli import algorithms_cmd

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setattr(algorithms_cmd, "run", interrupted)
    assert main(["algorithms"]) == 130
    assert "cancelled" in capsys.readouterr().err


def test_a_flag_of_another_tasks_algorithms_is_named_as_plan_names_it(wages_csv, tmp_path, capsys):
    """Docs audit, session 34: 'release cdf --q 0.5' printed the top-level usage and "unrecognized
    arguments", where 'plan cdf --q 0.5' says no cdf algorithm takes --q."""
    release = ["release", "cdf", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "100"]
    with pytest.raises(SystemExit) as refused:
        main([*release, "--epsilon", "1", "--out", str(tmp_path / "o"), "--q", "0.5"])
    err = capsys.readouterr().err
    assert refused.value.code == 2 and "no cdf algorithm takes --q" in err and "usage:" not in err
    with pytest.raises(SystemExit) as unknown:
        main([*release, "--epsilon", "1", "--out", str(tmp_path / "o"), "--bogus", "1"])
    assert unknown.value.code == 2 and "unrecognized arguments: --bogus 1" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
