"""The human-readable report of a release: one self-contained ``report.html`` (inline CSS, plots as base64).

It states the same public facts as the manifest (dpgui/release/manifest.py) in plain words: the guarantee,
the neighbouring relation, ε as odds, the dataset's fingerprint, the algorithm with its paper and section, the
declared parameters, the released (DP) values, the notes and the budget before and after. It never holds a
private value: only what the release table and the spec (public by construction) contain. Every string is
escaped with :func:`html.escape`.
"""

from __future__ import annotations

import base64
import html
import math
from collections.abc import Iterable, Mapping

from dpgui.data.domain import CategoricalDomain, describe_outside
from dpgui.data.missing import describe_columns
from dpgui.numbers import readable
from dpgui.privacy.budget_words import remaining_words, spent_words
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetState
from dpgui.release.manifest import PlanPosition
from dpgui.release.release import Release
from dpgui.release.utf8 import utf8
from dpgui.tasks.spec import Domain, TaskKind
from dpgui.tasks.table import synthetic_rows

REPORT_HTML = "report.html"
MAX_REPORT_ROWS = 200
"""Rows of the released table shown in the report; the full table is in release.csv."""

_CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 60em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 1.6em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.5em 0; } td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; }
th { background: #f2f2f2; text-align: left; } .warning { color: #a00; font-weight: bold; }
code { font-size: 0.95em; } img { max-width: 100%; }
"""


def _e(value: object) -> str:
    return html.escape(str(value), quote=True)


def _cost(cost: PrivacyCost | None) -> str:
    if cost is None:
        return "not set"
    return f"ε = {cost.epsilon:g}" + (f", δ = {cost.delta:g}" if cost.delta else "")


def _table(header: Iterable[object], rows: Iterable[Iterable[object]]) -> str:
    head = "".join(f"<th>{_e(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{_e(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _facts(pairs: Iterable[tuple[str, object]]) -> str:
    body = "".join(f"<tr><th>{_e(name)}</th><td>{_e(value)}</td></tr>" for name, value in pairs)
    return f"<table>{body}</table>"


def guarantee_sentence(release: Release) -> str:
    """The promise in plain words: pure or approximate DP, the neighbouring relation, ε as odds."""
    cost = release.cost
    odds = math.exp(cost.epsilon)
    kind = (
        f"pure ε-differential privacy with ε = {cost.epsilon:g}"
        if cost.is_pure
        else f"approximate (ε, δ)-differential privacy with ε = {cost.epsilon:g} and δ = {cost.delta:g} "
        f"(beyond the odds bound, any outcome may be at most δ more likely)"
    )
    relation = release.algorithm.neighbouring(release.spec)
    bound = f"change by at most ×e^ε = ×{odds:.3g}"
    promise = (
        f"odds about any one person's label {bound}, whatever that label is; what the release says about "
        "the features of a record is not limited"
        if release.algorithm.account(release.spec) is Account.LABELS_ONLY
        else f"odds about any one person {bound}, whatever that person's record is"
    )
    return (
        f"This release satisfies {kind}. Neighbouring datasets: {relation}. In plain words: an observer's "
        f"{promise}."
    )


def _domain(domain: Domain) -> str:
    if isinstance(domain, CategoricalDomain):
        other = " plus 'other'" if domain.other else ""
        return f"categories {', '.join(domain.categories)}{other}"
    unit = f" {domain.unit}" if domain.unit else ""
    return (
        f"[{domain.lower:g}, {domain.upper:g}]{unit} in {domain.size:,} bins of {domain.granularity:g} "
        "(a value at each middle; declared, not read from the data)"
        if domain.binned
        else f"[{domain.lower:g}, {domain.upper:g}]{unit} in steps of {domain.granularity:g} "
        f"({domain.size:,} grid points; declared, not read from the data)"
    )


def _budget(state: BudgetState) -> list[str]:
    """Total, spent and remaining in the words the CLI and the Budget page use (``budget_words``): under
    tight composition the spent budget is one guarantee at the total's δ, and the δ left is the part not
    yet booked, so spent and remaining δ do not add up to the total's. A plan's release says what the plan
    reserved for its later releases: it is why remaining stays put from before to after."""
    reserved = (
        f" (after {_cost(state.pending)} reserved for the rest of a plan)" if state.pending.epsilon else ""
    )
    return [_cost(state.total), spent_words(state, _cost), remaining_words(state, _cost) + reserved]


def build_report(
    release: Release, plots: Mapping[str, bytes] | None = None, plan: PlanPosition | None = None
) -> bytes:
    """``report.html`` for ``release``; ``plots`` maps a caption to PNG bytes (drawn by the caller), ``plan``
    says where it sits in a release plan (None: a release of its own)."""
    spec, algorithm, table = release.spec, release.algorithm, release.table
    title = f"{spec.kind.title} of {', '.join(spec.columns)}"
    parameters: list[tuple[str, object]] = [] if plan is None else [("release plan", plan.sentence())]
    parameters.extend(
        (f"domain of {column}", _domain(domain))
        for column, domain in zip(spec.columns, spec.domains, strict=True)
    )
    parameters.append(("missing values", describe_columns(spec.missing, spec.columns, spec.domains)))
    parameters.append(("values outside the bounds", describe_outside(spec.columns, spec.domains)))
    if spec.label is not None:
        parameters.append(
            ("label", f"{spec.label} (positive: {spec.positive or '1, true or yes, in any case'})")
        )
    if spec.public is not None:
        parameters.append(("public sample", f"{spec.public.path.name} (SHA-256 {spec.public.sha256})"))
    parameters.extend(
        (name, f"{synthetic_rows(spec, release.dataset.n_rows):,} (0: the public row count)")
        if spec.kind is TaskKind.TABLE and name == "rows" and not value
        else (name, value)  # a GUI audit read "rows 0" beside 28,155 synthetic rows
        for name, value in release.exported_parameters()
    )
    shown = [[readable(cell) for cell in row] for row in table.rows[:MAX_REPORT_ROWS]]
    more = (
        f"<p>Showing the first {MAX_REPORT_ROWS:,} of {len(table.rows):,} rows (release.csv has all).</p>"
        if len(table.rows) > MAX_REPORT_ROWS
        else ""
    )
    images = "".join(
        f'<figure><img alt="{_e(caption)}" src="data:image/png;base64,'
        f'{base64.b64encode(png).decode("ascii")}"><figcaption>{_e(caption)}</figcaption></figure>'
        for caption, png in (plots or {}).items()
    )
    warning = "" if release.private else f'<p class="warning">{_e(release.randomness)}</p>'
    notes = "".join(f"<li>{_e(note)}</li>" for note in table.notes) or "<li>none</li>"
    meaning = f"<p>{_e(table.meaning)}</p>" if table.meaning else ""  # as release.csv's first line says
    sections = [
        f"<h1>{_e(title)}</h1>{warning}",
        f"<h2>Guarantee</h2><p>{_e(guarantee_sentence(release))}</p>",
        "<h2>Dataset</h2>"
        + _facts(
            [
                ("file", release.dataset.file_name),
                ("keyed fingerprint", release.dataset.fingerprint),
                ("rows (public)", f"{release.dataset.n_rows:,}"),
            ]
        ),
        "<h2>Task and algorithm</h2>"
        + _facts(
            [
                ("task", spec.kind.title),
                ("columns", ", ".join(spec.columns)),
                ("algorithm", f"{algorithm.title} ({algorithm.name})"),
                ("paper", f"{algorithm.paper}, {algorithm.section}"),
                ("guarantee", algorithm.guarantee_for(spec).value),
                ("chosen because", release.auto_reason or "picked by the custodian"),
                *([("error bound", release.error_bound)] if release.error_bound else []),
                ("release", release.release_id),
                ("created", release.created.isoformat(timespec="seconds")),
            ]
        ),
        "<h2>Parameters</h2>" + _facts(parameters),
        f"<h2>Released values</h2>{meaning}"
        "<p>About four significant digits; release.csv holds the exact values.</p>"
        f"{_table(table.columns, shown)}{more}{images}",
        f"<h2>Notes</h2><ul>{notes}</ul>",
        f"<h2>Budget ({_e(release.algorithm.account(spec).value)} account)</h2>"
        + _table(
            ["", "total", "spent", "remaining"],
            [["before", *_budget(release.budget_before)], ["after", *_budget(release.budget_after)]],
        ),
    ]
    document = (
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>'
        f"<style>{_CSS}</style></head><body>{''.join(sections)}</body></html>\n"
    )
    return utf8(document)
