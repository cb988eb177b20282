"""Exports hold DP outputs only; the manifest has the required fields and its cost equals the ledger's."""

from __future__ import annotations

import dataclasses
import hashlib
import json

import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.fingerprint import keyed_fingerprint, sha256_file
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SecureRandom, SeededRandom
from dpgui.release.export import export_release
from dpgui.release.manifest import FORBIDDEN_KEYS, ForbiddenKeyError, forbidden_keys
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import TaskKind, TaskSpec

REQUIRED = {
    "schema_version", "created", "application", "dataset", "neighbouring_relation", "task", "algorithm",
    "parameters", "epsilon", "delta", "accountant", "budget_before", "budget_after", "outputs",
}  # fmt: skip


def median_spec(epsilon: float = 1.0) -> TaskSpec:
    return TaskSpec(TaskKind.MEDIAN, ("wage",), NumericDomain(0, 20000, 1), epsilon)


def released(wages_csv, rng=None):
    dataset = open_dataset(wages_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(3.0))
    return run_to_end(execute(median_spec(), dataset, ledger, rng or SecureRandom())), ledger, record


def all_keys(node) -> set[str]:
    if isinstance(node, dict):
        return set(node) | {k for value in node.values() for k in all_keys(value)}
    if isinstance(node, list):
        return {k for value in node for k in all_keys(value)}
    return set()


def test_manifest_has_every_required_field_and_no_forbidden_one(wages_csv, tmp_path):
    release, _, _ = released(wages_csv)
    export_release(release, tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest.keys() >= REQUIRED
    assert not all_keys(manifest) & FORBIDDEN_KEYS
    assert manifest["dataset"]["fingerprint"] == keyed_fingerprint(sha256_file(wages_csv))
    assert manifest["created"].endswith("Z")


def test_manifest_cost_equals_what_the_ledger_charged(wages_csv, tmp_path):
    release, ledger, record = released(wages_csv)
    export_release(release, tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    committed = [e for e in ledger.entries(record.id) if e.release_id == release.release_id]
    assert len(committed) == 1
    assert (manifest["epsilon"], manifest["delta"]) == (committed[0].cost.epsilon, committed[0].cost.delta)
    assert manifest["budget_after"]["spent"]["epsilon"] == pytest.approx(
        ledger.state(record.id).spent.epsilon
    )


def test_outputs_are_fingerprinted(wages_csv, tmp_path):
    release, _, _ = released(wages_csv)
    export_release(release, tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert {entry["file"] for entry in manifest["outputs"]} == {"release.csv", "report.html"}
    for entry in manifest["outputs"]:
        assert entry["sha256"] == hashlib.sha256((tmp_path / entry["file"]).read_bytes()).hexdigest()


def test_a_seeded_release_is_marked_not_private_and_the_seed_is_nowhere(wages_csv, tmp_path):
    seed = 918273645
    release, _, _ = released(wages_csv, SeededRandom(seed))
    export_release(release, tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["private"] is False and "NOT PRIVATE" in manifest["randomness"]
    for exported in tmp_path.iterdir():
        assert str(seed).encode() not in exported.read_bytes()


def test_manifest_and_report_list_only_the_chosen_algorithms_parameters(wages_csv, tmp_path):
    """A parameter the spec carries for another algorithm of the task had no effect: it is not listed."""
    release, _, _ = released(wages_csv)
    taken = {parameter.name for parameter in release.algorithm.parameters}
    assert "branching" not in taken
    spec = dataclasses.replace(release.spec, parameters=(*release.spec.parameters, ("branching", 7)))
    carried = dataclasses.replace(release, spec=spec)
    export_release(carried, tmp_path)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    listed = manifest["parameters"]["algorithm_parameters"]
    assert "branching" not in listed and set(listed) <= taken
    assert "branching" not in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_a_manifest_that_would_state_a_seed_is_refused_before_any_file_is_written(
    wages_csv, tmp_path, monkeypatch
):
    release, _, _ = released(wages_csv)
    monkeypatch.setattr(type(release), "exported_parameters", lambda self: [("seed", 12345)])
    with pytest.raises(ForbiddenKeyError, match="seed"):
        export_release(release, tmp_path / "out")
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_column_named_like_a_forbidden_key_exports(tmp_path):
    private = tmp_path / "private.csv"
    private.write_text("max\n" + "\n".join(str(v) for v in range(1, 40)) + "\n")
    dataset = open_dataset(private)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(3.0))
    spec = TaskSpec(TaskKind.MEDIAN, ("max",), NumericDomain(0, 100, 1), 1.0)
    release = run_to_end(execute(spec, dataset, ledger, SecureRandom()))
    export_release(release, tmp_path / "out")
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert "max" in manifest["parameters"]["domains"]
    assert forbidden_keys({"parameters": {"domains": {"max": {"lower": 0}}, "notes": [{"mean": 1}]}}) == {
        "mean"
    }
