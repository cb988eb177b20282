"""The project file round-trips a TaskSpec exactly and never holds a private value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.fingerprint import sha256_file
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.data.public import PublicSample
from dpgui.release.project import (
    FileRef,
    Project,
    ProjectError,
    ReleaseRecord,
    load_project,
    save_project,
    spec_from_json,
    spec_to_json,
)
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.conftest import holds_canary
from tests.release.test_manifest import released


def round_trip(spec: TaskSpec) -> TaskSpec:
    return spec_from_json(json.loads(json.dumps(spec_to_json(spec))))


def test_a_spec_with_every_kind_of_field_round_trips_exactly():
    spec = TaskSpec(
        TaskKind.RECTANGLE,
        ("age", "colour"),
        (NumericDomain(0.5, 99.5, 0.25, unit="years"), CategoricalDomain(("red", "blue"), other=True)),
        epsilon=0.7,
        delta=1e-7,
        algorithm="some-algorithm",
        missing=MissingPolicy(MissingKind.IMPUTE, 3.0),
        parameters=(("beta", 0.05), ("levels", 7), ("exact", True), ("mode", "fast")),
        label="y",
        positive="yes",
        public=PublicSample(Path("/somewhere/public.csv"), "ab" * 32),
    )
    assert round_trip(spec) == spec
    assert round_trip(spec).domains[0].unit == "years"  # not part of a domain's equality
    failing = TaskSpec(
        TaskKind.MEDIAN, ("w",), NumericDomain(0, 1, 1), 1.0, missing=MissingPolicy(MissingKind.FAIL)
    )
    assert round_trip(failing) == failing
    assert round_trip(failing) != round_trip(spec)  # control: equality is not trivially true


def test_an_older_projects_distance_bins_load_as_its_support():
    """The distance release's support points were saved as ``bins`` (shown in the manifest beside the grid's
    bins, one more than the --bins typed); a project saved then opens with them as ``support``, and the
    same name of another task is left alone."""
    node = spec_to_json(TaskSpec(TaskKind.DISTANCE, ("w",), NumericDomain(0, 1, 1), 1.0))
    node["parameters"] = [["bins", 101], ["metric", "l1"]]
    assert dict(spec_from_json(node).parameters) == {"support": 101, "metric": "l1"}
    node["kind"] = TaskKind.CDF.value
    assert dict(spec_from_json(node).parameters) == {"bins": 101, "metric": "l1"}


def test_a_malformed_spec_is_refused_with_a_project_error():
    node = spec_to_json(TaskSpec(TaskKind.MEDIAN, ("w",), NumericDomain(0, 1, 1), 1.0))
    node["kind"] = "no-such-task"
    with pytest.raises(ProjectError):
        spec_from_json(node)


def test_a_project_file_round_trips_and_holds_no_private_value(wages_csv, tmp_path):
    release, _, _ = released(wages_csv)
    project = Project(
        private=FileRef.of(wages_csv, sha256_file(wages_csv)),
        public=None,
        spec=release.spec,
        releases=(ReleaseRecord.of(release, tmp_path / "export"),),
    )
    path = tmp_path / "session.dpgui.json"
    save_project(project, path)
    loaded = load_project(path)
    assert (loaded.private, loaded.spec, loaded.releases) == (project.private, project.spec, project.releases)
    text = path.read_text(encoding="utf-8")
    assert json.loads(text)["schema_version"] == 1
    assert not holds_canary(text) and holds_canary(wages_csv.read_text())  # control: the canary exists
    assert sha256_file(wages_csv) not in text
    assert loaded.private is not None and loaded.private.matches(sha256_file(wages_csv))


def test_a_file_that_is_not_a_project_is_refused(tmp_path):
    path = tmp_path / "x.dpgui.json"
    path.write_text('{"schema_version": 99}', encoding="utf-8")
    with pytest.raises(ProjectError, match="schema"):
        load_project(path)
    path.write_text("not json", encoding="utf-8")
    with pytest.raises(ProjectError, match="not a project file"):
        load_project(path)
