"""Pins found by the mutation scan of the out folder's staging (dpgui/release/staging.py,
notes/mutscan_rel17.md): what the pre-flight refuses before the charge, what --overwrite may remove, and the
order publish moves files in.

A disk-space check without its 1 MiB margin or without the predicted size, a probe of only one of the two
folders, an earlier manifest's output with a folder in its name taken for a file to remove, and the manifest
moved into --out first, all passed the existing tests.
"""

from __future__ import annotations

import json
from collections import namedtuple
from pathlib import Path

import pytest

from dpgui.release import staging
from dpgui.release.export import ExportedFiles
from dpgui.release.staging import OutFolderError, earlier_release, prepare_out, publish

MIB = 1 << 20
Usage = namedtuple("Usage", "total used free")


def _with_free_space(monkeypatch: pytest.MonkeyPatch, free: int) -> None:
    monkeypatch.setattr(staging.shutil, "disk_usage", lambda path: Usage(1 << 40, 0, free))


def test_the_free_space_must_hold_the_predicted_exports_and_a_spare_mebibyte(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: --out is refused before the charge unless its disk holds the predicted exports plus 1 MiB;
    with exactly that much it is taken. Kills the margin dropped, the predicted size dropped, `<=` for `<`
    and the margin's constant changed."""
    needed = 5 * MIB
    _with_free_space(monkeypatch, needed + MIB - 1)
    with pytest.raises(OutFolderError, match="MiB free"):
        prepare_out(tmp_path / "short", needed_bytes=needed)
    assert not (tmp_path / "short").exists()  # made for this run, removed again
    _with_free_space(monkeypatch, needed + MIB)
    checked = prepare_out(tmp_path / "enough", needed_bytes=needed)
    assert checked.target.is_dir() and checked.staging.is_dir()


def test_both_the_staging_folder_and_out_are_probed_with_the_exporters_writer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: the pre-flight writes a probe through export.write_atomic in the staging folder (where the
    exports are written) and in --out (where publish moves them), so a folder that cannot take the files is
    refused before the charge, not after. Kills either folder left out of the probe."""
    probed: list[Path] = []
    write_atomic = staging.export.write_atomic

    def spy(path: Path, data: bytes) -> None:
        probed.append(path.parent)
        write_atomic(path, data)

    monkeypatch.setattr(staging.export, "write_atomic", spy)
    checked = prepare_out(tmp_path / "out")
    assert probed == [checked.staging, checked.target]


def test_an_earlier_manifest_cannot_name_a_file_outside_out_for_removal(tmp_path: Path) -> None:
    """Rule: --overwrite removes the earlier release's files in --out only. A manifest (which anyone can
    edit) that lists a name with a folder in it does not make publish delete that file, even when it exists.
    Kills the `"/" not in name` filter removed (test_staging.py's listed file does not exist)."""
    out = tmp_path / "out"
    (out / "sub").mkdir(parents=True)
    outside = tmp_path / "precious.csv"
    outside.write_text("keep me", encoding="utf-8")
    (out / "sub" / "escape.csv").write_text("keep me too", encoding="utf-8")
    outputs = [{"file": "release.csv"}, {"file": "sub/escape.csv"}, {"file": "../precious.csv"}]
    (out / "manifest.json").write_text(json.dumps({"outputs": outputs}), encoding="utf-8")
    (out / "release.csv").write_text("x", encoding="utf-8")
    assert {path.name for path in earlier_release(out)} == {"manifest.json", "release.csv"}


def test_publish_moves_the_manifest_last(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule: publish moves the staged files into --out with the manifest last, so a folder that holds a
    manifest holds every file it fingerprints (an interrupted publish leaves no manifest naming missing
    files). Kills the files moved in reverse."""
    checked = prepare_out(tmp_path / "out")
    names = ("release.csv", "report.html", "manifest.json")
    for name in names:
        (checked.staging / name).write_text(name, encoding="utf-8")
    moved: list[str] = []
    move = staging._move

    def spy(source: Path, destination: Path) -> None:
        moved.append(destination.name)
        move(source, destination)

    monkeypatch.setattr(staging, "_move", spy)
    published = publish(checked, ExportedFiles(checked.staging, tuple(checked.staging / n for n in names)))
    assert moved == list(names)
    assert [path.name for path in published.files] == list(names)
    assert not checked.staging.exists()


def test_out_is_created_with_its_missing_parents_and_removed_only_if_made_for_the_run(tmp_path: Path) -> None:
    """Rule: --out and any missing parents are created by the pre-flight; a run that does not happen removes
    --out again only if the pre-flight made it, never a folder the custodian made. Kills ``out.mkdir``
    removed (the staging folder beside a missing parent then cannot be made) and ``created = True``."""
    nested = tmp_path / "new" / "deeper" / "out"
    made = prepare_out(nested)
    assert made.created and nested.is_dir()
    staging.discard(made)
    assert not nested.exists() and not made.staging.exists()
    mine = tmp_path / "mine"
    mine.mkdir()
    kept = prepare_out(mine)
    assert not kept.created
    staging.discard(kept)
    assert mine.is_dir()


def test_a_garbled_earlier_manifest_is_read_for_what_it_names_and_never_crashes(tmp_path: Path) -> None:
    """Rule: an earlier manifest whose outputs are not objects with a "file" is ignored entry by entry, so
    the pre-flight still answers (an earlier release to replace) instead of failing with a TypeError.
    Kills ``and`` -> ``or`` in the entry filter."""
    out = tmp_path / "out"
    out.mkdir()
    outputs = ["profile.csv", 3, {"no": "file"}, {"file": "synthetic.csv"}]
    (out / "manifest.json").write_text(json.dumps({"outputs": outputs}), encoding="utf-8")
    for name in ("profile.csv", "synthetic.csv"):
        (out / name).write_text("x", encoding="utf-8")
    assert {path.name for path in earlier_release(out)} == {"manifest.json", "synthetic.csv"}


def test_each_pre_flight_gets_its_own_staging_folder(tmp_path: Path) -> None:
    """Rule: a staging folder is new for each run (a random suffix), so one left behind by a publish that
    failed (PublishFailed keeps the files there) or held by another run does not refuse the next release
    into the same --out. Kills a fixed suffix."""
    out = tmp_path / "out"
    first = prepare_out(out)
    second = prepare_out(out)
    assert first.staging != second.staging
    assert first.staging.is_dir() and second.staging.is_dir()
