"""The Budget page's pieces: ε as odds, and the three-segment bar of spent / this release / remaining."""

from __future__ import annotations

import math
import threading
from datetime import UTC, datetime

import pytest
from PySide6.QtWidgets import QTableWidgetItem

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetEvent, BudgetState, LedgerEntry, ReservationStatus
from dpgui.ui import budget_timeline
from dpgui.ui.budget_page import LEDGER_COLUMNS, PLAN_COLUMNS, BudgetPage, odds_text
from dpgui.ui.budget_panel import BudgetBar


def test_odds_are_e_to_the_epsilon():
    assert "× 2.72" in odds_text(1.0)
    assert f"× {math.exp(0.1):,.3g}" in odds_text(0.1)
    assert "× 1.1 " not in odds_text(1.0)  # control: a different ε gives different odds
    assert "× 1.001 " in odds_text(0.001)  # not "× 1" (a GUI audit)
    assert "× 1.0000001 " in odds_text(1e-7)


def test_the_bar_splits_the_total_into_spent_release_and_remaining(qtbot):
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.show_budget(10.0, 2.0, 1.0)
    assert bar.fractions == pytest.approx((0.2, 0.1, 0.7))
    assert "spent 20%" in bar.caption and "does not fit" not in bar.caption


def test_a_release_that_does_not_fit_is_clipped_and_flagged(qtbot):
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.show_budget(1.0, 0.8, 0.5)
    assert bar.fractions == pytest.approx((0.8, 0.2, 0.0))
    assert "does not fit" in bar.caption
    bar.show_budget(None, 0.0, 0.0)
    assert bar.fractions == (0.0, 0.0, 0.0) and bar.caption == "no total budget set"
    bar.grab()  # paints without error


def test_the_labels_only_account_is_shown_apart_and_kept_off_the_replace_one_timeline(qtbot):
    page = BudgetPage()
    qtbot.addWidget(page)
    now = datetime.now(UTC)

    def entry(account: Account, epsilon: float) -> LedgerEntry:
        return LedgerEntry("r", now, "x", PrivacyCost(epsilon), ReservationStatus.COMMITTED, "id", account)

    labels_only = BudgetState(PrivacyCost(2.0), PrivacyCost(0.7), PrivacyCost(0.0), PrivacyCost(1.3))
    page.show_ledger([entry(Account.REPLACE_ONE, 0.5), entry(Account.LABELS_ONLY, 0.7)], None, labels_only)
    assert not page.labels_only.isHidden() and "ε = 0.7" in page.labels_only.text()
    assert [point.epsilon for point in page.timeline.timeline] == [0.5]
    assert page.ledger_table.item(1, LEDGER_COLUMNS.index("Account")).text() == "labels-only"
    page.show_ledger([entry(Account.REPLACE_ONE, 0.5)], None, labels_only)
    assert page.labels_only.isHidden()


def test_changes_of_the_total_budget_appear_in_the_ledger_table_in_time_order(qtbot):
    page = BudgetPage()
    qtbot.addWidget(page)
    start = datetime(2026, 1, 1, tzinfo=UTC)
    release = LedgerEntry(
        "r", start.replace(hour=2), "median of wage", PrivacyCost(1.0), ReservationStatus.COMMITTED, "id"
    )
    events = [
        BudgetEvent(start.replace(hour=1), PrivacyCost(2.0), None, "first", False),
        BudgetEvent(start.replace(hour=3), PrivacyCost(0.5), PrivacyCost(2.0), "", True),
    ]
    page.show_ledger([release], None, None, events)
    column = LEDGER_COLUMNS.index("Release")
    texts = [page.ledger_table.item(row, column).text() for row in range(page.ledger_table.rowCount())]
    assert texts == ["total budget set (first)", "median of wage", "total budget changed from ε = 2"]
    status = page.ledger_table.item(2, LEDGER_COLUMNS.index("Status")).text()
    assert status == "exhausted: no more releases"


def test_the_planner_shows_a_synthetic_tables_error_per_marginal(qtbot):
    from dpgui.planner.plan import plan
    from tests.tasks.test_table_error import _spec

    page = BudgetPage()
    qtbot.addWidget(page)
    page.show_plan(plan(_spec(coarse=16), 28155))
    index = page.planner_tabs.indexOf(page.parts_table)
    assert page.planner_tabs.isTabVisible(index) and page.parts_table.rowCount() == 28 + 7 + 28
    cells = {page.parts_table.item(r, 1).text() for r in range(page.parts_table.rowCount())}
    assert "wage × experience (16 × 16 bins)" in cells and "experience" in cells
    page.show_plan([])
    assert not page.planner_tabs.isTabVisible(index)


def test_the_panels_wrapped_lines_keep_their_height_at_a_narrow_width(qtbot):
    """At 1024 x 700 the accounting line wraps to two or three lines; the form gave it the one guessed
    height of a wrapped QLabel and cut the rest off (the page sits in a QStackedWidget, which does not pass
    height-for-width down)."""
    from PySide6.QtWidgets import QLabel, QStackedWidget

    from dpgui.ui.budget_panel import BudgetPanel

    stack = QStackedWidget()
    panel = BudgetPanel()
    stack.addWidget(panel)
    qtbot.addWidget(stack)
    state = BudgetState(
        PrivacyCost(10.0, 1e-5),
        PrivacyCost(0.88399, 1e-5),
        PrivacyCost(0.0),
        PrivacyCost(9.11601, 9e-6),
        spent_basic=PrivacyCost(1.0, 1e-6),
    )
    panel.show_state(state)
    stack.resize(330, 400)
    stack.show()
    qtbot.waitExposed(stack)
    for label in (panel.spent_label, panel.remaining_label, panel.accounting_label):
        fresh = QLabel(label.text())
        fresh.setWordWrap(True)
        fresh.setFont(label.font())
        assert label.height() >= fresh.heightForWidth(label.width()), label.text()
    assert panel.accounting_label.height() > panel.total_label.height()  # it did wrap at this width


def test_the_ledger_table_is_refreshed_without_composing_the_hidden_timeline(qtbot, monkeypatch):
    """One composition per entry takes seconds on thousands of entries: a refresh with the Ledger table shown
    composes nothing; the timeline composes its entries once, when it is shown."""
    composed: list[int] = []
    spend_timeline = budget_timeline.spend_timeline
    monkeypatch.setattr(
        budget_timeline,
        "spend_timeline",
        lambda entries, total: composed.append(len(entries)) or spend_timeline(entries, total),
    )
    page = BudgetPage()
    qtbot.addWidget(page)
    page.show()
    now = datetime.now(UTC)
    entries = [
        LedgerEntry(
            f"r{i}", now, "x", PrivacyCost(0.1), ReservationStatus.COMMITTED, "id", Account.REPLACE_ONE
        )
        for i in range(3)
    ]
    page.show_ledger(entries, PrivacyCost(1.0))
    page.show_ledger(entries, PrivacyCost(1.0))
    assert page.ledger_table.rowCount() == 3 and composed == []
    page.ledger_tabs.setCurrentWidget(page.timeline)
    qtbot.waitUntil(page.timeline.composing.isHidden)
    assert [point.epsilon for point in page.timeline.timeline] == pytest.approx([0.1, 0.2, 0.3])
    assert composed == [3]


def test_ledger_rows_stay_one_line_high_while_the_planners_reasons_wrap(qtbot):
    """Sizing every ledger row to its wrapped text took seconds on thousands of entries: a long release
    description is cut in its one-line row (whole in the tooltip); the planner's rows still wrap."""
    page = BudgetPage()
    qtbot.addWidget(page)
    page.resize(900, 700)
    page.show()
    now = datetime.now(UTC)
    long = "median of wage " * 40
    entry = LedgerEntry(
        "r", now, long, PrivacyCost(0.1), ReservationStatus.COMMITTED, "id", Account.REPLACE_ONE
    )
    page.show_ledger([entry], PrivacyCost(1.0))
    table = page.ledger_table
    one_line = table.verticalHeader().minimumSectionSize()
    assert table.rowHeight(0) == one_line
    assert table.item(0, LEDGER_COLUMNS.index("Release")).toolTip() == long
    page.planner_tabs.setCurrentWidget(page.plan_table)
    page.plan_table.setRowCount(1)
    page.plan_table.setItem(0, PLAN_COLUMNS.index("Feasible"), QTableWidgetItem(long))
    qtbot.waitUntil(lambda: page.plan_table.rowHeight(0) > one_line)


def test_the_timeline_composes_off_the_gui_thread_and_draws_only_the_latest_entries(qtbot, monkeypatch):
    """On thousands of entries the accountant takes seconds to minutes: the Timeline tab says it is composing
    while the GUI thread goes on, and a composition for entries no longer shown is never drawn."""
    let_go = threading.Event()
    spend_timeline = budget_timeline.spend_timeline

    def held(entries, total):
        let_go.wait(10)
        return spend_timeline(entries, total)

    monkeypatch.setattr(budget_timeline, "spend_timeline", held)
    page = BudgetPage()
    qtbot.addWidget(page)
    page.show()
    now = datetime.now(UTC)

    def entries(count: int) -> list[LedgerEntry]:
        return [
            LedgerEntry(
                f"r{i}", now, "x", PrivacyCost(0.1), ReservationStatus.COMMITTED, "id", Account.REPLACE_ONE
            )
            for i in range(count)
        ]

    page.show_ledger(entries(3), PrivacyCost(1.0))
    page.ledger_tabs.setCurrentWidget(page.timeline)  # returns while the composition is held
    assert page.timeline.composing.isVisible() and "3 ledger entries" in page.timeline.composing.text()
    page.show_ledger(entries(2), PrivacyCost(1.0))
    assert "2 ledger entries" in page.timeline.composing.text()
    with qtbot.waitSignal(page.timeline.composed, timeout=10_000):
        let_go.set()
    assert not page.timeline.composing.isVisible()
    assert list(page.timeline.steps.yData) == pytest.approx([0.0, 0.0, 0.1, 0.1, 0.2, 0.2])
