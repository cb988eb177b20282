"""Pins found by the mutation scan of the export: every field the manifest documents is written, with the
values the release states, and release.csv holds the released rows under their header.

Kills the one-line mutants that drop a key of build_manifest / budget_json / _domain (manifest.py), and
export.py table_csv's `writer.writerow(table.columns)` / `writer.writerows(table.rows)` -> `pass`.
"""

from __future__ import annotations

import csv
import json

import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.fingerprint import METHOD
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SecureRandom
from dpgui.release.export import export_release
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import TaskKind, TaskSpec

DOMAIN = NumericDomain(0, 20000, 1, unit="USD")


def _exported(wages_csv, tmp_path):
    dataset = open_dataset(wages_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(3.0))
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), DOMAIN, 1.0)
    release = run_to_end(execute(spec, dataset, ledger, SecureRandom()))
    export_release(release, tmp_path)
    return release, json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))


def test_the_manifest_states_every_documented_field(wages_csv, tmp_path):
    release, manifest = _exported(wages_csv, tmp_path)
    spec, algorithm = release.spec, release.algorithm
    assert set(manifest) == {
        "schema_version", "release_id", "created", "application", "private", "randomness", "dataset",
        "aggregation_backend", "neighbouring_relation", "task", "plan", "algorithm", "parameters", "epsilon",
        "delta", "accountant", "budget_account", "privacy_curve", "budget_before", "budget_after", "meaning",
        "notes", "outputs", "ledger_head",
    }  # fmt: skip
    assert manifest["plan"] is None  # a release of its own
    assert manifest["release_id"] == release.release_id
    assert release.ledger_head is not None  # the app's exports tie to the ledger too, not only the CLI's
    assert manifest["ledger_head"] == {"seq": release.ledger_head.seq, "hash": release.ledger_head.hash}
    assert manifest["aggregation_backend"] == release.aggregation_backend
    assert manifest["budget_account"] == algorithm.account(spec).value
    assert manifest["neighbouring_relation"] == algorithm.neighbouring(spec)
    assert manifest["dataset"] == {
        "file_name": release.dataset.file_name,
        "fingerprint": release.dataset.fingerprint,
        "fingerprint_method": METHOD,
        "row_count": release.dataset.n_rows,
        "columns_used": ["wage"],
    }
    stated = manifest["algorithm"]
    assert set(stated) == {"name", "title", "paper", "section", "guarantee", "auto_reason"}
    assert all(stated[key] == getattr(algorithm, key) for key in ("name", "title", "paper", "section"))
    assert (stated["guarantee"], stated["auto_reason"]) == (
        algorithm.guarantee_for(spec).value,
        release.auto_reason,
    )
    parameters = manifest["parameters"]
    assert set(parameters) == {
        "domains", "label", "public_sample", "missing_values",
        "values_outside_bounds", "algorithm_parameters",
    }  # fmt: skip
    assert parameters["domains"] == {
        "wage": {"lower": 0, "upper": 20000, "granularity": 1, "grid_points": 20001, "unit": "USD"}
    }
    assert parameters["values_outside_bounds"] == "clipped to the declared bounds"
    assert "missing values" in parameters["missing_values"]
    for moment in ("budget_before", "budget_after"):
        assert set(manifest[moment]) == {"total", "spent", "spent_basic_composition", "pending", "remaining"}
        assert manifest[moment]["total"] == {"epsilon": 3.0, "delta": 0.0}
    after = manifest["budget_after"]
    assert "remaining δ is the total's less the δ the releases booked" in manifest["accountant"]
    assert after["remaining"]["epsilon"] == pytest.approx(3.0 - after["spent"]["epsilon"])
    assert after["spent_basic_composition"]["epsilon"] == pytest.approx(1.0)
    assert manifest["privacy_curve"] == algorithm.recorded_curve(spec).to_json()  # as the ledger records it
    assert manifest["meaning"] == (release.table.meaning or None)
    assert manifest["notes"] == list(release.table.notes)


def test_release_csv_holds_the_header_and_every_released_row(wages_csv, tmp_path):
    release, _ = _exported(wages_csv, tmp_path)
    text = (tmp_path / "release.csv").read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    rows = list(csv.reader(lines))
    assert rows[0] == list(release.table.columns)
    assert len(rows) == 1 + len(release.table.rows) and len(release.table.rows) >= 1
    if release.table.meaning:
        assert text.startswith(f"# {release.table.meaning}\n")
