"""The manifest: what a release states about itself (schema-versioned JSON).

It holds DP outputs' fingerprints and public facts only: never a seed, a raw value or a non-private
statistic. :data:`FORBIDDEN_KEYS` lists names that must never appear: :func:`build_manifest` refuses a
manifest holding one (a bug upstream, never an export), and tests scan exports for them too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dpgui.data.domain import CategoricalDomain, describe_outside
from dpgui.data.fingerprint import METHOD as FINGERPRINT_METHOD
from dpgui.data.missing import describe_columns
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState
from dpgui.release.release import Release
from dpgui.tasks.spec import Domain

SCHEMA_VERSION = 1
ACCOUNTANT = (
    "per dataset: tight composition of the releases' recorded privacy curves (PLD accountant of "
    "dp-accounting, zCDP with Canonne-Kamath-Steinke 2020), as ε at the total's δ, never more than basic "
    "composition (sums of ε and of δ, charged when the accountant saves less than 1%); when the accountant's "
    "figure is charged, spent δ is the total's, and remaining δ is the total's less the δ the releases "
    "booked (what later releases may still book), for information"
)
FORBIDDEN_KEYS = frozenset({"seed", "random_state", "true_value", "raw", "rows_sample", "min", "max", "mean"})
COLUMN_KEYED = (("parameters", "domains"),)
"""Paths of the manifest's maps keyed by the custodian's column names: a column may be called "max"."""


@dataclass(frozen=True)
class PlanPosition:
    """Where a release of a release plan sits in it: its manifest and report name the plan, whose own
    ``report.html`` and ``plan.json`` lie one folder up."""

    name: str
    position: int
    releases: int

    def to_json(self) -> dict[str, Any]:
        return {
            "release_name": self.name,
            "position": self.position,
            "of": self.releases,
            "plan_files": ["../report.html", "../plan.json"],
        }

    def sentence(self) -> str:
        return (
            f"release {self.position} of {self.releases} of a release plan, named {self.name!r} there; "
            "the plan's report and summary are ../report.html and ../plan.json"
        )


class ForbiddenKeyError(RuntimeError):
    """A manifest about to state a seed or a non-private statistic: a bug in dpgui, refused before any file
    of the export is written."""


def forbidden_keys(node: object, path: tuple[str, ...] = ()) -> set[str]:
    """The :data:`FORBIDDEN_KEYS` anywhere in ``node`` (dicts and lists of a JSON document), except the
    column names that key the maps at :data:`COLUMN_KEYED`."""
    if isinstance(node, list):
        return {key for item in node for key in forbidden_keys(item, path)}
    if not isinstance(node, dict):
        return set()
    own = set() if path in COLUMN_KEYED else FORBIDDEN_KEYS.intersection(node)
    return own.union(*(forbidden_keys(value, (*path, str(key))) for key, value in node.items()))


def cost_json(cost: PrivacyCost | None) -> dict[str, float] | None:
    return None if cost is None else {"epsilon": cost.epsilon, "delta": cost.delta}


def budget_json(state: BudgetState) -> dict[str, Any]:
    """The budget as a manifest states it. ``pending`` is what runs booked but not yet settled add (the rest
    of a plan, reserved as a whole before its first release), so remaining = total - spent - pending."""
    return {
        "total": cost_json(state.total),
        "spent": cost_json(state.spent),
        "spent_basic_composition": cost_json(state.spent_basic),
        "pending": cost_json(state.pending),
        "remaining": cost_json(state.remaining),
    }


def _domain(domain: Domain) -> dict[str, Any]:
    if isinstance(domain, CategoricalDomain):
        return {"categories": list(domain.categories), "other": domain.other}
    declared = {
        "lower": domain.lower,
        "upper": domain.upper,
        "granularity": domain.granularity,
        "grid_points": domain.size,
    }
    if domain.binned:  # its grid points are the middles of that many bins of width granularity
        declared |= {"bins": domain.size, "values_at": "the middle of each bin"}
    return declared | ({"unit": domain.unit} if domain.unit else {})


def build_manifest(
    release: Release, outputs: dict[str, str], plan: PlanPosition | None = None
) -> dict[str, Any]:
    """The manifest of ``release``; ``outputs`` maps each exported file name to its SHA-256, ``plan`` says
    where it sits in a release plan (None: a release of its own). Raises :class:`ForbiddenKeyError` if it
    would hold a key of :data:`FORBIDDEN_KEYS`."""
    manifest = _manifest(release, outputs, plan)
    if found := forbidden_keys(manifest):
        raise ForbiddenKeyError(
            f"release {release.release_id}: its manifest would state {', '.join(sorted(found))}, which no "
            "export may hold; nothing was written. This is a bug in dpgui: please report it."
        )
    return manifest


def _manifest(release: Release, outputs: dict[str, str], plan: PlanPosition | None) -> dict[str, Any]:
    spec, algorithm = release.spec, release.algorithm
    return {
        "schema_version": SCHEMA_VERSION,
        "release_id": release.release_id,
        "created": release.created.isoformat(timespec="seconds").replace("+00:00", "Z"),
        "application": {"name": release.app, "version": release.app_version},
        "private": release.private,
        "randomness": release.randomness,
        "dataset": {
            "file_name": release.dataset.file_name,
            "fingerprint": release.dataset.fingerprint,
            "fingerprint_method": FINGERPRINT_METHOD,
            "row_count": release.dataset.n_rows,
            "columns_used": [*spec.columns, *(() if spec.label is None else (spec.label,))],
        }
        | _declared_encoding(release.dataset.encoding),
        "aggregation_backend": release.aggregation_backend,
        "neighbouring_relation": algorithm.neighbouring(spec),
        "task": spec.kind.value,
        "plan": None if plan is None else plan.to_json(),
        "algorithm": {
            "name": algorithm.name,
            "title": algorithm.title,
            "paper": algorithm.paper,
            "section": algorithm.section,
            "guarantee": algorithm.guarantee_for(spec).value,
            "auto_reason": release.auto_reason,
        },
        "parameters": {
            "domains": {name: _domain(d) for name, d in zip(spec.columns, spec.domains, strict=True)},
            "label": None if spec.label is None else {"column": spec.label, "positive": spec.positive},
            "public_sample": None
            if spec.public is None
            else {"file_name": spec.public.path.name, "sha256": spec.public.sha256}
            | _declared_encoding(spec.public.encoding),
            "missing_values": describe_columns(spec.missing, spec.columns, spec.domains),
            "values_outside_bounds": describe_outside(spec.columns, spec.domains),
            "algorithm_parameters": dict(release.exported_parameters()),
        },
        "epsilon": release.cost.epsilon,
        "delta": release.cost.delta,
        "accountant": ACCOUNTANT,
        "budget_account": release.algorithm.account(spec).value,
        "privacy_curve": algorithm.recorded_curve(spec).to_json(),  # the ledger's, a pure ε as one step
        "budget_before": budget_json(release.budget_before),
        "budget_after": budget_json(release.budget_after),
        "meaning": release.table.meaning or None,
        "notes": list(release.table.notes),
        "outputs": [{"file": name, "sha256": digest} for name, digest in outputs.items()],
    } | _ledger_head(release)


def _declared_encoding(encoding: str | None) -> dict[str, str]:
    """The text encoding the custodian declared for a file (absent for the automatic reading: UTF-8, any
    other byte as Windows-1252)."""
    return {} if encoding is None else {"declared_text_encoding": encoding}


def _ledger_head(release: Release) -> dict[str, Any]:
    """The ledger's chain head before the release's commit, so a ledger cut back to before this release is
    evident from its manifest (absent for a release that was never booked in a ledger)."""
    return {} if release.ledger_head is None else {"ledger_head": release.ledger_head.as_dict()}
