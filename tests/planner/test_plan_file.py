"""The plan file: what the app's plan editor writes, the CLI reads back as the same plan."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.planner.batch import PlanError, ReleasePlan
from dpgui.planner.plan_file import load_plan, plan_toml, planned_release, save_plan
from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.spec import TaskKind, TaskSpec, default_missing
from tests.planner.test_batch import write_plan


def test_a_loaded_plan_is_written_and_read_back_unchanged(tmp_path: Path) -> None:
    plan = load_plan(write_plan(tmp_path, "epsilon = 2.0\ndelta = 1e-6\n", quantiles="weight = 2.5"))
    again = tmp_path / "again.toml"
    save_plan(plan, again)
    assert load_plan(again) == plan


def test_specs_from_the_app_round_trip_with_their_grids_labels_and_parameters(tmp_path: Path) -> None:
    two = (NumericDomain(0, 100, 0.5), NumericDomain(-3, 7, 1))
    rectangle = TaskSpec(
        TaskKind.RECTANGLE, ("x", "y"), two, 1.0, 1e-7, "auto", label="inside", positive="1",
        parameters=(("beta", 0.1), ("rounds", 3), ("exact", True), ("q", "0.25,0.5")),
    )  # fmt: skip
    cdf = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 1999, 7),), 1.0, 1e-7, "tree-laplace")
    plan = ReleasePlan(
        (planned_release('rect "A"', rectangle, target_error=0.05), planned_release("cdf", cdf, 1.0, 0.02)),
        None,
    )
    path = tmp_path / "plan.toml"
    save_plan(plan, path)
    assert load_plan(path) == plan
    with_budget = ReleasePlan(plan.releases, PrivacyCost(1.5, 1e-7))
    path.write_text(plan_toml(with_budget))
    assert load_plan(path) == with_budget


def test_a_categorical_histogram_round_trips_with_its_categories_and_other(tmp_path: Path) -> None:
    colours = TaskSpec(
        TaskKind.HISTOGRAM, ("colour",), (CategoricalDomain(("red", 'bl"ue'), other=True),), 1.0
    )
    plan = ReleasePlan((planned_release("colours", colours, target_error=0.01),), None)
    path = tmp_path / "plan.toml"
    save_plan(plan, path)
    assert 'categories = ["red", "bl\\"ue"]' in path.read_text() and "other = true" in path.read_text()
    assert load_plan(path) == plan


def test_what_a_plan_cannot_hold_is_refused_by_name() -> None:
    mixed = (CategoricalDomain(("red", "blue")), NumericDomain(0, 10, 1))
    colours = TaskSpec(TaskKind.RECTANGLE, ("colour", "x"), mixed, 1.0)
    with pytest.raises(PlanError, match=r"colours.*categorical"):
        planned_release("colours", colours)
    wage = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 100, 1),), 1.0)
    with pytest.raises(PlanError, match="weight"):
        planned_release("wage", wage, weight=0.0)


def test_a_table_round_trips_with_its_default_of_keeping_missing_values(tmp_path: Path) -> None:
    """A plan holds no missing-value policy: each task's default, a table's being to keep them as blanks."""
    grids = (NumericDomain(0, 100, 10), NumericDomain(-3, 7, 1))
    table = TaskSpec(
        TaskKind.TABLE, ("x", "y"), grids, 1.0, 1e-6, "aim", missing=default_missing(TaskKind.TABLE)
    )
    assert table.missing.kind is MissingKind.KEEP and default_missing(TaskKind.CDF) == MissingPolicy()
    plan = ReleasePlan((planned_release("table", table, target_error=0.2),), None)
    path = tmp_path / "plan.toml"
    save_plan(plan, path)
    assert load_plan(path) == plan
    imputed = dataclasses.replace(table, missing=MissingPolicy())
    with pytest.raises(PlanError, match="default missing-value policy \\(missing values kept"):
        planned_release("table", imputed)
