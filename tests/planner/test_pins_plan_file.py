"""Pins the plan file's fields, defaults and refusals (dpgui/planner/plan_file.py, docs/plans.md).

Defaults: ``delta`` 0, a release's ``name`` "release N" (counted from 1), ``weight`` 1, ``algorithm`` auto,
``other`` false; ``beta`` is a parameter; ``bounds`` are LO HI pairs per column in column order; one
``granularity`` serves every column. Refused (PlanError naming the release): weight <= 0 or not finite,
target_error <= 0, bounds not two per column, a granularity list of the wrong length, categories for more
than one column. Written back: ``epsilon`` only with a budget, ``delta`` only when positive.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.planner.batch import PlanError, ReleasePlan
from dpgui.planner.plan_file import load_plan, plan_toml, planned_release
from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.spec import AUTO, TaskKind, TaskSpec


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "plan.toml"
    path.write_text(text)
    return path


ONE = '[[release]]\ntask = "cdf"\ncolumn = "wage"\nbounds = [0, 100]\n'


def test_defaults_of_a_bare_release(tmp_path: Path) -> None:
    """Only task, column and bounds given: name "release 1", weight 1, auto, delta 0, no target."""
    plan = load_plan(write(tmp_path, "epsilon = 1.0\n" + ONE))
    (release,) = plan.releases
    assert release.name == "release 1"
    assert release.weight == 1.0
    assert release.target_error is None
    assert release.spec.algorithm == AUTO
    assert release.spec.delta == 0.0
    assert release.spec.parameters == ()
    assert plan.budget == PrivacyCost(1.0, 0.0)


def test_unnamed_releases_are_counted_from_one(tmp_path: Path) -> None:
    plan = load_plan(write(tmp_path, "epsilon = 1.0\n" + ONE + ONE + ONE))
    assert [r.name for r in plan.releases] == ["release 1", "release 2", "release 3"]


def test_plan_delta_reaches_every_release_and_the_budget(tmp_path: Path) -> None:
    plan = load_plan(write(tmp_path, "epsilon = 2.0\ndelta = 1e-6\n" + ONE))
    assert plan.budget == PrivacyCost(2.0, 1e-6)
    assert plan.releases[0].spec.delta == 1e-6


def test_beta_is_a_parameter_and_a_float(tmp_path: Path) -> None:
    plan = load_plan(write(tmp_path, "epsilon = 1.0\n" + ONE + "beta = 1\n"))
    assert plan.releases[0].spec.parameters == (("beta", 1.0),)
    assert isinstance(plan.releases[0].spec.parameter("beta", 0.0), float)


@pytest.mark.parametrize("weight", ["0", "-1.5", "inf", "nan"])
def test_a_weight_that_is_not_positive_and_finite_is_refused(tmp_path: Path, weight: str) -> None:
    text = "epsilon = 1.0\n" + ONE + f'name = "w"\nweight = {weight}\n'
    with pytest.raises(PlanError, match=r"'w'.*weight must be > 0"):
        load_plan(write(tmp_path, text))


def test_a_small_positive_weight_is_kept(tmp_path: Path) -> None:
    plan = load_plan(write(tmp_path, "epsilon = 1.0\n" + ONE + "weight = 0.001\n"))
    assert plan.releases[0].weight == 0.001


@pytest.mark.parametrize("target", ["0", "-0.1"])
def test_a_target_error_that_is_not_positive_is_refused(tmp_path: Path, target: str) -> None:
    with pytest.raises(PlanError, match="target_error must be > 0"):
        load_plan(write(tmp_path, ONE + f"target_error = {target}\n"))
    spec = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 100, 1),), 1.0)
    with pytest.raises(PlanError, match="target_error must be > 0"):
        planned_release("r", spec, target_error=float(target))
    assert planned_release("r", spec, target_error=1e-9).target_error == 1e-9
    assert planned_release("r", spec).weight == 1.0


def test_without_epsilon_a_plan_has_no_budget_and_keeps_its_targets(tmp_path: Path) -> None:
    plan = load_plan(write(tmp_path, ONE + "target_error = 0.02\n"))
    assert plan.budget is None
    assert plan.releases[0].target_error == 0.02


def test_bounds_pair_up_per_column_in_order_with_one_granularity_for_all(tmp_path: Path) -> None:
    text = (
        'epsilon = 1.0\n[[release]]\ntask = "rectangle"\ncolumns = ["x", "y"]\nlabel = "z"\n'
        "bounds = [0, 10, -5, 5]\ngranularity = 0.5\n"
    )
    (release,) = load_plan(write(tmp_path, text)).releases
    assert release.spec.domains == (NumericDomain(0, 10, 0.5), NumericDomain(-5, 5, 0.5))
    assert release.spec.columns == ("x", "y")


def test_a_granularity_list_gives_each_column_its_own_step(tmp_path: Path) -> None:
    text = (
        'epsilon = 1.0\n[[release]]\ntask = "rectangle"\ncolumns = ["x", "y"]\nlabel = "z"\n'
        "bounds = [0, 10, -5, 5]\ngranularity = [1, 0.25]\n"
    )
    (release,) = load_plan(write(tmp_path, text)).releases
    assert release.spec.domains == (NumericDomain(0, 10, 1), NumericDomain(-5, 5, 0.25))
    with pytest.raises(PlanError, match="granularity lists 1 steps for 2 columns"):
        load_plan(write(tmp_path, text.replace("[1, 0.25]", "[1]")))


@pytest.mark.parametrize("bounds", ["[0, 10, -5]", "[0, 10]", "[0, 10, -5, 5, 7, 8]"])
def test_bounds_not_two_per_column_are_refused(tmp_path: Path, bounds: str) -> None:
    head = 'epsilon = 1.0\n[[release]]\nname = "r"\ntask = "rectangle"\ncolumns = ["x", "y"]\n'
    text = head + f"bounds = {bounds}\n"
    with pytest.raises(PlanError, match=r"'r'.*one \[lo, hi\] pair per column"):
        load_plan(write(tmp_path, text))


def test_categories_declare_one_column_and_other_defaults_to_false(tmp_path: Path) -> None:
    text = 'epsilon = 1.0\n[[release]]\ntask = "histogram"\ncolumn = "colour"\ncategories = ["red", "blue"]\n'
    (release,) = load_plan(write(tmp_path, text)).releases
    assert release.spec.domains == (CategoricalDomain(("red", "blue"), other=False),)
    two = text.replace('column = "colour"', 'columns = ["colour", "shade"]')
    not_a_list = text.replace('["red", "blue"]', '"red"')
    for refused in (two, not_a_list):
        with pytest.raises(PlanError, match="declares the one column of a categorical release"):
            load_plan(write(tmp_path, refused))


def test_written_plan_has_epsilon_only_with_a_budget_and_delta_only_when_positive() -> None:
    spec = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 100, 1),), 1.0, 0.0, "tree-laplace")
    release = planned_release("r", spec, target_error=0.1)
    bare = plan_toml(ReleasePlan((release,), None))
    assert "epsilon" not in bare and "delta" not in bare
    with_budget = plan_toml(ReleasePlan((release,), PrivacyCost(1.5, 0.0)))
    assert with_budget.startswith("epsilon = 1.5\n") and "delta" not in with_budget
    with_delta = plan_toml(ReleasePlan((release,), PrivacyCost(1.5, 1e-7)))
    assert with_delta.startswith("epsilon = 1.5\ndelta = 1e-07\n")
    assert "label" not in bare and "positive" not in bare and "parameters" not in bare
    assert "weight = 1.0\ntarget_error = 0.1\n" in bare


@pytest.mark.parametrize(
    "text", ["epsilon = 1.0\n", "epsilon = 1.0\nrelease = []\n", "epsilon = 1.0\nrelease = 3\n"]
)
def test_a_plan_without_releases_is_refused(tmp_path: Path, text: str) -> None:
    with pytest.raises(PlanError, match=r"no \[\[release\]\] tables"):
        load_plan(write(tmp_path, text))


@pytest.mark.parametrize("columns", ["[]", '"wage"'])
def test_columns_must_be_a_non_empty_list(tmp_path: Path, columns: str) -> None:
    text = f'epsilon = 1.0\n[[release]]\ntask = "cdf"\ncolumns = {columns}\nbounds = [0, 100]\n'
    with pytest.raises(PlanError, match='give column = "NAME" or columns'):
        load_plan(write(tmp_path, text))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("epsilon = 1\ndelta = [1]\n", r"delta must be a number, got \[1\]"),
        ("epsilon = true\n", "epsilon must be a number, got True"),
        ("epsilon = 1e308\n", r"epsilon must be a number in \[1e-06, 100\], got 1e\+308"),
        ("epsilon = 1\nrelease = [1, 2]\n", "no \\[\\[release\\]\\] tables"),
        ("epsilon = 1\n[[release]]\nname = 'r'\ntask = 'cdf'\ncolumn = 'x'\nbounds = [0, 1]\n"
         "parameters = {beta = {a = 1}}\n", "parameters must be a table of numbers, texts and booleans"),
        ("epsilon = 1\n[[release]]\nname = 'r'\ntask = 'histogram'\ncolumn = 'x'\ncategories = ['a']\n"
         "other = 'no'\n", "other must be true or false, got 'no'"),
        ("epsilon = 1\n[[release]]\nname = 'r'\ncolumn = 'x'\nbounds = [0, 1]\n", "no 'task' given"),
        ("epsilon = 1\n[[release]]\nname = 'r'\ntask = 'cdf'\ncolumn = 'x'\nbounds = [0, 1]\n"
         "target_error = [1]\n", "target_error must be a number"),
    ],
)  # fmt: skip
def test_values_of_the_wrong_type_are_refused_naming_the_file_and_key(tmp_path: Path, text, message) -> None:
    """A CLI fuzz: these raised TypeError or AttributeError ("unexpected"), read true as epsilon 1 and
    'no' as other = true, or planned an epsilon every release then refused."""
    path = tmp_path / "plan.toml"
    path.write_text(text + ("" if "[[release]]" in text or "release =" in text else
                            "[[release]]\ntask = 'cdf'\ncolumn = 'x'\nbounds = [0, 1]\n"))  # fmt: skip
    with pytest.raises(PlanError, match=message):
        load_plan(path)
