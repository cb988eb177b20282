"""The Budget page's "Release plan" tab: a plan editor split in the pool at the dataset's row count, and a
plan run from the app through the review sheet, one ledger entry per release, exported to one folder."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog

from dpgui.jobs import plan_job
from dpgui.planner.plan_file import load_plan
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import ReservationStatus
from dpgui.privacy.random import SeededRandom
from dpgui.release.kept import kept_folder
from dpgui.tasks.spec import TaskKind
from dpgui.ui.budget_page import BudgetPage
from dpgui.ui.main_window import RUN, MainWindow
from dpgui.ui.plan_view import EPSILON, TARGET, WEIGHT, Mode, PlanView
from tests.cli.test_batch import PLAN
from tests.ui.test_main_window import review_shown

SPLIT_TIMEOUT = 60_000


@pytest.fixture
def view(qtbot, tmp_path: Path) -> Iterator[PlanView]:
    """The plan tab with PLAN (a wage CDF and a wage median at weight 2) open and split at n = 2001."""
    page = BudgetPage()
    qtbot.addWidget(page)
    path = tmp_path / "plan.toml"
    path.write_text(PLAN)
    page.plan_view.open_plan(path)
    assert "Open the private data first" in page.plan_view.status.text()
    with qtbot.waitSignal(page.plan_view.calls.done, timeout=SPLIT_TIMEOUT):
        page.show_spec(None, 2001)
    yield page.plan_view  # the page stays alive while the test runs


def edit(qtbot, view: PlanView, row: int, column: int, text: str) -> None:
    with qtbot.waitSignal(view.calls.done, timeout=SPLIT_TIMEOUT):
        view.table.item(row, column).setText(text)


def test_a_plan_is_split_at_n_and_shown_row_by_row(view: PlanView) -> None:
    assert view.table.rowCount() == 2
    assert [view.table.item(r, 0).text() for r in range(2)] == ["wage CDF", "wage median"]
    assert "of the 2,001 records" in view.table.item(0, 5).text()  # the error in the data's terms
    assert "basic composition" in view.summary.text() and "tight composition" in view.summary.text()
    assert view.batch is not None and view.batch.total.epsilon <= 1.0 and view.run_button.isEnabled()


def test_a_heavier_weight_moves_budget_to_its_release(qtbot, view: PlanView) -> None:
    before = view.batch.releases[0].cost.epsilon
    edit(qtbot, view, 0, WEIGHT, "10")
    assert view.releases[0].weight == 10
    assert view.batch.releases[0].cost.epsilon > before * 1.2
    assert float(view.table.item(0, EPSILON).text()) == pytest.approx(
        view.batch.releases[0].cost.epsilon, 1e-3
    )


def test_targets_mode_shows_the_budget_the_targets_need_and_follows_their_edits(qtbot, view) -> None:
    budget = view.batch.total.epsilon
    with qtbot.waitSignal(view.calls.done, timeout=SPLIT_TIMEOUT):
        view.mode.setCurrentIndex(list(Mode).index(Mode.TARGETS))
    assert not view.epsilon.isEnabled()
    assert view.epsilon.value() == pytest.approx(budget, rel=0.01)  # the split's errors as targets
    target = view.releases[0].target_error
    edit(qtbot, view, 0, TARGET, f"{target / 2:g}")
    assert view.epsilon.value() > budget * 1.2  # a tighter target costs more
    assert view.batch.releases[0].predicted_error <= target / 2
    with qtbot.waitSignal(view.calls.done, timeout=SPLIT_TIMEOUT):
        view.mode.setCurrentIndex(list(Mode).index(Mode.SPLIT))  # the needed budget, now split
    assert view.batch.total.epsilon == pytest.approx(view.epsilon.value(), rel=1e-6)


def test_a_bad_weight_is_refused_and_the_plan_kept(view: PlanView) -> None:
    view.table.item(1, WEIGHT).setText("-1")
    assert "must be a number > 0" in view.status.text()
    assert view.releases[1].weight == 2.0 and view.table.item(1, WEIGHT).text() == "2"


def test_a_malformed_plan_says_what_is_wrong(qtbot, tmp_path: Path) -> None:
    page = BudgetPage()
    qtbot.addWidget(page)
    path = tmp_path / "plan.toml"
    path.write_text("epsilon = 1\n")
    page.plan_view.open_plan(path)
    assert "no [[release]] tables" in page.plan_view.status.text()
    assert page.plan_view.table.rowCount() == 0


def plan_two_wage_releases(qtbot, window: MainWindow) -> PlanView:
    """The wage CDF and the wage median added from the Task page, split at the demo's n."""
    view = window.budget_page.plan_view
    with qtbot.waitSignal(view.calls.done, timeout=SPLIT_TIMEOUT):
        view.add_current()
    window.task_page.select_task(TaskKind.MEDIAN)
    window.task_page.select_columns(["wage"])
    with qtbot.waitSignal(view.calls.done, timeout=SPLIT_TIMEOUT):
        view.add_current()
    assert [r.name for r in view.releases] == ["cdf of wage", "median of wage"]
    return view


def test_releases_added_from_the_task_page_save_as_the_plan_the_cli_reads(qtbot, window, tmp_path) -> None:
    window.task_page.select_task(TaskKind.CDF)
    view = plan_two_wage_releases(qtbot, window)
    assert all(r.spec.public is None for r in view.releases)  # the demo's public sample stays out
    path = tmp_path / "saved.toml"
    view.save_plan(path)
    assert load_plan(path) == view.plan()


@pytest.fixture
def plan_window(qtbot, window: MainWindow, monkeypatch, tmp_path: Path) -> MainWindow:
    """The demo window with a total of ε = 3, a seeded source, and an export folder chosen in advance."""
    monkeypatch.setattr(plan_job, "SecureRandom", lambda: SeededRandom(7))
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *args: str(tmp_path / "out"))
    (tmp_path / "out").mkdir()
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(3.0))
    window.task_page.select_task(TaskKind.CDF)
    return window


def test_run_plan_reviews_reserves_runs_and_exports_every_release(qtbot, plan_window, tmp_path) -> None:
    window = plan_window
    view = plan_two_wage_releases(qtbot, window)
    view.run_button.click()
    sheet = review_shown(qtbot, window)
    assert sheet is not None and [name for name, _ in sheet.reviews] == ["cdf of wage", "median of wage"]
    assert window.current_job is None and window.ledger.entries(window.record.id) == []  # nothing charged
    sheet.charge_button.click()
    job = window.current_job
    assert job is not None and window.pages.currentIndex() == RUN
    with qtbot.waitSignal(job.finished, timeout=60_000):
        pass
    qtbot.waitUntil(lambda: not window.exporter.busy, timeout=15_000)  # the plan's files, written off the GUI
    entries = window.ledger.entries(window.record.id)
    assert [e.status for e in entries] == [ReservationStatus.COMMITTED] * 2
    assert [e.release_id for e in entries] == [r.release_id for r in window.releases]
    assert "(2 of 2)" in window.run_page.log.toPlainText()
    out = tmp_path / "out"
    assert sorted(p.name for p in out.iterdir()) == [
        "01-cdf-of-wage",
        "02-median-of-wage",
        "plan.json",
        "report.html",
    ]
    summary = json.loads((out / "plan.json").read_text())
    assert [r["release_id"] for r in summary["releases"]] == [e.release_id for e in entries]
    assert all(r.export_folder for r in window.releases)
    assert not any(kept_folder(e.release_id).exists() for e in entries)  # exported: dpgui's copies go


def test_a_plan_cancelled_after_its_first_release_keeps_it_and_refunds_the_rest(qtbot, plan_window) -> None:
    window = plan_window
    view = plan_two_wage_releases(qtbot, window)
    window.start_plan(view.batch)
    job = window.current_job
    job.released.connect(lambda index, release: window.cancel_release())
    with qtbot.waitSignal(job.cancelled, timeout=60_000):
        pass
    statuses = [e.status for e in window.ledger.entries(window.record.id)]
    assert statuses == [ReservationStatus.COMMITTED, ReservationStatus.REFUNDED]
    assert window.current_job is None and len(window.releases) == 1
    assert (kept_folder(window.releases[0].release_id) / "manifest.json").is_file()  # kept, not exported
    assert "1 of the plan's 2 releases were committed" in window.statusBar().currentMessage()


def test_finish_now_is_offered_while_a_release_of_the_plan_can_end_early(qtbot, plan_window) -> None:
    """Finish now follows the running release: shown while one that can end early (AIM) runs, hidden for
    the others. The request reaches that release only (tests/jobs/test_plan_job.py)."""
    window = plan_window
    batch = plan_two_wage_releases(qtbot, window).batch
    first = batch.releases[0]
    finishable = dataclasses.replace(
        first.prepared, algorithm=dataclasses.replace(first.prepared.algorithm, finishes_on_request=True)
    )
    batch = dataclasses.replace(
        batch, releases=(dataclasses.replace(first, prepared=finishable), *batch.releases[1:])
    )
    shown: list[bool] = []
    button = window.run_page.finish_button
    window.start_plan(batch)
    job = window.current_job
    job.release_started.connect(lambda index: shown.append(button.isVisibleTo(window.run_page)))
    assert button.isVisibleTo(window.run_page)  # the first release started inside start_plan
    with qtbot.waitSignal(job.finished, timeout=60_000):
        pass
    assert shown == [False]  # the median, second, cannot end early
    assert not button.isVisibleTo(window.run_page)


def test_an_edit_disables_run_plan_until_the_new_split_is_shown(qtbot, view: PlanView) -> None:
    """Run plan runs the split shown: while the plan's new budget is split, the old split cannot run
    (planted error ui-plan-stale-split-runnable)."""
    with qtbot.waitSignal(view.calls.done, timeout=SPLIT_TIMEOUT):
        view.epsilon.setValue(0.5)
        assert view.batch is None and not view.run_button.isEnabled()
    assert view.batch is not None and view.batch.total.epsilon <= 0.5


def test_the_plans_delta_typed_is_the_one_its_targets_are_met_at(qtbot, view: PlanView) -> None:
    """In targets mode the plan has no budget: its δ is the releases' own, so the δ typed must reach them
    (planted error ui-plan-delta-ignored: the plan file's δ = 1e-6 stayed)."""
    with qtbot.waitSignal(view.calls.done, timeout=SPLIT_TIMEOUT):
        view.mode.setCurrentIndex(list(Mode).index(Mode.TARGETS))
    with qtbot.waitSignal(view.calls.done, timeout=SPLIT_TIMEOUT):
        view.delta.setText("1e-8")
        view.delta.editingFinished.emit()
    assert [release.spec.delta for release in view.plan().releases] == [1e-8, 1e-8]
    assert view.batch is not None and view.batch.total.delta == pytest.approx(1e-8)


def test_a_plans_review_states_each_releases_budget_after_the_earlier_ones(qtbot, plan_window) -> None:
    window = plan_window
    batch = plan_two_wage_releases(qtbot, window).batch
    window.review_plan(batch)
    (_, first), (_, second) = review_shown(qtbot, window).reviews
    assert first.remaining_before == PrivacyCost(3.0)
    assert second.remaining_before == first.remaining_after != first.remaining_before
    window.review_sheet.reject()


def test_a_plan_that_does_not_fit_cannot_be_charged_and_its_review_says_why(qtbot, plan_window) -> None:
    """The plan's sheet left "Charge and run" enabled for a plan the ledger then refused ("Plan refused"):
    its reviews were built without the ledger's refusal, unlike a single release's."""
    window = plan_window
    batch = plan_two_wage_releases(qtbot, window).batch
    assert batch is not None and batch.total.epsilon > 0.1
    window.ledger.set_total(window.record.id, PrivacyCost(0.1))
    window.review_plan(batch)
    sheet = review_shown(qtbot, window)
    assert sheet.over_budget is not None and sheet.over_budget.startswith("These 2 releases need")
    assert not sheet.charge_button.isEnabled()
    sheet.reject()
    assert window.ledger.entries(window.record.id) == []
