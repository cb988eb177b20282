"""The app's plan export is refused inside (or over) the folder of the data its releases read.

Red team 18 L4: the plan export skipped the folder checks of a single release's Export. A chosen folder
that is not empty gets a new subfolder, so the data never lands inside the export; but a folder of
Parquet parts chosen as the target received the releases inside the data's folder, to be read as data.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from dpgui.release.batch_export import NamedRelease
from dpgui.ui.main_window import MainWindow
from tests.ui.test_main_window import run_and_wait, set_total


def test_a_plan_is_not_exported_into_its_datas_folder(
    qtbot, window: MainWindow, errors: list[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    set_total(window, 5.0)
    run_and_wait(qtbot, window)
    assert window.release is not None and errors == []
    parts = tmp_path / "parts"  # as if the release had read a folder of Parquet parts
    parts.mkdir()
    (parts / "part-0.parquet").write_bytes(b"PAR1")
    window._release_data[window.release.release_id] = parts
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args: str(parts))
    window.export_plan([NamedRelease("median of wage", window.release)])
    assert errors and "inside the private data folder parts" in errors[0]
    assert sorted(p.name for p in parts.iterdir()) == ["part-0.parquet"]
