"""Pins the release plan's split (dpgui/planner/batch.py, docs/plans.md).

The per-release epsilon is searched in [1e-4, 50] by 30 bisection steps of its log (a ratio of 5e5: the
least epsilon is found within a factor 1 + 1.3e-8); with a budget the split balances the weighted errors
(to the search's 1e-4) and uses the whole epsilon (a hair under it), with delta shared equally by the
releases that may use it; without one every release gets the least epsilon meeting its target and the
total is their sum. n must be at least 1; an unreachable target or an infeasible release is named.
"""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import pytest

from dpgui.planner.batch import (
    EPSILON_RANGE,
    SEARCH_STEPS,
    PlanError,
    PlannedRelease,
    _least_epsilon,
    split_plan,
)
from dpgui.planner.plan_file import load_plan

N = 28_155
MEDIAN = '[[release]]\nname = "{name}"\ntask = "median"\ncolumn = "wage"\nbounds = [0, 20000]\n{extra}\n'
CDF = '[[release]]\nname = "{name}"\ntask = "cdf"\ncolumn = "wage"\nbounds = [0, 20000]\n{extra}\n'


def plan_file(tmp_path: Path, head: str, *releases: str) -> Path:
    path = tmp_path / "plan.toml"
    path.write_text(head + "\n" + "\n".join(releases))
    return path


def test_the_search_range_and_steps_are_as_documented() -> None:
    assert EPSILON_RANGE == (1e-4, 50.0)
    assert SEARCH_STEPS == 30


@pytest.mark.parametrize("least", [0.3, 7.0, 1.5e-3])
def test_least_epsilon_is_found_within_the_searchs_precision(least: float) -> None:
    """30 halvings of ln(5e5): the answer is at most a factor 1 + 1.3e-8 above the true least epsilon."""
    found = _least_epsilon(lambda epsilon: epsilon >= least)
    assert found is not None
    assert least <= found <= least * (1 + math.log(5e5) / 2**30 * 1.01)


def test_least_epsilon_at_the_ends_of_the_range() -> None:
    assert _least_epsilon(lambda epsilon: True) == 1e-4
    assert _least_epsilon(lambda epsilon: epsilon > 50.0) is None
    top = _least_epsilon(lambda epsilon: epsilon >= 50.0)
    assert top is not None and top == pytest.approx(50.0, rel=1e-7)


def test_a_budget_is_used_whole_and_balances_the_weighted_errors(tmp_path: Path) -> None:
    path = plan_file(
        tmp_path,
        "epsilon = 2.0\ndelta = 1e-6\n",
        MEDIAN.format(name="a", extra='algorithm = "em"'),
        CDF.format(name="b", extra='algorithm = "tree-gaussian"\nweight = 2.0'),
    )
    batch = split_plan(load_plan(path), N)
    epsilons = [r.cost.epsilon for r in batch.releases]
    assert math.fsum(epsilons) <= 2.0
    assert math.fsum(epsilons) == pytest.approx(2.0, rel=1e-9)
    weighted = [r.weight * r.predicted_error for r in batch.releases]
    assert max(weighted) <= min(weighted) * (1 + 2e-4)
    assert batch.total.epsilon == pytest.approx(2.0, rel=1e-9) and batch.total.epsilon <= 2.0
    assert batch.charged.epsilon <= batch.total.epsilon
    assert batch.objective == "the least largest weighted predicted error within the budget"


def test_delta_is_shared_equally_by_the_releases_that_may_use_it(tmp_path: Path) -> None:
    """Two CDFs with the Gaussian tree (approximate DP) and one em median (pure): delta/2 each, 0 to em."""
    path = plan_file(
        tmp_path,
        "epsilon = 3.0\ndelta = 1e-6\n",
        CDF.format(name="a", extra='algorithm = "tree-gaussian"'),
        CDF.format(name="b", extra='algorithm = "tree-gaussian"'),
        MEDIAN.format(name="c", extra='algorithm = "em"'),
    )
    batch = split_plan(load_plan(path), N)
    assert [r.cost.delta for r in batch.releases] == [5e-7, 5e-7, 0.0]
    assert batch.total.delta == pytest.approx(1e-6)


def test_targets_give_each_release_the_least_epsilon_and_the_total_is_their_sum(tmp_path: Path) -> None:
    path = plan_file(
        tmp_path,
        "",
        MEDIAN.format(name="a", extra='algorithm = "em"\ntarget_error = 0.01'),
        CDF.format(name="b", extra='algorithm = "tree-laplace"\ntarget_error = 0.02'),
    )
    batch = split_plan(load_plan(path), N)
    for release in batch.releases:
        assert release.target_error is not None
        assert release.predicted_error <= release.target_error
        lower = release.prepared.algorithm.predicted_error(
            replace(release.spec, epsilon=release.cost.epsilon * (1 - 1e-6)), N
        )
        assert lower > release.target_error  # the least epsilon, to the search's precision
    assert batch.total.epsilon == pytest.approx(math.fsum(r.cost.epsilon for r in batch.releases), rel=1e-12)
    assert batch.objective == "the least budget meeting every target error"


def test_n_must_be_at_least_one(tmp_path: Path) -> None:
    path = plan_file(tmp_path, "epsilon = 1.0\n", MEDIAN.format(name="a", extra='algorithm = "em"'))
    with pytest.raises(PlanError, match="n must be at least 1"):
        split_plan(load_plan(path), 0)
    assert split_plan(load_plan(path), 1).releases[0].name == "a"


def test_an_unreachable_target_is_named(tmp_path: Path) -> None:
    path = plan_file(tmp_path, "", MEDIAN.format(name="tight", extra='algorithm = "em"\ntarget_error = 1e-9'))
    with pytest.raises(
        PlanError, match="'tight': no epsilon up to 50 predicts an error of 1e-09 at n = 28155"
    ):
        split_plan(load_plan(path), N)


def test_a_plan_of_pure_releases_books_no_delta(tmp_path: Path) -> None:
    """With a plan delta but only pure algorithms, nobody shares it and the plan's total delta is 0."""
    path = plan_file(
        tmp_path,
        "epsilon = 2.0\ndelta = 1e-6\n",
        MEDIAN.format(name="a", extra='algorithm = "em"'),
        CDF.format(name="b", extra='algorithm = "tree-laplace"'),
    )
    batch = split_plan(load_plan(path), N)
    assert [r.cost.delta for r in batch.releases] == [0.0, 0.0]
    assert batch.total.delta == 0.0


def test_without_a_plan_delta_auto_gets_none(tmp_path: Path) -> None:
    path = plan_file(tmp_path, "epsilon = 1.0\n", CDF.format(name="a", extra=""))
    (release,) = split_plan(load_plan(path), N).releases
    assert release.cost.delta == 0.0 and release.spec.delta == 0.0 and release.cost.is_pure


def test_defaults_and_the_largest_weighted_error(tmp_path: Path) -> None:
    """A PlannedRelease weighs 1 unless told; the plan's figure of merit is max_i w_i err_i (here with
    targets, so the weighted errors differ: 3 x ~0.01 against ~0.02)."""
    path = plan_file(
        tmp_path,
        "",
        MEDIAN.format(name="a", extra='algorithm = "em"\nweight = 3.0\ntarget_error = 0.01'),
        CDF.format(name="b", extra='algorithm = "tree-laplace"\ntarget_error = 0.02'),
    )
    plan = load_plan(path)
    assert PlannedRelease("c", plan.releases[1].spec).weight == 1.0
    batch = split_plan(plan, N)
    weighted = [r.weight * r.predicted_error for r in batch.releases]
    assert weighted[0] > 1.2 * weighted[1]
    assert batch.largest_weighted_error == weighted[0]


def test_a_release_no_algorithm_fits_is_named(tmp_path: Path) -> None:
    """The public-data-assisted CDF needs a public sample, which a plan never holds: named, not a crash."""
    path = plan_file(tmp_path, "epsilon = 2.0\n", CDF.format(name="no sample", extra='algorithm = "pap"'))
    with pytest.raises(PlanError, match="'no sample': no algorithm fits at ε = 2 \\(an even share"):
        split_plan(load_plan(path), N)
