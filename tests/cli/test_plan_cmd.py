"""``dpgui plan``'s own inputs are range-checked like a release's: a row count beyond what the planner
searches (10^13) ended in an OverflowError, and a target error of 0, below 0, NaN or infinity was planned
for ("unreachable" in every row) instead of refused."""

from __future__ import annotations

import json
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
    assert main([*MEDIAN, "--n", "1e13"]) == 0  # as people write it (an audit's 1e9 was refused)
    with pytest.raises(SystemExit):
        main([*MEDIAN, "--n", "2.5"])
    assert "a whole number of records, got '2.5'" in capsys.readouterr().err


@pytest.mark.parametrize("target", ["0", "-0.1", "nan", "inf"])
def test_a_target_error_that_is_not_a_positive_number_is_a_usage_error(
    target: str, capsys: pytest.CaptureFixture[str]
):
    assert main([*MEDIAN, "--n", "1000", "--target-error", target]) == 2
    assert "--target-error must be a finite number > 0" in capsys.readouterr().err


def test_a_target_the_smallest_epsilon_meets_is_said_so(capsys: pytest.CaptureFixture[str]):
    """A CDF error of 2 is met by any release: an audit read "ε for the target error: 0.0001", the bottom
    of the search, as if that ε were needed."""
    planned = ["plan", "cdf", "--n", "300", "--bounds", "0", "100", "--epsilon", "1", "--target-error", "2"]
    assert main(planned) == 0
    out = capsys.readouterr().out
    assert "any ε (the smallest planned, 0.0001, already meets it)" in out and ": 0.0001\n" not in out


def test_a_batch_plan_checks_its_row_count(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    plan_file = tmp_path / "plan.toml"
    plan_file.write_text("")
    assert main(["plan", "batch", str(plan_file), "--n", "100000000000000000000"]) == 2
    assert "--n must be at least 1 and at most" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["plan", "table", "--domains", "D.json", "--bounds", "0", "9"], "plan table does not take --bounds"),
        (["plan", "table", "--domains", "D.json", "--public", "p.csv"], "plan table does not take --public"),
        ([*MEDIAN, "--missing", "keep"], "plan median does not take --missing"),
        ([*MEDIAN, "--domains", "D.json"], "plan median does not take --domains"),
        (["plan", "batch", "P.toml", "--epsilon", "1"], "plan batch does not take --epsilon"),
        (["plan", "batch", "P.toml", "--tree-share", "0.3"], "plan batch does not take --tree-share"),
        (["plan", "batch", "P.toml", "--target-error", "0.1"], "plan batch does not take --target-error"),
        ([*MEDIAN, "--categories", "a,b"], "plan median does not take --categories"),
        ([*MEDIAN, "--other"], "plan median does not take --other"),
        (
            ["plan", "table", "--domains", "D.json", "--categories", "a"],
            "plan table does not take --categories",
        ),
    ],
)
def test_a_flag_the_plan_would_not_read_is_refused(extra: list[str], message: str, capsys):
    """A table reads its columns from --domains, a one-column task from --bounds, a batch everything from
    its plan file: the other flags were accepted and silently ignored."""
    assert main([*extra, "--n", "1000"]) == 2
    assert message in capsys.readouterr().err


def test_a_categorical_histogram_is_planned_on_its_declared_categories(capsys: pytest.CaptureFixture[str]):
    """``release histogram --categories`` had no plan: ``plan histogram`` asked for --bounds. Four cells
    (three declared and 'other') at n = 1,000 and epsilon 1: discrete Laplace of scale 2 / epsilon (replace
    one record moves two cells), max over the cells at beta = 0.05: 2 ln(4 / 0.05) / 1000 = 0.0088."""
    planned = ["plan", "histogram", "--n", "1000", "--categories", "a,b,c", "--other", "--epsilon", "1"]
    assert main([*planned, "--json"]) == 0
    rows = {row["algorithm"]: row for row in json.loads(capsys.readouterr().out)["algorithms"]}
    assert rows["geometric"]["auto"] and rows["geometric"]["predicted_error"] == pytest.approx(
        0.0088, rel=0.03
    )
    assert main([*planned[:-4], "a,b,c", "--epsilon", "1", "--json"]) == 0  # without 'other': three cells
    three = {row["algorithm"]: row for row in json.loads(capsys.readouterr().out)["algorithms"]}
    assert three["geometric"]["predicted_error"] < rows["geometric"]["predicted_error"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--categories", "a,b", "--bounds", "0", "9"], "drop --bounds"),
        (["--other", "--bounds", "0", "9"], "--other counts undeclared categories: it needs --categories"),
    ],
)
def test_a_histogram_plan_declares_categories_or_bounds_not_both(extra: list[str], message: str, capsys):
    assert main(["plan", "histogram", "--n", "1000", "--epsilon", "1", *extra]) == 2
    assert message in capsys.readouterr().err


def test_a_public_sample_is_read_under_the_given_column_name(tmp_path: Path, capsys):
    """The planned column was always named x, so a public sample without an x column was refused."""
    public = tmp_path / "public.csv"
    public.write_text("income\n" + "\n".join(str(10 * v) for v in range(200)) + "\n")
    plan = ["plan", "cdf", "--n", "3000", "--bounds", "0", "2000", "--epsilon", "1", "--public", str(public)]
    assert main(plan) == 2
    assert "no column 'x'" in capsys.readouterr().err
    assert main([*plan, "--column", "income", "--json"]) == 0
    assert '"algorithm": "pap"' in capsys.readouterr().out


def _strict_json(text: str) -> object:
    """``json.loads`` refusing Infinity and NaN, which no JSON reader but Python's accepts."""
    import json

    def refuse(constant: str) -> object:
        raise ValueError(f"{constant} is not JSON")

    return json.loads(text, parse_constant=refuse)


def test_an_infeasible_algorithms_error_is_null_in_plan_json(capsys: pytest.CaptureFixture[str]):
    """Docs audit, session 34: an algorithm that cannot run (approximate DP at δ = 0) has an infinite
    predicted error, which ``plan --json`` wrote as Infinity: a strict reader (jq, JavaScript) refused the
    document."""
    assert main(["plan", "cdf", "--bounds", "0", "1000", "--epsilon", "1", "--n", "1000", "--json"]) == 0
    document = _strict_json(capsys.readouterr().out)
    errors = {row["algorithm"]: row["predicted_error"] for row in document["algorithms"]}  # type: ignore[index]
    assert errors["tree-gaussian"] is None and isinstance(errors["tree-laplace"], float)
