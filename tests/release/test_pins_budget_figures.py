"""Pins found by the mutation scan of the export (notes/mutscan_rel17.md): each budget figure and cost the
manifest and report.html state is the one the release carries, in its own place.

The existing tests make one release on a fresh ledger, so "before" and "after" share their total, spent is
basic composition, and the cost equals the spec's request. A mutant that writes "after" for "before", the
basic figure for the accountant's, "remaining" for "spent", or the requested ε for the charged one passed
them all. Here every figure is distinct, so each lands in one place only.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.public import PublicSample
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState, Ledger
from dpgui.privacy.ledger_store import ChainHead
from dpgui.privacy.random import SecureRandom
from dpgui.release.export import export_release
from dpgui.release.manifest import build_manifest
from dpgui.release.release import Release
from dpgui.release.report import build_report
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import TaskKind, TaskSpec

TOTAL = PrivacyCost(4.0, 1e-6)
BEFORE = BudgetState(
    TOTAL, PrivacyCost(1.25, 2e-7), PrivacyCost(0.0625, 1e-8), PrivacyCost(2.75, 8e-7), PrivacyCost(1.5, 2e-7)
)
AFTER = BudgetState(
    TOTAL,
    PrivacyCost(2.125, 3e-7),
    PrivacyCost(0.03125, 5e-9),
    PrivacyCost(1.875, 7e-7),
    PrivacyCost(2.5, 3e-7),
)
"""Distinct everywhere: total, spent (tight), pending, basic, remaining, before and after never share a
value."""


def _released(wages_csv: Path, delta: float = 0.0) -> tuple[Release, Ledger, str]:
    """A median of wage released for real on a fresh ledger with total ε = 3, δ = 1e-6."""
    dataset = open_dataset(wages_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(3.0, 1e-6))
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), NumericDomain(0, 20000, 1), 1.0, delta)
    return run_to_end(execute(spec, dataset, ledger, SecureRandom())), ledger, record.id


def _figures(state: BudgetState) -> dict[str, dict[str, float]]:
    def cost(value: PrivacyCost | None) -> dict[str, float]:
        assert value is not None
        return {"epsilon": value.epsilon, "delta": value.delta}

    return {
        "total": cost(state.total),
        "spent": cost(state.spent),
        "spent_basic_composition": cost(state.spent_basic),
        "pending": cost(state.pending),
        "remaining": cost(state.remaining),
    }


def test_the_manifest_states_the_budget_before_and_after_each_in_its_place(wages_csv: Path) -> None:
    """Figures: manifest.json's budget_before and budget_after (total, accountant's spent, basic spent,
    remaining). Kills budget_before <- budget_after, and spent <-> spent_basic in budget_json, which the
    one-release tests cannot tell apart."""
    release, _, _ = _released(wages_csv)
    release = dataclasses.replace(release, budget_before=BEFORE, budget_after=AFTER)
    manifest = build_manifest(release, {})
    assert manifest["budget_before"] == _figures(BEFORE)
    assert manifest["budget_after"] == _figures(AFTER)


def test_the_manifest_states_the_cost_charged_not_the_cost_asked(wages_csv: Path) -> None:
    """Figure: the manifest's ε and δ are the release's charged cost, as the ledger booked it. A pure
    algorithm asked with δ > 0 (the median here) is charged δ = 0; a planned one (SanThresholds) is charged
    less than the ε asked. Kills "epsilon"/"delta" read from release.spec instead of release.cost."""
    release, ledger, dataset_id = _released(wages_csv, delta=1e-6)
    (entry,) = ledger.entries(dataset_id)
    assert release.spec.delta == 1e-6 and entry.cost == PrivacyCost(1.0, 0.0)  # the premise
    manifest = build_manifest(release, {})
    assert (manifest["epsilon"], manifest["delta"]) == (1.0, 0.0)
    cheaper = dataclasses.replace(release, cost=PrivacyCost(0.75, 0.0))
    assert build_manifest(cheaper, {})["epsilon"] == 0.75


def test_the_report_states_the_budget_before_and_after_in_the_right_columns(wages_csv: Path) -> None:
    """Figures: report.html's budget table, rows "before" and "after", columns total, spent, remaining.
    Kills the swap of the spent and remaining columns, spent shown as basic composition, and "before" and
    "after" swapped or both showing "before"."""
    release, _, _ = _released(wages_csv)
    release = dataclasses.replace(release, budget_before=BEFORE, budget_after=AFTER)
    text = build_report(release).decode("utf-8")
    cells = re.findall(
        r"<tr><td>(before|after)</td><td>([^<]*)</td><td>([^<]*)</td><td>([^<]*)</td></tr>", text
    )
    one = "(all releases as one guarantee)"  # budget_words, as the CLI and the Budget page say it
    assert cells == [
        (
            "before",
            "ε = 4, δ = 1e-06",
            f"ε = 1.25 at δ = 2e-07 {one}",
            "ε = 2.75; δ not yet booked: 8e-07 of 1e-06 (after ε = 0.0625, δ = 1e-08 reserved for the rest "
            "of a plan)",
        ),
        (
            "after",
            "ε = 4, δ = 1e-06",
            f"ε = 2.125 at δ = 3e-07 {one}",
            "ε = 1.875; δ not yet booked: 7e-07 of 1e-06 (after ε = 0.03125, δ = 5e-09 reserved for the rest "
            "of a plan)",
        ),
    ]


def test_the_report_holds_the_plots_it_was_given(wages_csv: Path, tmp_path: Path) -> None:
    """Rule: export_release passes the caller's plots into report.html (the app draws them; the report is
    the custodian's human-readable record). Kills build_report(release, None) in export_release."""
    release, _, _ = _released(wages_csv)
    export_release(release, tmp_path, {"Released CDF": b"\x89PNG\r\n\x1a\nplot-bytes"})
    text = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "<figcaption>Released CDF</figcaption>" in text
    assert "iVBORw0KGgpwbG90LWJ5dGVz" in text  # base64 of the PNG bytes above


def test_the_manifest_is_the_last_file_exported(wages_csv: Path, tmp_path: Path) -> None:
    """Rule: the manifest, which fingerprints every other file, is written and listed last, so publish moves
    it into --out last and a folder holding a manifest holds the files it names. Kills ExportedFiles built
    with the manifest first."""
    release, _, _ = _released(wages_csv)
    exported = export_release(release, tmp_path)
    assert [path.name for path in exported.files] == ["release.csv", "report.html", "manifest.json"]
    listed = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))["outputs"]
    assert [entry["file"] for entry in listed] == ["release.csv", "report.html"]


def test_the_label_and_public_sample_are_stated_in_manifest_and_report(wages_csv: Path) -> None:
    """Fields: a learning task's label column and positive class, and the public sample by file name and
    SHA-256, in the manifest and in the report's parameter table. Kills the positive class dropped from the
    manifest, and the report's label and public-sample rows dropped."""
    release, _, _ = _released(wages_csv)
    sample = PublicSample(Path("/custodian/folders/public.csv"), "ab" * 32)
    spec = dataclasses.replace(release.spec, label="education", positive="12", public=sample)
    release = dataclasses.replace(release, spec=spec)
    parameters = build_manifest(release, {})["parameters"]
    assert parameters["label"] == {"column": "education", "positive": "12"}
    assert parameters["public_sample"] == {"file_name": "public.csv", "sha256": "ab" * 32}
    text = build_report(release).decode("utf-8")
    assert "<tr><th>label</th><td>education (positive: 12)</td></tr>" in text
    assert f"<tr><th>public sample</th><td>public.csv (SHA-256 {'ab' * 32})</td></tr>" in text
    assert "/custodian/folders" not in text


def test_the_reports_guarantee_states_the_charged_cost_and_its_odds(wages_csv: Path) -> None:
    """Figure: report.html's guarantee sentence, ε and the odds ×e^ε, from the charged cost (here ε = 0.75
    charged for ε = 1 asked, as a planned algorithm may). Kills the sentence's cost, or its odds, taken from
    the spec."""
    release, _, _ = _released(wages_csv)
    cheaper = dataclasses.replace(release, cost=PrivacyCost(0.75, 0.0))
    text = build_report(cheaper).decode("utf-8")
    assert "pure ε-differential privacy with ε = 0.75." in text
    assert "×e^ε = ×2.12," in text  # e^0.75 = 2.117; e^1 would read ×2.72


def test_the_manifest_records_the_release_s_ledger_head(wages_csv: Path, tmp_path: Path) -> None:
    """Field: manifest.json's ledger_head, the chain head at the release's commit. It is what makes a ledger
    cut back to before this release evident from the manifest. Kills it written empty."""
    release, _, _ = _released(wages_csv)
    head = ChainHead(7, "c0ffee" * 10 + "beef")
    export_release(dataclasses.replace(release, ledger_head=head), tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["ledger_head"] == {"seq": 7, "hash": head.hash}
