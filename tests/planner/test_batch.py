"""Release plans: the minimax split, the least budget meeting targets, and the plan file's errors."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dpgui.planner.batch import PlanError, split_plan
from dpgui.planner.plan_file import load_plan

N = 28_155
RELEASES = """
[[release]]
name = "wage CDF"
task = "cdf"
column = "wage"
bounds = [0, 20000]
{cdf}

[[release]]
name = "wage quartiles"
task = "quantiles"
column = "wage"
bounds = [0, 20000]
parameters = {{ q = "0.25,0.5,0.75" }}
{quantiles}

[[release]]
name = "education histogram"
task = "histogram"
column = "education"
bounds = [0, 18]
algorithm = "geometric"
{histogram}
"""


def write_plan(tmp_path: Path, head: str, cdf: str = "", quantiles: str = "", histogram: str = "") -> Path:
    path = tmp_path / "plan.toml"
    path.write_text(head + RELEASES.format(cdf=cdf, quantiles=quantiles, histogram=histogram))
    return path


def test_the_split_balances_the_weighted_errors_within_the_budget(tmp_path: Path) -> None:
    plan = load_plan(write_plan(tmp_path, "epsilon = 2.0\ndelta = 1e-6\n", quantiles="weight = 2.0"))
    batch = split_plan(plan, N)
    weighted = [r.weight * r.predicted_error for r in batch.releases]
    assert max(weighted) <= min(weighted) * 1.01  # balanced (the histogram's bound is an integer count)
    assert sum(r.cost.epsilon for r in batch.releases) <= 2.0
    assert sum(r.cost.delta for r in batch.releases) <= 1e-6
    assert batch.charged.epsilon <= batch.total.epsilon


def test_a_heavier_weight_buys_a_smaller_error(tmp_path: Path) -> None:
    light = split_plan(load_plan(write_plan(tmp_path, "epsilon = 2.0\n")), N)
    heavy = split_plan(load_plan(write_plan(tmp_path, "epsilon = 2.0\n", histogram="weight = 4.0")), N)
    assert heavy.releases[2].predicted_error < light.releases[2].predicted_error
    assert heavy.releases[2].cost.epsilon > light.releases[2].cost.epsilon


def test_releases_that_run_pure_give_their_delta_to_the_others(tmp_path: Path) -> None:
    batch = split_plan(load_plan(write_plan(tmp_path, "epsilon = 2.0\ndelta = 1e-6\n")), N)
    by_name = {r.name: r for r in batch.releases}
    assert by_name["wage CDF"].prepared.algorithm.name == "tree-gaussian"
    assert by_name["wage CDF"].cost.delta == pytest.approx(1e-6)
    assert by_name["wage quartiles"].cost.delta == 0 and by_name["education histogram"].cost.delta == 0


def test_targets_give_the_least_budget_meeting_every_one(tmp_path: Path) -> None:
    path = write_plan(
        tmp_path,
        "",
        cdf="target_error = 0.02",
        quantiles="target_error = 0.01",
        histogram="target_error = 0.01",
    )
    batch = split_plan(load_plan(path), N)
    for release in batch.releases:
        assert release.target_error is not None
        assert release.predicted_error <= release.target_error
        less = dataclasses.replace(release.spec, epsilon=release.cost.epsilon * 0.99)
        lower = release.prepared.algorithm.predicted_error(less, N)
        assert lower > release.target_error  # 1% less epsilon misses the target
    assert batch.total.epsilon == pytest.approx(sum(r.cost.epsilon for r in batch.releases))


def test_a_plan_without_budget_needs_every_target(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match="wage CDF"):
        load_plan(write_plan(tmp_path, "", quantiles="target_error = 0.01", histogram="target_error = 0.01"))


def test_a_malformed_release_is_named(tmp_path: Path) -> None:
    path = tmp_path / "plan.toml"
    path.write_text('epsilon = 1.0\n[[release]]\nname = "broken"\ncolumn = "wage"\nbounds = [0, 1]\n')
    with pytest.raises(PlanError, match="broken"):
        load_plan(path)
