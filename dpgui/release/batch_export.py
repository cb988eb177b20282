"""Writing a release plan's results to one folder: each release's usual export in its own subfolder, and
one ``report.html`` plus ``plan.json`` for the whole plan (its releases, costs and the budget after it)."""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dpgui.json_text import json_text
from dpgui.privacy.budget_words import budget_line
from dpgui.privacy.ledger import BudgetState
from dpgui.release.export import ExportedFiles, export_release, write_atomic
from dpgui.release.manifest import PlanPosition, budget_json, cost_json
from dpgui.release.release import Release
from dpgui.release.utf8 import utf8

PLAN_REPORT = "report.html"
PLAN_JSON = "plan.json"


@dataclass(frozen=True)
class NamedRelease:
    """A release of a plan with its name in the plan and its predicted error (from the planner)."""

    name: str
    release: Release
    predicted_error: str = ""


def folder_name(index: int, name: str) -> str:
    """'01-wage-cdf': the plan's order, then the name reduced to letters, digits and dashes, at most
    SLUG_LENGTH of them (a fuzzed 400-character name was charged, then its folder could not be made)."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower())[:SLUG_LENGTH].strip("-") or "release"
    return f"{index:02d}-{slug}"


SLUG_LENGTH = 60
"""The most characters of a release's name in its folder's name (the index keeps them apart)."""


def export_batch(releases: Sequence[NamedRelease], folder: Path) -> list[ExportedFiles]:
    """Export every release to ``folder/NN-name/`` and write the plan's report and summary beside them."""
    exported = [
        export_one(item.release, folder, PlanPosition(item.name, i, len(releases)))
        for i, item in enumerate(releases, 1)
    ]
    write_summary(releases, exported, folder)
    return exported


def export_one(release: Release, folder: Path, plan: PlanPosition) -> ExportedFiles:
    """A release of a plan exported to ``folder/NN-name/`` (its position and name in the plan): the
    command line writes each release there before its commit, the app all of them at Export."""
    return export_release(release, folder / folder_name(plan.position, plan.name), plan=plan)


def write_summary(releases: Sequence[NamedRelease], exported: Sequence[ExportedFiles], folder: Path) -> None:
    """The plan's ``plan.json`` and ``report.html`` over its exported releases."""
    after = releases[-1].release.budget_after
    summary = {
        "releases": [
            {
                "name": item.name,
                "folder": files.folder.name,
                "release_id": item.release.release_id,
                "task": item.release.spec.kind.value,
                "columns": list(item.release.spec.columns),
                "algorithm": item.release.algorithm.name,
                "cost": cost_json(item.release.cost),
                "predicted_error": item.predicted_error,
            }
            for item, files in zip(releases, exported, strict=True)
        ],
        "budget_before": budget_json(releases[0].release.budget_before),
        "budget_after": budget_json(after),
    }
    write_atomic(folder / PLAN_JSON, utf8(json_text(summary, indent=2) + "\n"))
    write_atomic(folder / PLAN_REPORT, utf8(_report(releases, exported, after)))


def _link(folder: str) -> str:
    name = html.escape(folder)
    return f'<td><a href="{name}/report.html">{name}</a></td>'


def _report(releases: Sequence[NamedRelease], exported: Sequence[ExportedFiles], after: BudgetState) -> str:
    rows = "".join(
        "<tr>"
        + "".join(
            f"<td>{html.escape(cell)}</td>"
            for cell in (
                item.name,
                f"{item.release.spec.kind.value} of {', '.join(item.release.spec.columns)}",
                item.release.algorithm.name,
                str(item.release.cost),
                item.predicted_error,
            )
        )
        + _link(files.folder.name)
        + "</tr>"
        for item, files in zip(releases, exported, strict=True)
    )
    return (
        "<!doctype html><html><head><meta charset='utf-8'><title>Release plan</title></head><body>"
        f"<h1>Release plan: {len(releases)} releases</h1>"
        "<table border='1' cellpadding='4'><tr><th>Release</th><th>Task</th><th>Algorithm</th>"
        "<th>Cost</th><th>Predicted error</th><th>Files</th></tr>"
        f"{rows}</table>"
        f"<p>Budget after the plan: {html.escape(budget_line(after))}.</p>"
        "<p>Each release is differentially private on its own, under the neighbouring relation and guarantee "
        "its report and manifest state; the ledger composes their costs into the budget above.</p>"
        "<p>Each folder holds the release's values, its manifest and its own report.</p></body></html>\n"
    )
