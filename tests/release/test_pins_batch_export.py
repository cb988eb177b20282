"""Pins found by the mutation scan of a plan's export (dpgui/release/batch_export.py, notes/mutscan_rel17.md):
plan.json and the plan's report.html state each release's own cost and the budget around the whole plan.

tests/cli/test_batch.py checks the folder names and the releases' names in plan.json. Dropping a release's
cost, id or predicted error from plan.json, taking "budget after" from the first release instead of the
last, and the report's cost, spent and basic-composition figures all survived it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState, Ledger
from dpgui.privacy.random import SecureRandom
from dpgui.release.batch_export import NamedRelease, export_batch, folder_name
from dpgui.release.release import Release
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import TaskKind, TaskSpec

TOTAL = PrivacyCost(4.0, 1e-6)


def _state(spent: float, basic: float) -> BudgetState:
    return BudgetState(
        TOTAL,
        PrivacyCost(spent, 3e-7),
        PrivacyCost(0.0),
        PrivacyCost(4.0 - spent, 7e-7),
        PrivacyCost(basic, 3e-7),
    )


START, MIDDLE, END = _state(0.5, 0.5), _state(1.0, 1.25), _state(1.5, 2.0)
"""Budget before the plan, between its releases, and after it (the last two with a saving)."""


def _plan(wages_csv: Path) -> list[NamedRelease]:
    """Two releases of one plan, with distinct ids, costs, budgets and predicted errors."""
    dataset = open_dataset(wages_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(3.0))
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), NumericDomain(0, 20000, 1), 1.0)
    release: Release = run_to_end(execute(spec, dataset, ledger, SecureRandom()))
    first = dataclasses.replace(
        release, release_id="a" * 32, cost=PrivacyCost(0.25), budget_before=START, budget_after=MIDDLE
    )
    second = dataclasses.replace(
        release, release_id="b" * 32, cost=PrivacyCost(0.75), budget_before=MIDDLE, budget_after=END
    )
    return [
        NamedRelease("Wage median, v1.2", first, "±12.5"),
        NamedRelease("  wage median (again)!", second, "±3"),
    ]


def _cost(cost: PrivacyCost) -> dict[str, float]:
    return {"epsilon": cost.epsilon, "delta": cost.delta}


def _budget(state: BudgetState) -> dict[str, dict[str, float]]:
    assert state.total is not None and state.remaining is not None and state.spent_basic is not None
    return {
        "total": _cost(state.total),
        "spent": _cost(state.spent),
        "spent_basic_composition": _cost(state.spent_basic),
        "pending": _cost(state.pending),
        "remaining": _cost(state.remaining),
    }


def test_plan_json_states_each_release_and_the_budget_around_the_whole_plan(
    wages_csv: Path, tmp_path: Path
) -> None:
    """Fields: every entry of plan.json's releases (name, folder, id, task, columns, algorithm, cost,
    predicted error), its budget before (the first release's) and after (the last one's). Kills each entry
    dropped, every cost taken from the first release, and before/after taken from the wrong release."""
    plan, out = _plan(wages_csv), tmp_path / "out"
    export_batch(plan, out)
    summary = json.loads((out / "plan.json").read_text(encoding="utf-8"))
    assert summary["releases"] == [
        {
            "name": item.name,
            "folder": folder,
            "release_id": item.release.release_id,
            "task": "median",
            "columns": ["wage"],
            "algorithm": item.release.algorithm.name,
            "cost": _cost(item.release.cost),
            "predicted_error": item.predicted_error,
        }
        for item, folder in zip(plan, ["01-wage-median-v1-2", "02-wage-median-again"], strict=True)
    ]
    assert summary["budget_before"] == _budget(START)
    assert summary["budget_after"] == _budget(END)
    assert sorted(path.name for path in out.iterdir()) == [
        "01-wage-median-v1-2",
        "02-wage-median-again",
        "plan.json",
        "report.html",
    ]


def test_a_folder_name_is_the_plans_order_then_letters_digits_and_dashes() -> None:
    """Rule: a release's folder is its place in the plan (from 01) and its name reduced to lower-case
    letters, digits and single dashes, none at either end. Kills the strip of end dashes removed and dots
    let through."""
    assert folder_name(1, "  Wage CDF, v1.2 (final)! ") == "01-wage-cdf-v1-2-final"
    assert folder_name(12, "../../etc") == "12-etc"
    assert folder_name(3, "!!!") == "03-release"


def test_the_plans_report_states_each_cost_and_the_budget_after_the_plan(
    wages_csv: Path, tmp_path: Path
) -> None:
    """Figures: the plan's report.html, each release's charged cost and the budget after the last release:
    total, the accountant's spent with basic composition beside it when it saves, and remaining. Kills the
    cost read from the spec, spent shown as basic composition, and the basic figure dropped."""
    export_batch(_plan(wages_csv), tmp_path)
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    costs = re.findall(r"<td>median of wage</td><td>[^<]*</td><td>([^<]*)</td>", text)
    assert costs == ["ε=0.25", "ε=0.75"]
    assert (
        "Budget after the plan: total ε=4, δ=1e-06; spent ε = 1.5 at δ = 3e-07 (all releases as one "
        "guarantee) (basic composition: ε=2, δ=3e-07; saved ε=0.5); remaining ε = 2.5; δ not yet booked: "
        "7e-07 of 1e-06."
    ) in text
    assert "under the neighbouring relation and guarantee its report and manifest state" in text
    assert '<a href="01-wage-median-v1-2/report.html">' in text
