"""The out folder's earlier release: every file it wrote is found, so --overwrite leaves none of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.release.export import ExportedFiles
from dpgui.release.staging import PublishFailed, earlier_release, prepare_out, publish


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


def test_replacing_an_earlier_release_removes_its_manifest_before_its_other_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A replacement stopped part-way (a crash, a file that cannot be removed) must not leave the earlier
    manifest beside only some of the files it lists: the manifest is what says a release is complete.
    An earlier distance release names ``distance_structure.json``, which sorts before ``manifest.json``."""
    out = tmp_path / "out"
    out.mkdir()
    earlier = ["distance_structure.json", "release.csv"]
    (out / "manifest.json").write_text(json.dumps({"outputs": [{"file": n} for n in earlier]}), "utf-8")
    for name in earlier:
        (out / name).write_text("earlier", encoding="utf-8")
    checked = prepare_out(out, overwrite=True)
    new = checked.staging / "release.csv"
    new.write_text("new", encoding="utf-8")
    real_unlink = Path.unlink

    def one_removal_then_a_crash(path: Path, missing_ok: bool = False) -> None:
        if path.parent == out and any(p.name != "manifest.json" and not p.exists() for p in checked.earlier):
            raise OSError(5, "Input/output error")
        real_unlink(path, missing_ok=missing_ok)

    monkeypatch.setattr(Path, "unlink", one_removal_then_a_crash)
    with pytest.raises(PublishFailed):
        publish(checked, ExportedFiles(checked.staging, (new,)))
    left = {path.name for path in out.iterdir()}
    assert "manifest.json" not in left or set(earlier) <= left, left
