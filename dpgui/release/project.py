"""The project file: a session saved as schema-versioned JSON, never holding a private row.

It names the private file and the public sample by path and keyed fingerprint (so a reopened file whose
bytes changed is noticed; never the raw SHA-256 of the private file, see dpgui.data.fingerprint), the
current :class:`TaskSpec` (public by construction: declared domains, parameters, ε and δ) and the releases
made in the session (their ids, costs and export folders; the released values stay in the exported
folders).
"""

from __future__ import annotations

import hmac
import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.fingerprint import keyed_fingerprint
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.data.public import PublicSample
from dpgui.release.export import write_atomic
from dpgui.release.release import Release
from dpgui.release.utf8 import utf8
from dpgui.tasks.spec import Domain, TaskKind, TaskSpec

PROJECT_SCHEMA_VERSION = 1
PROJECT_SUFFIX = ".dpgui.json"


class ProjectError(ValueError):
    """A project file that cannot be read (not JSON, another schema version, a malformed spec)."""


@dataclass(frozen=True)
class FileRef:
    """A data file by path, the keyed fingerprint of its bytes when the project was saved, and the text
    encoding declared for it (None: the automatic reading)."""

    path: Path
    fingerprint: str
    encoding: str | None = None

    @classmethod
    def of(cls, path: Path, sha256: str, encoding: str | None = None) -> FileRef:
        return cls(path, keyed_fingerprint(sha256), encoding)

    def matches(self, sha256: str) -> bool:
        """Whether a file with this SHA-256 is the one the project was saved with."""
        return hmac.compare_digest(self.fingerprint, keyed_fingerprint(sha256))


@dataclass(frozen=True)
class ReleaseRecord:
    """What the project remembers of a release: public facts only."""

    release_id: str
    created: str
    task: str
    algorithm: str
    epsilon: float
    delta: float
    export_folder: str | None = None

    @classmethod
    def of(cls, release: Release, export_folder: Path | None = None) -> ReleaseRecord:
        created = release.created.isoformat(timespec="seconds").replace("+00:00", "Z")
        folder = None if export_folder is None else str(export_folder)
        return cls(
            release.release_id,
            created,
            release.spec.kind.value,
            release.algorithm.name,
            release.cost.epsilon,
            release.cost.delta,
            folder,
        )


@dataclass(frozen=True)
class Project:
    private: FileRef | None
    public: FileRef | None
    spec: TaskSpec | None
    releases: tuple[ReleaseRecord, ...] = ()
    saved: str = ""


def _domain_to_json(domain: Domain) -> dict[str, Any]:
    if isinstance(domain, CategoricalDomain):
        return {"type": "categorical", "categories": list(domain.categories), "other": domain.other}
    return {
        "type": "numeric",
        "lower": domain.lower,
        "upper": domain.upper,
        "granularity": domain.granularity,
        "unit": domain.unit,
        "binned": domain.binned,
    }


def _domain_from_json(node: dict[str, Any]) -> Domain:
    if node["type"] == "categorical":
        return CategoricalDomain(tuple(node["categories"]), bool(node["other"]))
    return NumericDomain(
        node["lower"],
        node["upper"],
        node["granularity"],
        unit=node.get("unit", ""),
        binned=bool(node.get("binned", False)),
    )


def spec_to_json(spec: TaskSpec) -> dict[str, Any]:
    """A JSON-able dict of ``spec`` (the public sample by path and SHA-256); spec_from_json inverts it."""
    return {
        "kind": spec.kind.value,
        "columns": list(spec.columns),
        "domains": [_domain_to_json(domain) for domain in spec.domains],
        "epsilon": spec.epsilon,
        "delta": spec.delta,
        "algorithm": spec.algorithm,
        "missing": {"kind": spec.missing.kind.value, "fill_value": spec.missing.fill_value},
        "parameters": [[name, value] for name, value in spec.parameters],
        "label": spec.label,
        "positive": spec.positive,
        "public": None
        if spec.public is None
        else {"path": str(spec.public.path), "sha256": spec.public.sha256, "encoding": spec.public.encoding},
    }


RENAMED_PARAMETERS = {(TaskKind.DISTANCE.value, "bins"): "support"}
"""Parameters saved under an earlier name by older projects (the distance release's support points were
``bins``, which the manifest then showed beside the grid's bins)."""


def spec_from_json(node: dict[str, Any]) -> TaskSpec:
    """The :class:`TaskSpec` written by :func:`spec_to_json` (raises ProjectError when malformed)."""
    try:
        public = node["public"]
        kind = node["kind"]
        return TaskSpec(
            kind=TaskKind(kind),
            columns=tuple(node["columns"]),
            domains=tuple(_domain_from_json(domain) for domain in node["domains"]),
            epsilon=node["epsilon"],
            delta=node["delta"],
            algorithm=node["algorithm"],
            missing=MissingPolicy(MissingKind(node["missing"]["kind"]), node["missing"]["fill_value"]),
            parameters=tuple(
                (RENAMED_PARAMETERS.get((kind, name), name), value) for name, value in node["parameters"]
            ),
            label=node["label"],
            positive=node["positive"],
            public=None
            if public is None
            else PublicSample(Path(public["path"]), public["sha256"], public.get("encoding")),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ProjectError(f"the project's task is malformed: {error}") from error


def _ref_to_json(ref: FileRef | None) -> dict[str, str | None] | None:
    return (
        None
        if ref is None
        else {"path": str(ref.path), "fingerprint": ref.fingerprint, "encoding": ref.encoding}
    )


def _ref_from_json(node: dict[str, str] | None) -> FileRef | None:
    """A file reference; projects saved before keyed fingerprints hold the raw SHA-256, keyed here, and
    those saved before declared encodings read their files automatically."""
    if node is None:
        return None
    if "fingerprint" in node:
        return FileRef(Path(node["path"]), node["fingerprint"], node.get("encoding"))
    return FileRef.of(Path(node["path"]), node["sha256"], node.get("encoding"))


def project_to_json(project: Project) -> dict[str, Any]:
    return {
        "schema_version": PROJECT_SCHEMA_VERSION,
        "saved": project.saved or datetime.now().astimezone().isoformat(timespec="seconds"),
        "private": _ref_to_json(project.private),
        "public": _ref_to_json(project.public),
        "spec": None if project.spec is None else spec_to_json(project.spec),
        "releases": [record.__dict__ for record in project.releases],
    }


def save_project(project: Project, path: Path) -> None:
    """Write the project atomically as JSON."""
    text = json.dumps(project_to_json(project), indent=2, ensure_ascii=False) + "\n"
    write_atomic(Path(path), utf8(text))


def load_project(path: Path) -> Project:
    """Read a project file (raises ProjectError, or OSError when it cannot be read)."""
    try:
        node = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise ProjectError(f"{Path(path).name} is not a project file: {error}") from error
    if not isinstance(node, dict) or node.get("schema_version") != PROJECT_SCHEMA_VERSION:
        raise ProjectError(f"{Path(path).name} is not a project file of schema {PROJECT_SCHEMA_VERSION}")
    try:
        return Project(
            private=_ref_from_json(node["private"]),
            public=_ref_from_json(node["public"]),
            spec=None if node["spec"] is None else spec_from_json(node["spec"]),
            releases=tuple(ReleaseRecord(**record) for record in node["releases"]),
            saved=node["saved"],
        )
    except (KeyError, TypeError) as error:
        raise ProjectError(f"{Path(path).name} is malformed: {error}") from error
