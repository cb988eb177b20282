"""Pins found by the mutation scan of the project file (dpgui/release/project.py, notes/mutscan_rel17.md): the
releases a session remembers, and projects saved before keyed fingerprints.

test_project.py round-trips a record through save and load, which a record built with ε and δ swapped, or
with the spec's ε, also does. No test opened a project of the older format, whose raw SHA-256 is keyed on
reading.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.fingerprint import keyed_fingerprint, sha256_file
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SecureRandom
from dpgui.release.project import FileRef, Project, ProjectError, ReleaseRecord, load_project, save_project
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import TaskKind, TaskSpec


def test_a_release_record_holds_the_charged_epsilon_and_delta(wages_csv: Path) -> None:
    """Figures: the session's list of releases (the project file's "releases") holds each release's charged
    ε and δ, each in its own field. Kills the two swapped and ε taken from the spec (a planned algorithm may
    charge less than it was asked)."""
    dataset = open_dataset(wages_csv)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(3.0, 1e-6))
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), NumericDomain(0, 20000, 1), 1.0)
    release = run_to_end(execute(spec, dataset, ledger, SecureRandom()))
    charged = dataclasses.replace(release, cost=PrivacyCost(0.75, 2e-7))
    remembered = ReleaseRecord.of(charged, Path("exports/first"))
    assert (remembered.epsilon, remembered.delta) == (0.75, 2e-7)
    assert remembered.export_folder == "exports/first"


def test_a_project_saved_with_a_raw_sha256_is_keyed_on_reading(wages_csv: Path, tmp_path: Path) -> None:
    """Rule: a project saved before keyed fingerprints names its files by raw SHA-256; reading it keys that
    hash, so the file still matches and saving it again writes no raw SHA-256 (a noiseless function of every
    record). Kills the raw hash kept as if it were the keyed fingerprint."""
    raw = sha256_file(wages_csv)
    old = {
        "schema_version": 1,
        "saved": "2025-01-01T00:00:00+00:00",
        "private": {"path": str(wages_csv), "sha256": raw},
        "public": None,
        "spec": None,
        "releases": [],
    }
    path = tmp_path / "old.dpgui.json"
    path.write_text(json.dumps(old), encoding="utf-8")
    loaded = load_project(path)
    assert loaded.private == FileRef(wages_csv, keyed_fingerprint(raw))
    assert loaded.private.matches(raw)
    save_project(loaded, path)
    assert raw not in path.read_text(encoding="utf-8")


def test_a_file_matches_only_on_its_whole_keyed_fingerprint(wages_csv: Path) -> None:
    """Rule: a reopened file is the project's only if its whole keyed fingerprint is equal. Kills a
    comparison of a prefix."""
    raw = sha256_file(wages_csv)
    keyed = keyed_fingerprint(raw)
    assert FileRef(wages_csv, keyed).matches(raw)
    tail_changed = keyed[:-1] + ("0" if keyed[-1] != "0" else "1")
    assert not FileRef(wages_csv, tail_changed).matches(raw)


def test_a_project_is_saved_with_its_time_and_a_malformed_one_is_refused(tmp_path: Path) -> None:
    """Rules: a project saved without a time gets the current one (a kept one stays); a project file of the
    right schema with a missing key is refused with a ProjectError naming it, not read as nothing. Kills
    ``or`` -> ``and`` for "saved" and the ProjectError's raise removed."""
    path = tmp_path / "session.dpgui.json"
    save_project(Project(None, None, None), path)
    saved = json.loads(path.read_text(encoding="utf-8"))["saved"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d", saved)
    save_project(Project(None, None, None, saved="2025-01-01T00:00:00+00:00"), path)
    assert json.loads(path.read_text(encoding="utf-8"))["saved"] == "2025-01-01T00:00:00+00:00"
    node = json.loads(path.read_text(encoding="utf-8"))
    del node["releases"]
    path.write_text(json.dumps(node), encoding="utf-8")
    with pytest.raises(ProjectError, match=re.escape("session.dpgui.json is malformed: 'releases'")):
        load_project(path)
