"""Opening a project keeps this session's releases in the Review page's list, so each can still be exported.

Red team 18: the project's list of releases replaced the session's. A charged release that was not the one
shown could no longer be chosen, so it could never be exported: charged without a result.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from dpgui.release.project import PROJECT_SUFFIX, Project, save_project
from dpgui.ui.main_window import MainWindow
from tests.ui.test_main_window import export_and_wait, two_releases


def test_a_session_release_can_still_be_chosen_and_exported_after_a_project_is_opened(
    qtbot, window: MainWindow, errors, monkeypatch, tmp_path: Path
):
    first, _ = two_releases(qtbot, window)
    project = tmp_path / f"empty{PROJECT_SUFFIX}"
    save_project(Project(None, None, None, ()), project)

    window.open_project(project)

    history = window.review_page.history
    ids = [history.item(row).data(Qt.ItemDataRole.UserRole) for row in range(history.count())]
    assert first.release_id in ids
    history.setCurrentRow(ids.index(first.release_id))
    assert window.release is first
    out = tmp_path / "out"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(out), ""))
    export_and_wait(qtbot, window)
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["release_id"] == first.release_id and errors == []
