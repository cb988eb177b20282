"""The app's pre-flight and export: a bad declaration is refused before the reservation, and an export is
staged beside its folder, so it never leaves half a release nor silently replaces an earlier one."""

from __future__ import annotations

import errno
import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from dpgui.data import NumericDomain
from dpgui.release import export
from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import MainWindow
from tests.ui.test_main_window import export_and_wait, run_and_wait, set_total


@pytest.fixture
def released(qtbot, window: MainWindow, errors: list[str]) -> MainWindow:
    set_total(window, 5.0)
    run_and_wait(qtbot, window)
    assert errors == []
    return window


def export_into(qtbot, window: MainWindow, folder: Path, monkeypatch) -> None:
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(folder), ""))
    export_and_wait(qtbot, window)


def test_a_grid_over_the_limits_is_refused_before_the_reservation(window: MainWindow, errors: list[str]):
    set_total(window, 5.0)
    window.task_page.select_task(TaskKind.CDF)
    window.task_page.select_columns(["wage"])
    window.task_page.declare("wage", NumericDomain(0, 20000, 1e-4))
    window.start_release()
    assert window.current_job is None
    assert errors and "grid points" in errors[0] and "coarser granularity" in errors[0]  # auto's refusals
    assert window.record is not None and window.ledger.entries(window.record.id) == []


def test_an_earlier_release_is_replaced_only_when_the_user_agrees(
    qtbot, released: MainWindow, tmp_path, monkeypatch
):
    folder = tmp_path / "out"
    export_into(qtbot, released, folder, monkeypatch)
    first = (folder / "manifest.json").read_bytes()
    asked: list[str] = []

    def answer(reply):
        def ask(parent, title, text):
            asked.append(text)
            return reply

        return ask

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    export_into(qtbot, released, folder, monkeypatch)
    assert asked and "earlier release" in asked[0]
    assert (folder / "manifest.json").read_bytes() == first
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    export_into(qtbot, released, folder, monkeypatch)
    assert json.loads((folder / "manifest.json").read_text())["release_id"] == released.release.release_id
    assert not list(tmp_path.glob(".out.staging-*"))


def test_a_full_disk_shows_an_error_and_leaves_no_partial_export(
    qtbot,
    released: MainWindow,
    tmp_path,
    monkeypatch,
    errors: list[str],
):
    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(export, "write_atomic", full)
    folder = tmp_path / "out"
    export_into(qtbot, released, folder, monkeypatch)
    assert errors and "No space left on device" in errors[-1]
    assert not folder.exists() and not list(tmp_path.glob(".out.staging-*"))


def test_the_export_creates_a_new_folder_and_offers_to_open_the_report(
    qtbot, released: MainWindow, tmp_path: Path, monkeypatch
):
    from PySide6.QtGui import QDesktopServices

    opened: list[str] = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) or True)
    folder = tmp_path / "exports" / "wages-cdf"
    export_into(qtbot, released, folder, monkeypatch)
    assert (folder / "report.html").is_file() and (folder / "manifest.json").is_file()
    offer = released.exported_offer
    assert offer is not None and offer.isVisible()  # shown with open(): the window stays usable
    assert offer.open_report_button is not None
    offer.open_report_button.click()
    assert opened == [str(folder / "report.html")]
    offer.show_folder_button.click()
    assert opened[-1] == str(folder)


def test_the_suggested_export_folder_is_new_and_named_after_the_data_and_task(released: MainWindow):
    suggestion = released._export_suggestion()
    assert not suggestion.exists()
    release = released.release
    assert release is not None and released.dataset is not None
    stem = Path(released.dataset.path).stem
    assert suggestion.name == f"{stem}-{release.spec.kind.value}-{release.release_id[:8]}"
