"""Closing the window asks first when a charged release of this session was never exported.

Red team 18: a release is held in memory until Export writes it. Closing the window dropped it without a
word, so its cost stayed spent in the ledger and its values were gone (charged without a result).
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from dpgui.release.project import PROJECT_SUFFIX, Project, save_project
from dpgui.ui.main_window import RUN, MainWindow
from tests.ui.test_main_window import export_and_wait, run_and_wait, set_total


def _released(qtbot, window: MainWindow) -> None:
    set_total(window, 3.0)
    window.go_to(RUN)
    run_and_wait(qtbot, window)


def test_closing_with_an_unexported_release_asks_and_keeps_the_window_unless_confirmed(
    qtbot, window: MainWindow, errors
):
    window.show()
    _released(qtbot, window)
    window.close()
    question = window.close_question
    assert question is not None and question.isVisible()  # asked, without blocking the GUI thread
    assert "not exported" in question.text()
    question.done(QMessageBox.StandardButton.No)
    assert window.isVisible() and window.release is not None  # kept, still exportable
    window.close()
    question = window.close_question
    assert question is not None
    question.done(QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2_000)


def test_closing_after_the_export_does_not_ask(
    qtbot, window: MainWindow, errors, monkeypatch, tmp_path: Path
):
    window.show()
    _released(qtbot, window)
    out = tmp_path / "out"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(out), ""))
    export_and_wait(qtbot, window)
    assert (out / "manifest.json").exists() and errors == []
    window.close()
    assert window.close_question is None and not window.isVisible()


def test_opening_a_project_after_a_release_still_asks_on_close(
    qtbot, window: MainWindow, errors, tmp_path: Path
):
    window.show()
    _released(qtbot, window)
    project = tmp_path / f"empty{PROJECT_SUFFIX}"
    save_project(Project(None, None, None, ()), project)
    window.open_project(project)  # the Review page's list is now the project's (empty)
    window.close()
    question = window.close_question
    assert question is not None and question.isVisible() and "not exported" in question.text()
    question.done(QMessageBox.StandardButton.No)
