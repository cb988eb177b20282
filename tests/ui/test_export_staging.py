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
from tests.ui.test_main_window import WAGE_DOMAIN, run_and_wait, set_total


@pytest.fixture
def wages(demo_window: MainWindow) -> MainWindow:
    demo_window.task_page.select_columns(["wage"])
    demo_window.task_page.declare("wage", WAGE_DOMAIN)
    return demo_window


@pytest.fixture
def shown(monkeypatch) -> list[str]:
    """Messages the window would show in a critical message box."""
    messages: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: messages.append(text))
    return messages


@pytest.fixture
def released(qtbot, wages: MainWindow, shown: list[str]) -> MainWindow:
    set_total(wages, 5.0)
    run_and_wait(qtbot, wages)
    assert shown == []
    return wages


def export_into(window: MainWindow, folder: Path, monkeypatch) -> None:
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args, **kwargs: str(folder))
    window.export_action.trigger()


def test_a_grid_over_the_limits_is_refused_before_the_reservation(wages: MainWindow, shown: list[str]):
    set_total(wages, 5.0)
    wages.task_page.select_task(TaskKind.CDF)
    wages.task_page.select_columns(["wage"])
    wages.task_page.declare("wage", NumericDomain(0, 20000, 1e-4))
    wages.start_release()
    assert wages.current_job is None
    assert shown and "the largest grid that fits" in shown[0]
    assert wages.record is not None and wages.ledger.entries(wages.record.id) == []


def test_an_earlier_release_is_replaced_only_when_the_user_agrees(
    released: MainWindow, tmp_path, monkeypatch
):
    folder = tmp_path / "out"
    export_into(released, folder, monkeypatch)
    first = (folder / "manifest.json").read_bytes()
    asked: list[str] = []

    def answer(reply):
        def ask(parent, title, text):
            asked.append(text)
            return reply

        return ask

    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.No))
    export_into(released, folder, monkeypatch)
    assert asked and "earlier release" in asked[0]
    assert (folder / "manifest.json").read_bytes() == first
    monkeypatch.setattr(QMessageBox, "question", answer(QMessageBox.StandardButton.Yes))
    export_into(released, folder, monkeypatch)
    assert json.loads((folder / "manifest.json").read_text())["release_id"] == released.release.release_id
    assert not list(tmp_path.glob(".out.staging-*"))


def test_a_full_disk_shows_an_error_and_leaves_no_partial_export(
    released: MainWindow,
    tmp_path,
    monkeypatch,
    shown: list[str],
):
    def full(path: Path, data: bytes) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(export, "write_atomic", full)
    folder = tmp_path / "out"
    export_into(released, folder, monkeypatch)
    assert shown and "No space left on device" in shown[-1]
    assert not folder.exists() and not list(tmp_path.glob(".out.staging-*"))
