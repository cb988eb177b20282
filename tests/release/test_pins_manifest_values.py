"""Pins found by the mutation scan of the manifest (dpgui/release/manifest.py, notes/mutscan_rel17.md): the
values of fields that test_pins_manifest_fields.py checks by key only, or for a numeric column only.

A categorical column's declared categories or its 'other' flag dropped, the application's name or version
dropped, and the schema version changed, all passed the existing tests.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from dpgui import APP_NAME, __version__
from dpgui.data.domain import CategoricalDomain
from dpgui.release.manifest import build_manifest
from tests.release.test_pins_export_files import _released


def test_a_categorical_columns_declared_domain_is_stated_whole(wages_csv: Path) -> None:
    """Field: parameters.domains of a categorical column, its declared categories in order and whether
    values outside them count as 'other' (which changes what each released count means). Kills either
    key dropped from manifest._domain's categorical branch."""
    release = _released(wages_csv)
    spec = dataclasses.replace(
        release.spec,
        columns=("region", "kind"),
        domains=(CategoricalDomain(("north", "south"), other=True), CategoricalDomain(("a", "b", "c"))),
    )
    domains = build_manifest(dataclasses.replace(release, spec=spec), {})["parameters"]["domains"]
    assert domains == {
        "region": {"categories": ["north", "south"], "other": True},
        "kind": {"categories": ["a", "b", "c"], "other": False},
    }


def test_the_manifest_names_the_application_and_its_schema(wages_csv: Path) -> None:
    """Fields: schema_version 1 (what a reader of manifests dispatches on) and the application's name and
    version (which code made the release). Kills the version changed and either application key dropped."""
    manifest = build_manifest(_released(wages_csv), {})
    assert manifest["schema_version"] == 1
    assert manifest["application"] == {"name": APP_NAME, "version": __version__}
