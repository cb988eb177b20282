"""The review before every charge (issue 15 item 4): its summary, its public-only checks, auto avoiding an
algorithm that fails one, and the CLI printing it on stderr and refusing a failed check."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.data.domain import CategoricalDomain, NumericDomain, declared_grid
from dpgui.data.public import PublicSample
from dpgui.paths import demo_public_path
from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.review import build_review, task_checks
from dpgui.tasks.runner import prepare
from dpgui.tasks.spec import TaskKind, TaskSpec

N = 28_155
BUDGET = PrivacyCost(10, 1e-6)


@pytest.fixture
def public() -> PublicSample:
    return PublicSample.from_file(demo_public_path())  # hourly wages, 1 to 44.5


def review_of(spec: TaskSpec, remaining: PrivacyCost | None = BUDGET):
    return build_review(prepare(spec, N), remaining)


def failed_titles(spec: TaskSpec) -> list[str]:
    return [check.title for check in review_of(spec).failures]


def test_the_summary_states_task_columns_algorithm_why_cost_budget_after_and_error_in_records(public):
    spec = TaskSpec(TaskKind.CDF, ("wage",), (declared_grid(0, 50),), 1.0, public=public)
    review = review_of(spec)
    summary = dict(review.summary())
    assert set(summary) == {
        "Task", "Columns", "Algorithm", "Why", "Public inputs", "Privacy cost", "Budget after",
        "Predicted error",
    }  # fmt: skip
    assert "wage in [0, 50]" in summary["Columns"] and "auto chose" in summary["Why"]
    assert summary["Public inputs"] == f"public sample {demo_public_path().name}"
    assert summary["Budget after"] == "ε = 9, δ = 1e-06 left"
    assert f"of the {N:,} records" in summary["Predicted error"]
    assert review.failures == () and review.lines()[-1] == "all checks passed"


def test_a_public_sample_on_another_scale_fails_the_check_of_the_algorithm_that_cuts_at_it(public):
    weekly = TaskSpec(
        TaskKind.CDF, ("wage",), (declared_grid(0, 20000),), 1.0, algorithm="pap", public=public
    )
    review = review_of(weekly)
    (failure,) = review.failures
    assert "used by pap" in failure.title and "shifted" in failure.detail
    hourly = TaskSpec(TaskKind.CDF, ("wage",), (declared_grid(0, 50),), 1.0, algorithm="pap", public=public)
    assert review_of(hourly).failures == ()


def test_auto_never_picks_an_algorithm_failing_a_check_and_says_so(public):
    hourly = TaskSpec(TaskKind.CDF, ("wage",), (declared_grid(0, 50),), 1.0, public=public)
    assert get_algorithm("pap").public_assisted
    weekly = TaskSpec(TaskKind.CDF, ("wage",), (declared_grid(0, 20000),), 1.0, public=public)
    chosen = prepare(weekly, N)
    assert chosen.algorithm.name != "pap" and "not considered: pap" in (chosen.auto_reason or "")
    assert "pap" in (prepare(hourly, N).auto_reason or "")  # control: considered when the sample fits


def test_a_coarse_grid_and_a_sample_outside_the_bounds_fail(public):
    coarse = TaskSpec(TaskKind.MEDIAN, ("wage",), (NumericDomain(0, 50, 1),), 1.0, public=public)
    assert failed_titles(coarse) == ["grid of wage"]
    years = TaskSpec(TaskKind.MEDIAN, ("education",), (NumericDomain(0, 20, 1),), 1.0, public=public)
    assert failed_titles(years) == []  # the public sample's whole years all lie on the grid
    narrow = TaskSpec(TaskKind.MEDIAN, ("wage",), (declared_grid(0, 10),), 1.0, public=public)
    assert failed_titles(narrow) == ["public sample inside the bounds of wage"]
    histogram = TaskSpec(TaskKind.HISTOGRAM, ("wage",), (NumericDomain(0, 50, 5),), 1.0, public=public)
    assert failed_titles(histogram) == []  # a histogram's few bins are what it asks for


def grid_detail(spec: TaskSpec) -> str:
    (check,) = [check for check in review_of(spec).checks if check.title.startswith("grid of")]
    assert check.passed
    return check.detail


def sample_of(tmp_path: Path, values: np.ndarray) -> PublicSample:
    path = tmp_path / "public.csv"
    pd.DataFrame({"age": values}).to_csv(path, index=False)
    return PublicSample.from_file(path)


def test_a_grid_finer_than_every_public_value_passes_with_the_coarser_step_as_advice(tmp_path: Path):
    ages = np.round(np.random.default_rng(0).gamma(6, 7, 300) + 18)
    whole = sample_of(tmp_path, ages)
    fine = TaskSpec(TaskKind.CDF, ("age",), (declared_grid(0, 100),), 1.0, public=whole)  # step 0.01
    assert declared_grid(0, 100).size == 10_001
    assert grid_detail(fine) == (
        "10,001 grid points; every public sample value lies on a step of 1 (101 points): declaring "
        "granularity 1 spreads the noise over fewer points and lowers the error, unless the private column "
        "takes values between them"
    )
    halves = TaskSpec(
        TaskKind.CDF, ("age",), (NumericDomain(0, 100, 0.1),), 1.0, public=sample_of(tmp_path, ages + 0.5)
    )
    assert "on a step of 0.5 (201 points)" in grid_detail(halves)
    assert grid_detail(replace(fine, domains=(NumericDomain(0, 100, 1),))) == "101 grid points"  # already it
    binned = replace(fine, domains=(declared_grid(0, 100, bins=1024),))  # a step of 0.098, not a divisor of 1
    assert "on a step of 1 (101 points)" in grid_detail(binned)
    shifted = replace(fine, domains=(NumericDomain(0.05, 100.05, 0.1),))
    assert grid_detail(shifted) == "1,001 grid points"  # whole numbers are off that grid's points
    decimals = sample_of(tmp_path, ages + np.random.default_rng(1).uniform(0, 1, ages.size))
    assert grid_detail(replace(fine, public=decimals)) == "10,001 grid points"
    few = sample_of(tmp_path, np.arange(9) * 5.0)  # 9 values may lie on a coarse step by chance
    assert grid_detail(replace(fine, public=few)) == "10,001 grid points"


def test_a_rank_error_is_also_shown_in_the_column_units_of_the_public_sample(public):
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), (declared_grid(0, 50),), 1.0, public=public)
    text = dict(review_of(spec).summary())["Predicted error"]
    assert "records" in text and "on the public sample, ranks within that error of the median" in text


def test_a_public_sample_on_another_scale_gives_no_spread_in_the_columns_units(public):
    """The demo's hourly wages under a weekly grid: their spread said nothing of the weekly column."""
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), (declared_grid(0, 20000),), 1.0, public=public)
    text = dict(review_of(spec).summary())["Predicted error"]
    assert "records" in text and "on the public sample" not in text


def test_a_declared_unit_appears_in_the_columns_line_and_the_value_spread(public):
    spec = TaskSpec(
        TaskKind.MEDIAN, ("wage",), (declared_grid(0, 50, unit="USD per hour"),), 1.0, public=public
    )
    summary = dict(review_of(spec).summary())
    assert "wage in [0, 50] USD per hour step" in summary["Columns"]
    assert summary["Predicted error"].endswith("USD per hour")


def test_a_predicted_error_no_better_than_a_trivial_answer_fails():
    spec = TaskSpec(TaskKind.CDF, ("x",), (declared_grid(0, 1000),), 1.0, 1e-6, "san-thresholds")
    assert "better than a trivial answer" in failed_titles(spec)


def test_a_large_imputed_share_in_the_public_sample_fails(tmp_path: Path):
    path = tmp_path / "public.csv"
    pd.DataFrame({"x": [np.nan] * 30 + list(range(70))}).to_csv(path, index=False)
    spec = TaskSpec(
        TaskKind.MEDIAN, ("x",), (declared_grid(0, 1000),), 1.0, public=PublicSample.from_file(path)
    )
    assert failed_titles(spec) == ["imputed share of x"]


def test_without_a_total_budget_the_review_says_the_ledger_will_refuse():
    spec = TaskSpec(TaskKind.MEDIAN, ("x",), (declared_grid(0, 1000),), 1.0)
    assert "no total budget" in dict(review_of(spec, None).summary())["Budget after"]


def test_cli_prints_the_review_before_charging_and_refuses_a_failed_check(wages_csv: Path, tmp_path, capsys):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    capsys.readouterr()
    args = ["release", "median", "--data", str(wages_csv), "--column", "wage", "--epsilon", "1"]
    coarse = [*args, "--bounds", "0", "5000", "--bins", "10"]
    assert main([*coarse, "--out", str(tmp_path / "a")]) == 2
    err = capsys.readouterr().err
    assert "Review before charging:" in err and "[FAILED] grid of wage" in err and "--accept-warnings" in err
    assert not (tmp_path / "a").exists()
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    assert "spent ε=0" in capsys.readouterr().out  # refused before the reservation
    assert main([*coarse, "--out", str(tmp_path / "b"), "--accept-warnings"]) == 0
    err = capsys.readouterr().err
    assert err.index("Review before charging:") < err.index("spent ε=1")
    assert "Budget after: ε = 4, δ = 0 left" in err


def test_the_review_shows_and_checks_the_error_auto_ranked_by():
    """auto ranks a calibrated algorithm by its simulated mean error; the review must show and check that
    number, not the algorithm's looser bound (which once failed the trivial-answer check auto had passed)."""
    spec = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 20000, 10),), 1.0)
    prepared = prepare(spec, 2001)
    review = build_review(prepared, PrivacyCost(10.0))
    assert prepared.algorithm.calibrated and "simulated mean error" in (prepared.auto_reason or "")
    assert review.error_kind == "simulated mean error"
    assert f"{review.predicted_error:.4g}" in (prepared.auto_reason or "")
    assert not review.failures


def test_a_table_column_too_fine_for_its_1_way_marginal_fails_and_the_advice_passes():
    """Independent marginals at eps = 1 over 3 columns: discrete Laplace of scale 6 per cell, E|Z| about 6.
    At n = N a 20,001-cell column is predicted at TV 1 (capped); the advised grid lands near TV 0.25."""
    columns = ("x", "y", "z")
    categories = CategoricalDomain(("a", "b"))
    fine = TaskSpec(
        TaskKind.TABLE,
        columns,
        (NumericDomain(0, 20000, 1), NumericDomain(0, 10, 1), categories),
        1.0,
        algorithm="independent",
    )
    (failed,) = review_of(fine).failures
    assert failed.title == "the 1-way marginal of x is measurable"
    found = re.search(r"at most about ([\d,]+) grid points", failed.detail)
    assert found is not None
    advised = int(found.group(1).replace(",", ""))
    assert 2000 < advised < 2600  # 0.25 * 2 * N / E|Z| cells, E|Z| = 2p / (1 - p^2), p = exp(-1/6)
    coarse = replace(fine, domains=(declared_grid(0, 20000, bins=advised - 1), *fine.domains[1:]))
    checks = {check.title: check for check in review_of(coarse).checks}
    assert checks["the 1-way marginal of x is measurable"].passed


@pytest.mark.parametrize(
    ("bound", "delta", "guarantee", "cost"),
    [
        (
            1,
            1e-6,
            "(pure ε-DP)",
            "ε = 1, δ = 0 (the δ = 1e-06 given is not spent: this algorithm is pure ε-DP)",
        ),
        (1, 0.0, "(pure ε-DP)", "ε = 1, δ = 0"),
        (0, 1e-6, "(approximate (ε, δ)-DP)", "ε = 1, δ = 1e-06"),
    ],
)
def test_the_review_states_this_runs_guarantee_and_the_delta_it_charges(bound, delta, guarantee, cost):
    """One-level RecConcave is one exponential mechanism: the review said "approximate" from the registry's
    label while its cost charges no δ (and the δ given is said to go unspent, not dropped without a word);
    with two levels the δ it charges must be stated."""
    spec = TaskSpec(
        TaskKind.THRESHOLD, ("age",), (declared_grid(0, 2000),), 1.0, delta, "recconcave",
        parameters=(("direction", "ge"), ("recursion_bound", bound)), label="retired",
    )  # fmt: skip
    summary = dict(review_of(spec).summary())
    assert summary["Algorithm"].endswith(guarantee)
    assert summary["Privacy cost"] == cost


def test_the_summary_names_the_public_files_the_release_reads_and_no_row_without_any(tmp_path):
    """A distance release's queries file sets its price: the review names it (by name, not path)."""
    queries = tmp_path / "q.csv"
    pd.DataFrame({"x": [1, 5], "y": [2, 8]}).to_csv(queries, index=False)
    domains = (NumericDomain(0, 10, 1), NumericDomain(0, 10, 1))
    parameters = (("queries", str(queries)),)
    spec = TaskSpec(
        TaskKind.DISTANCE, ("x", "y"), domains, 1.0, 0.0, "laplace-per-query", parameters=parameters
    )
    assert dict(review_of(spec).summary())["Public inputs"] == "queries file q.csv"
    alone = TaskSpec(TaskKind.CDF, ("wage",), (declared_grid(0, 50),), 1.0)
    assert "Public inputs" not in dict(review_of(alone).summary())


@pytest.mark.parametrize("kind", [TaskKind.QUANTILES, TaskKind.MEDIAN, TaskKind.CDF])
def test_a_public_column_that_is_no_numbers_fails_the_review_of_every_numeric_task(tmp_path, kind):
    """Loader fuzz (session 36): quantiles ran with such a sample (and named it in the manifest) where a CDF
    refused the same file."""
    path = tmp_path / "public.csv"
    pd.DataFrame({"wage": ["x", "y"] * 50}).to_csv(path, index=False)
    spec = TaskSpec(
        kind, ("wage",), (declared_grid(0, 100, granularity=1),), 1.0, public=PublicSample.from_file(path)
    )
    failed = [check for check in task_checks(spec) if not check.passed]
    assert [check.title for check in failed] == ["public sample's wage is numbers"]
    assert "'x' is not a finite number" in failed[0].detail and "leave the sample out" in failed[0].detail
    pd.DataFrame({"wage": np.linspace(0, 100, 101)}).to_csv(path, index=False)
    readable = replace(spec, public=PublicSample.from_file(path))
    assert [check.title for check in task_checks(readable) if not check.passed] == []
