"""The app's kept copy of a release (dpgui/release/kept.py): written whole, or not left at all."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.release import kept
from dpgui.release.release import Release
from tests.release.test_pins_export_files import _released


def test_a_copy_whose_writing_fails_leaves_no_half_written_folder(
    wages_csv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = _released(wages_csv)

    def fail_after_one_file(release: Release, folder: Path) -> None:
        (folder / "release.csv").write_text("written before the disk filled\n", encoding="utf-8")
        raise OSError("No space left on device")

    monkeypatch.setattr(kept, "export_release", fail_after_one_file)
    said = kept.keep(release)
    assert said == "shown in the app; no copy kept (No space left on device)"
    assert not kept.kept_folder(release.release_id).exists()  # no copy that looks kept but is not whole
