"""The main window on the demo files, through the real worker and the real ledger."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QInputDialog, QMessageBox

from dpgui.data import NumericDomain
from dpgui.paths import demo_private_path, demo_public_path
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import ReservationStatus
from dpgui.ui.main_window import MainWindow

WAGE_DOMAIN = NumericDomain(0, 20000, 1)


@pytest.fixture
def window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(demo_private_path())
    window.load_public(demo_public_path())
    window.median_form.declare("wage", WAGE_DOMAIN)
    return window


@pytest.fixture
def errors(monkeypatch) -> list[str]:
    """Messages the window would show in a critical message box."""
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    return shown


def set_total(window: MainWindow, epsilon: float) -> None:
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(epsilon))
    window.refresh_budget()


def test_shows_the_dataset_facts_and_the_custodian_only_preview(window: MainWindow):
    assert window.windowTitle() == "dpgui"
    assert window.file_label.text() == "cps1988.csv"
    assert window.rows_label.text() == "28,155"
    assert window.dataset is not None and window.sha_label.text().startswith(window.dataset.sha256[:12])
    assert "cps1985.csv" in window.public_label.text()
    assert window.preview_model.rowCount() == 28_155


def test_a_median_release_is_shown_and_charged(qtbot, window: MainWindow, errors):
    set_total(window, 3.0)
    qtbot.mouseClick(window.median_form.run_button, Qt.MouseButton.LeftButton)
    job = window.current_job
    assert job is not None
    with qtbot.waitSignal(job.released, timeout=8000):
        pass
    assert errors == []
    assert "Released median of wage" in window.result_label.text()
    assert "ε = 1, pure DP" in window.result_label.text()
    assert window.record is not None
    assert window.ledger.state(window.record.id).spent == PrivacyCost(1.0)
    assert window.budget_panel.remaining_label.text() == "ε = 2"
    assert window.median_form.run_button.isEnabled()


def test_a_cancel_after_the_data_was_touched_stays_charged(qtbot, window: MainWindow, monkeypatch):
    set_total(window, 3.0)
    mark_touched = window.ledger.mark_touched

    def touch_then_cancel(reservation) -> None:
        mark_touched(reservation)
        assert window.current_job is not None
        window.current_job.cancel()  # thread-safe: sets the worker's event

    monkeypatch.setattr(window.ledger, "mark_touched", touch_then_cancel)
    window.start_release()
    assert window.current_job is not None
    with qtbot.waitSignal(window.current_job.cancelled, timeout=8000):
        pass
    assert window.record is not None
    assert [e.status for e in window.ledger.entries(window.record.id)] == [ReservationStatus.COMMITTED]
    assert "stays spent" in window.statusBar().currentMessage()
    assert window.result_label.text() == "No release yet."


def test_an_overspend_is_refused_with_a_message_and_the_ledger_unchanged(window: MainWindow, errors):
    set_total(window, 0.5)
    assert window.record is not None
    before = window.ledger.state(window.record.id)
    window.start_release()
    assert window.current_job is None
    assert len(errors) == 1 and "only ε=0.5" in errors[0]
    assert window.ledger.state(window.record.id) == before
    assert window.ledger.entries(window.record.id) == []


def test_without_a_total_the_message_points_to_the_budget_button(window: MainWindow, errors):
    window.start_release()
    assert len(errors) == 1 and "Set total budget" in errors[0]


def test_bad_bounds_are_refused_before_anything_is_reserved(window: MainWindow, errors):
    set_total(window, 3.0)
    window.median_form.lower.setText("100")
    window.median_form.upper.setText("10")
    window.start_release()
    assert len(errors) == 1 and "below the upper bound" in errors[0]
    assert window.record is not None and window.ledger.entries(window.record.id) == []


def test_bounds_start_empty_and_are_suggested_only_from_the_public_sample(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(demo_private_path())
    form = window.median_form
    assert form.column.currentText() == "wage"
    assert (form.lower.text(), form.upper.text()) == ("", "")
    assert not form.suggest_button.isEnabled()
    window.load_public(demo_public_path())
    assert form.suggest_button.isEnabled()
    assert "hourly" in form.suggest_note.text()
    qtbot.mouseClick(form.suggest_button, Qt.MouseButton.LeftButton)
    assert float(form.lower.text()) < float(form.upper.text()) <= 100  # hourly wages of cps1985


def test_the_total_budget_dialog_sets_and_confirms_a_raise(window: MainWindow, monkeypatch):
    assert window.record is not None
    monkeypatch.setattr(QInputDialog, "getDouble", lambda *args: (2.0, True))
    monkeypatch.setattr(QInputDialog, "getText", lambda *args, **kwargs: ("1e-6", True))
    window.budget_panel.set_total_button.click()
    assert window.ledger.state(window.record.id).total == PrivacyCost(2.0, 1e-6)
    assert window.budget_panel.total_label.text() == "ε = 2, δ = 1e-06"

    monkeypatch.setattr(QInputDialog, "getDouble", lambda *args: (5.0, True))
    monkeypatch.setattr(QMessageBox, "question", lambda *args: QMessageBox.StandardButton.No)
    window.budget_panel.set_total_button.click()
    assert window.ledger.state(window.record.id).total == PrivacyCost(2.0, 1e-6)
