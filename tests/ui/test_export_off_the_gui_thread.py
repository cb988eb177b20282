"""The app's Export writes its files in the thread pool, so the window stays live while a large release
(a million synthetic rows take seconds) is written; closing meanwhile waits for the files, then closes."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from dpgui.release import staging
from dpgui.release.batch_export import NamedRelease
from dpgui.ui.main_window import RUN, MainWindow
from tests.ui.test_main_window import run_and_wait, set_total, two_releases


class HeldWriter:
    """Stands in for ``export_release`` inside the staged export: records the thread it runs in and
    waits until the test lets it write."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.write = staging.export_release
        self.threads: list[bool] = []
        self.go = threading.Event()
        monkeypatch.setattr(staging, "export_release", self)

    def __call__(self, *args, **kwargs):
        in_gui_thread = threading.current_thread() is threading.main_thread()
        self.threads.append(in_gui_thread)
        if in_gui_thread:  # waiting here would freeze the window: the old export did exactly that
            raise AssertionError("the export was written in the GUI thread")
        self.go.wait(timeout=10)
        return self.write(*args, **kwargs)


def start_export(window: MainWindow, folder: Path, monkeypatch) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(folder), ""))
    window.export_action.trigger()


def released_then_export_held(
    qtbot, window: MainWindow, monkeypatch, tmp_path: Path
) -> tuple[HeldWriter, Path]:
    """A committed release whose export into ``tmp_path/out`` has started and waits for ``writer.go``."""
    set_total(window, 3.0)
    window.go_to(RUN)
    run_and_wait(qtbot, window)
    writer = HeldWriter(monkeypatch)
    out = tmp_path / "out"
    start_export(window, out, monkeypatch)
    return writer, out


def test_the_export_is_written_off_the_gui_thread_and_export_waits_for_it(
    qtbot, window: MainWindow, errors, monkeypatch, tmp_path: Path
):
    writer, out = released_then_export_held(qtbot, window, monkeypatch, tmp_path)
    assert window.exporter.busy and not window.export_action.isEnabled()  # one export at a time
    assert not window.review_page.export_button.isEnabled()
    assert "Exporting to" in window.statusBar().currentMessage()
    writer.go.set()
    qtbot.waitUntil(lambda: not window.exporter.busy, timeout=10_000)
    assert writer.threads == [False] and errors == []
    assert (out / "manifest.json").is_file() and window.export_action.isEnabled()
    assert window.review_page.export_button.isEnabled()
    assert window.releases[0].export_folder == str(out)


def test_closing_during_an_export_closes_once_the_files_are_in_place(
    qtbot, window: MainWindow, errors, monkeypatch, tmp_path: Path
):
    window.show()
    writer, out = released_then_export_held(qtbot, window, monkeypatch, tmp_path)
    window.close()
    assert window.isVisible() and window.close_question is None  # the release is being exported
    assert "Closing once the export is written" in window.statusBar().currentMessage()
    writer.go.set()
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=10_000)
    assert (out / "manifest.json").is_file() and not list(tmp_path.glob(".out.staging-*"))
    assert window.exported_offer is None and errors == []  # nothing offered to a closing window


def test_a_declined_close_after_an_export_leaves_later_runs_alone(
    qtbot, window: MainWindow, errors, monkeypatch, tmp_path: Path
):
    window.show()
    first, _ = two_releases(qtbot, window)  # the second is shown, and exported below
    writer = HeldWriter(monkeypatch)
    start_export(window, tmp_path / "out", monkeypatch)
    window.close()
    writer.go.set()
    qtbot.waitUntil(lambda: window.close_question is not None, timeout=10_000)
    assert window._unexported() == [first.release_id]
    assert "not exported" in window.close_question.text()
    window.close_question.done(QMessageBox.StandardButton.No)
    run_and_wait(qtbot, window)  # a later run's end must not close the window, nor ask again
    assert window.isVisible() and window.close_question is None and errors == []


def test_a_plan_exported_while_another_export_is_written_waits_its_turn(
    qtbot, window: MainWindow, errors, monkeypatch, tmp_path: Path
):
    writer, out = released_then_export_held(qtbot, window, monkeypatch, tmp_path)
    release = window.release
    assert release is not None
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args: str(tmp_path / "plan"))
    (tmp_path / "plan").mkdir()
    window.export_plan([NamedRelease("median of wage", release)])  # as a plan ending now would
    writer.go.set()
    qtbot.waitUntil(lambda: not window.exporter.busy, timeout=10_000)
    assert (out / "manifest.json").is_file() and (tmp_path / "plan" / "plan.json").is_file()
    assert window.releases[0].export_folder == str(tmp_path / "plan" / "01-median-of-wage")
    assert window.exported_offer is not None and errors == []  # the first export finished too
