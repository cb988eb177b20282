"""The main window's page flow on the demo files, through the real worker and the real ledger."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QFileDialog, QMessageBox

from dpgui.data import NumericDomain
from dpgui.paths import demo_private_path, demo_public_path
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import ReservationStatus
from dpgui.release.release import Release
from dpgui.tasks.registry import algorithms
from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import BUDGET, DATA, REVIEW, RUN, TASK, MainWindow
from dpgui.ui.task_page import PRECONDITIONS_MET, REFUSED_HERE, task_kinds
from tests.ui.conftest import answer_total_dialog

CDF_DOMAIN = NumericDomain(0, 20000, 20)


def set_total(window: MainWindow, epsilon: float) -> None:
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(epsilon))
    window.refresh_budget()


def review_shown(qtbot, window: MainWindow):
    """The review sheet the Run button asked for, once its worker has prepared it."""
    qtbot.waitUntil(
        lambda: window.review_sheet is not None and window.review_sheet.isVisible(), timeout=15000
    )
    return window.review_sheet


def charge_from_the_review(qtbot, window: MainWindow) -> None:
    """Accept the review sheet the Run button opened (acknowledging any failed check)."""
    sheet = review_shown(qtbot, window)
    assert sheet is not None and sheet.isVisible() and window.current_job is None
    sheet.acknowledge.setChecked(True)
    sheet.charge_button.click()


def wait_for_the_release(qtbot, window: MainWindow) -> None:
    """Wait until the job the review's charge started has released its result."""
    job = window.current_job
    assert job is not None
    with qtbot.waitSignal(job.released, timeout=15000):
        pass


def run_and_wait(qtbot, window: MainWindow) -> None:
    qtbot.mouseClick(window.run_page.run_button, Qt.MouseButton.LeftButton)
    charge_from_the_review(qtbot, window)
    wait_for_the_release(qtbot, window)


def export_and_wait(qtbot, window: MainWindow) -> None:
    """Export the shown release and wait until the thread pool has written it (or refused it)."""
    window.export_action.trigger()
    qtbot.waitUntil(lambda: not window.exporter.busy, timeout=15000)


def pick_cdf(
    window: MainWindow, column: str = "wage", domain: NumericDomain = CDF_DOMAIN, algorithm: str | None = None
) -> None:
    """A CDF of ``column`` over ``domain`` (by ``algorithm``, else auto) on the Task page."""
    page = window.task_page
    page.select_task(TaskKind.CDF)
    page.select_columns([column])
    page.declare(column, domain)
    if algorithm is not None:
        page.select_algorithm(algorithm)


def pick_threshold(window: MainWindow) -> None:
    """Learn smsa from education (positive label "yes") on the Task page."""
    page = window.task_page
    page.select_task(TaskKind.THRESHOLD)
    page.select_columns(["education"])
    page.declare("education", NumericDomain(0, 20, 1))
    page.label.setCurrentText("smsa")
    page.positive.setText("yes")


def test_shows_the_dataset_facts_and_the_custodian_only_preview(window: MainWindow):
    assert window.windowTitle() == "dpgui"
    assert window.data_page.file_label.text() == "cps1988.csv"
    assert window.data_page.rows_label.text() == "28,155"
    assert window.dataset is not None and window.data_page.sha_label.text().startswith(
        window.dataset.sha256[:12]
    )
    assert "cps1985.csv" in window.data_page.public_label.text()
    assert window.data_page.preview_model.rowCount() == 28_155


def test_the_pages_are_navigable_both_ways(window: MainWindow):
    assert window.pages.currentIndex() == DATA and not window.back_button.isEnabled()
    for page in (TASK, BUDGET, RUN, REVIEW):
        window.next_button.click()
        assert window.pages.currentIndex() == page == window.sidebar.currentRow()
    assert not window.next_button.isEnabled()
    window.back_button.click()
    assert window.pages.currentIndex() == RUN
    window.sidebar.setCurrentRow(TASK)
    assert window.pages.currentIndex() == TASK


def test_the_shortcuts_are_the_documented_ones(window: MainWindow):
    shortcuts = {
        action.shortcut().toString(): action
        for action in (window.open_private_action, window.open_public_action, window.run_action)
    }
    assert set(shortcuts) == {"Ctrl+O", "Ctrl+Shift+O", "Ctrl+R"}
    assert window.export_action.shortcut().toString() == "Ctrl+E"


def test_a_dropped_file_opens_as_the_private_dataset(qtbot, tmp_path: Path):
    window = MainWindow()
    qtbot.addWidget(window)
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(demo_private_path()))])
    event = QDropEvent(
        QPointF(10, 10),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    window.dropEvent(event)
    qtbot.waitUntil(lambda: window.dataset is not None, timeout=10_000)
    assert window.data_page.file_label.text() == "cps1988.csv"


def test_the_task_picker_offers_every_task_with_algorithms_and_auto_first(window: MainWindow):
    page = window.task_page
    assert [page.task.itemData(i) for i in range(page.task.count())] == task_kinds()
    pick_cdf(window)
    names = [page.algorithm.item(i).data(Qt.ItemDataRole.UserRole) for i in range(page.algorithm.count())]
    assert names == ["auto"] + [info.name for info in algorithms(TaskKind.CDF)]
    assert page.algorithm.item(1).text().startswith("[pure]")
    page.select_algorithm("tree-laplace")
    assert list(page.parameters.editors) == ["beta", "branching"]


def test_labelled_and_multi_column_tasks_build_the_clis_spec(window: MainWindow):
    page = window.task_page
    pick_threshold(window)
    spec = window.current_spec()
    assert (spec.kind, spec.columns, spec.label, spec.positive) == (
        TaskKind.THRESHOLD,
        ("education",),
        "smsa",
        "yes",
    )
    page.select_task(TaskKind.RECTANGLE)
    page.select_columns(["education", "experience"])
    assert list(page.domain_rows) == ["education", "experience"]
    with pytest.raises(ValueError, match="experience"):
        window.current_spec()  # bounds are never filled in for the custodian


def test_bounds_start_empty_and_are_suggested_only_from_the_public_sample(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(demo_private_path())
    row = window.task_page.domain_rows["wage"]
    assert (row.lower.text(), row.upper.text()) == ("", "")
    assert not row.suggest.isEnabled()
    window.load_public(demo_public_path())
    row = window.task_page.domain_rows["wage"]
    assert row.suggest.isEnabled()
    assert "hourly" in window.task_page.public_note.text()
    qtbot.mouseClick(row.suggest, Qt.MouseButton.LeftButton)
    assert float(row.lower.text()) < float(row.upper.text()) <= 100  # hourly wages of cps1985


def test_the_budget_page_explains_epsilon_and_plans(qtbot, window: MainWindow):
    window.budget_page.epsilon.setValue(1.0)
    assert "× 2.72" in window.budget_page.odds.text()
    window.go_to(BUDGET)
    table = window.budget_page.plan_table
    qtbot.waitUntil(lambda: table.rowCount() > 0)  # the planner runs in the thread pool
    assert table.rowCount() == 1 and table.item(0, 0).text() == "Private median"  # the Task page's name
    assert "--algorithm em" in table.item(0, 0).toolTip()
    assert table.item(0, 7).text() == "✓"
    headers = [table.horizontalHeaderItem(i).text() for i in range(table.columnCount())]
    assert headers[2:4] == ["Error bound", "Simulated error"]
    assert "Auto (✓) ranks by the simulated error" in window.budget_page.plan_status.text()
    assert "probability 1 − β" in table.horizontalHeaderItem(2).toolTip()
    assert "simulated data of the same shape" in table.horizontalHeaderItem(3).toolTip()
    ledger = window.budget_page.ledger_table  # its cost tags and accounts are explained (a GUI audit)
    assert "[pld]" in ledger.horizontalHeaderItem(2).toolTip()
    assert "labels-only" in ledger.horizontalHeaderItem(3).toolTip()


def test_an_algorithm_that_cannot_run_shows_no_error_bound(qtbot, window: MainWindow):
    """GUI audit (session 37): rows that cannot run read "inf" or "1" in the Error bound column."""
    pick_threshold(window)
    window.go_to(BUDGET)
    table = window.budget_page.plan_table
    qtbot.waitUntil(lambda: not window.planner.busy and table.rowCount() > 0, timeout=30_000)
    rows = [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]
    refused = [row for row in rows if row[6].startswith("no:")]
    assert refused and all(row[2] == "—" for row in refused)
    assert any(row[6] == "yes" and row[2] != "—" for row in rows)


def test_a_median_release_is_shown_and_charged(qtbot, window: MainWindow, errors):
    set_total(window, 3.0)
    run_and_wait(qtbot, window)
    assert errors == []
    assert "Released median of wage" in window.review_page.headline.text()
    assert "ε = 1, pure DP" in window.review_page.headline.text()
    assert window.pages.currentIndex() == REVIEW
    from dpgui.ui.review_page import describe_release
    from tests.ui.conftest import WAGE_DOMAIN

    release = window.release
    weekly = dataclasses.replace(release.spec, domains=(dataclasses.replace(WAGE_DOMAIN, unit="USD a week"),))
    assert " USD a week (" in describe_release(dataclasses.replace(release, spec=weekly))  # the declared unit
    assert window.record is not None
    assert window.ledger.state(window.record.id).spent == PrivacyCost(1.0)
    assert window.budget_panel.remaining_label.text() == "ε = 2"
    assert window.budget_page.ledger_table.rowCount() == 2  # the total set, then the release
    assert window.run_page.run_button.isEnabled()


def test_a_cdf_release_plots_while_running_and_exports_with_the_ledgers_epsilon(
    qtbot, window: MainWindow, errors, monkeypatch, tmp_path: Path
):
    set_total(window, 10.0)
    pick_cdf(window)
    window.go_to(RUN)
    run_and_wait(qtbot, window)
    assert errors == []
    x, y = window.run_page.curve.getData()
    assert x is not None and len(x) > 1 and y[-1] == pytest.approx(1.0)  # the partial CDF was drawn
    review = window.review_page
    assert review.model.rowCount() == CDF_DOMAIN.size and review.model.columnCount() == 2
    assert review.drawing is not None and review.plot.isVisibleTo(window)
    assert len(review.drawing.items["curve"].getData()[0]) == CDF_DOMAIN.size
    assert window.record is not None
    (entry,) = window.ledger.entries(window.record.id)
    assert entry.status is ReservationStatus.COMMITTED

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(tmp_path), ""))
    export_and_wait(qtbot, window)
    assert (tmp_path / "release.csv").exists()
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["epsilon"] == entry.cost.epsilon == 1.0
    assert {"release.parquet", "report.html"} <= {output["file"] for output in manifest["outputs"]}
    assert "data:image/png;base64,iVBOR" in (tmp_path / "report.html").read_text(encoding="utf-8")


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
    assert window.run_page.log.toPlainText().splitlines()[-1] == (
        "— Cancelled after reading the data: the cost stays spent."
    )  # the Run page keeps saying it (a GUI audit: its bar and plot read as paused)
    assert window.review_page.headline.text() == "No release yet."


def test_an_overspend_is_refused_with_a_message_and_the_ledger_unchanged(qtbot, window: MainWindow, errors):
    set_total(window, 0.5)
    assert window.record is not None
    before = window.ledger.state(window.record.id)
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    sheet.acknowledge.setChecked(True)
    assert not sheet.charge_button.isEnabled() and "only ε=0.5" in sheet.over_budget  # the review says so
    sheet.reject()
    window.start_release()  # the reservation refuses it on its own too
    assert window.current_job is None
    assert len(errors) == 1 and "only ε=0.5" in errors[0]
    assert window.ledger.state(window.record.id) == before
    assert window.ledger.entries(window.record.id) == []


def test_without_a_total_the_message_points_to_the_budget_button(window: MainWindow, errors):
    window.start_release()
    assert len(errors) == 1 and "Set total budget" in errors[0]


def test_bad_bounds_are_refused_before_anything_is_reserved(window: MainWindow, errors):
    set_total(window, 3.0)
    row = window.task_page.domain_rows["wage"]
    row.lower.setText("100")
    row.upper.setText("10")
    window.start_release()
    assert len(errors) == 1 and "below the upper bound" in errors[0]
    assert window.record is not None and window.ledger.entries(window.record.id) == []


def test_the_total_budget_dialog_sets_and_confirms_a_raise(window: MainWindow, monkeypatch):
    assert window.record is not None
    answer_total_dialog(monkeypatch, "2", "1e-6")
    window.budget_panel.set_total_button.click()
    assert window.ledger.state(window.record.id).total == PrivacyCost(2.0, 1e-6)
    assert window.budget_panel.total_label.text() == "ε = 2, δ = 1e-06"

    answer_total_dialog(monkeypatch, "5", "1e-6")
    monkeypatch.setattr(QMessageBox, "question", lambda *args: QMessageBox.StandardButton.No)
    window.budget_panel.set_total_button.click()
    assert window.ledger.state(window.record.id).total == PrivacyCost(2.0, 1e-6)


def test_a_raise_of_the_totals_delta_alone_must_be_confirmed(window: MainWindow, monkeypatch):
    """A larger δ weakens the promise as a larger ε does (planted error ui-delta-raise-unconfirmed)."""
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(2.0, 1e-6))
    answer_total_dialog(monkeypatch, "2", "1e-3")
    asked = []
    no = QMessageBox.StandardButton.No
    monkeypatch.setattr(QMessageBox, "question", lambda *args: asked.append(1) or no)
    window.budget_panel.set_total_button.click()
    assert asked == [1] and window.ledger.state(window.record.id).total == PrivacyCost(2.0, 1e-6)


def test_a_total_below_what_is_spent_must_be_confirmed(window: MainWindow, monkeypatch):
    """GUI audit (session 37): ε = 2 after 6.5 spent was set without a word, and the bar read "spent 325%"."""
    assert window.record is not None
    record = window.record.id
    window.ledger.set_total(record, PrivacyCost(4.0))
    window.ledger.commit(window.ledger.reserve(record, PrivacyCost(3.0), "a release"), "r1")
    answer_total_dialog(monkeypatch, "2", "0")
    asked: list[str] = []
    answer = [QMessageBox.StandardButton.No]
    monkeypatch.setattr(
        QMessageBox, "question", lambda _parent, title, *rest: asked.append(title) or answer[0]
    )
    window.budget_panel.set_total_button.click()
    assert asked == ["Set a total below what is spent?"]
    assert window.ledger.state(record).total == PrivacyCost(4.0)
    answer[0] = QMessageBox.StandardButton.Yes
    window.budget_panel.set_total_button.click()
    assert window.ledger.state(record).total == PrivacyCost(2.0)
    window.budget_panel.set_total_button.click()  # 2 again: still below what is spent, so asked again
    assert len(asked) == 3


def test_each_algorithm_says_whether_its_preconditions_hold_at_this_n(window: MainWindow):
    page = window.task_page
    pick_threshold(window)
    window.go_to(TASK)
    texts = {
        page.algorithm.item(row).data(Qt.ItemDataRole.UserRole): page.algorithm.item(row).text()
        for row in range(1, page.algorithm.count())
    }
    assert texts["em-threshold"].endswith(PRECONDITIONS_MET)
    assert REFUSED_HERE in texts["recconcave"]  # it needs a public direction (and about 4e7 rows)
    refusal = page.algorithm.item(list(texts).index("recconcave") + 1).toolTip()
    assert "RecConcave needs a public direction" in refusal


def two_releases(qtbot, window: MainWindow) -> tuple[Release, Release]:
    """A median of wage, then a CDF of wage, both committed in the window's session (total ε = 10)."""
    set_total(window, 10.0)
    window.go_to(RUN)
    run_and_wait(qtbot, window)
    first = window.release
    pick_cdf(window)
    window.go_to(RUN)
    run_and_wait(qtbot, window)
    second = window.release
    assert first is not None and second is not None and first is not second
    return first, second


def test_the_review_list_chooses_which_release_is_shown_and_exported(
    qtbot, window: MainWindow, errors, monkeypatch, tmp_path: Path
):
    first, _ = two_releases(qtbot, window)
    history = window.review_page.history
    assert history.count() == 2 and history.currentRow() == 0  # newest first, the shown one selected
    history.setCurrentRow(1)
    assert window.release is first and window.review_page.release is first
    assert "median" in window.review_page.headline.text()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(tmp_path), ""))
    export_and_wait(qtbot, window)
    manifest = json.loads((tmp_path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["release_id"] == first.release_id and errors == []


@pytest.mark.parametrize(
    ("epsilon", "delta", "message"),
    [
        ("0", "0", "The total ε must be a number above 0"),
        ("abc", "0", "got 'abc'"),
        ("1", "", "The total δ must be a number from 0 to below 1"),
        ("1", "1.5", "delta must be in [0, 1)"),
    ],
)
def test_a_total_that_is_not_a_budget_is_refused_in_words(
    window: MainWindow, monkeypatch, errors, epsilon, delta, message
):
    """GUI audit (session 39): the dialog took ε = 0 as a total, and an empty δ said "could not convert
    string to float: ''"."""
    assert window.record is not None
    answer_total_dialog(monkeypatch, epsilon, delta)
    window.budget_panel.set_total_button.click()
    assert len(errors) == 1 and message in errors[0]
    assert window.ledger.state(window.record.id).total is None


def test_a_total_typed_in_scientific_notation_is_read_as_written(window: MainWindow, monkeypatch):
    """GUI audit (session 39): '1e-5' typed into the total's number box set ε = 15."""
    assert window.record is not None
    answer_total_dialog(monkeypatch, "1e-5", "1E-7")
    window.budget_panel.set_total_button.click()
    assert window.ledger.state(window.record.id).total == PrivacyCost(1e-5, 1e-7)
