"""``dpgui plan``'s own inputs are range-checked like a release's: a row count beyond what the planner
searches (10^13) ended in an OverflowError, and a target error of 0, below 0, NaN or infinity was planned
for ("unreachable" in every row) instead of refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.cli import main

MEDIAN = ["plan", "median", "--bounds", "0", "1000", "--epsilon", "1"]


@pytest.mark.parametrize("n", ["10000000000001", "100000000000000000000"])
def test_a_row_count_beyond_the_planners_range_is_a_usage_error(n: str, capsys: pytest.CaptureFixture[str]):
    assert main([*MEDIAN, "--n", n]) == 2
    err = capsys.readouterr().err
    assert "--n must be at least 1 and at most 10,000,000,000,000" in err and "unexpected" not in err


def test_the_largest_row_count_is_planned(capsys: pytest.CaptureFixture[str]):
    assert main([*MEDIAN, "--n", "10000000000000"]) == 0


@pytest.mark.parametrize("target", ["0", "-0.1", "nan", "inf"])
def test_a_target_error_that_is_not_a_positive_number_is_a_usage_error(
    target: str, capsys: pytest.CaptureFixture[str]
):
    assert main([*MEDIAN, "--n", "1000", "--target-error", target]) == 2
    assert "--target-error must be a finite number > 0" in capsys.readouterr().err


def test_a_batch_plan_checks_its_row_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    plan_file = tmp_path / "plan.toml"
    plan_file.write_text("")
    assert main(["plan", "batch", str(plan_file), "--n", "100000000000000000000"]) == 2
    assert "--n must be at least 1 and at most" in capsys.readouterr().err
