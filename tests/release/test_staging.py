"""The out folder's earlier release: every file it wrote is found, so --overwrite leaves none of them."""

from __future__ import annotations

import json
from pathlib import Path

from dpgui.release.staging import earlier_release, prepare_out


def test_an_earlier_releases_attachments_are_found_from_its_manifest(tmp_path: Path) -> None:
    """Attachments (a synthetic table's files) have names no list knows: the earlier manifest's outputs
    name them, so --overwrite replaces them instead of leaving them beside the new release. A file the
    manifest does not list, and a listed name with a folder in it, are left alone."""
    out = tmp_path / "out"
    out.mkdir()
    outputs = [{"file": "synthetic.csv"}, {"file": "release.csv"}, {"file": "sub/escape.csv"}]
    (out / "manifest.json").write_text(json.dumps({"outputs": outputs}), encoding="utf-8")
    for name in ("synthetic.csv", "release.csv", "notes.txt"):
        (out / name).write_text("x", encoding="utf-8")
    expected = {"manifest.json", "synthetic.csv", "release.csv"}
    assert {path.name for path in earlier_release(out)} == expected
    checked = prepare_out(out, overwrite=True)
    assert {path.name for path in checked.earlier} == expected
