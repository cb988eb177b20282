"""The review before a charge, of one release or of a plan, is composed in the thread pool.

Its predicted error may simulate the algorithm, and the ledger's answer to "does it fit" composes every
earlier release with the new ones: about a second on a ledger of 1,000 mixed releases, which the window
spent frozen, on the GUI thread, once the prepared review arrived (and for a plan, on the click).
A review composed against a ledger that has moved since is composed again, not shown.
"""

from __future__ import annotations

import threading

from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.spec import TaskKind
from dpgui.ui import main_window
from dpgui.ui.main_window import MainWindow, _prepared_review
from tests.ui.test_main_window import review_shown
from tests.ui.test_plan_view import plan_two_wage_releases
from tests.ui.test_review_sheet import WEEKLY, one_column_task


def on_the_gui_thread(monkeypatch, name: str) -> list[bool]:
    """Record, for each call of ``main_window.<name>``, whether it ran on the GUI thread."""
    calls: list[bool] = []
    real = getattr(main_window, name)

    def recording(*args, **kwargs):
        calls.append(threading.current_thread() is threading.main_thread())
        return real(*args, **kwargs)

    monkeypatch.setattr(main_window, name, recording)
    return calls


def test_a_releases_review_is_composed_against_the_ledger_in_the_pool(qtbot, demo_window, monkeypatch):
    window = demo_window
    one_column_task(window, TaskKind.CDF, "wage", WEEKLY)
    calls = on_the_gui_thread(monkeypatch, "release_review")
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    assert calls == [False]
    assert sheet.review.remaining_before == PrivacyCost(5.0)
    sheet.reject()


def test_a_plans_reviews_are_composed_in_the_pool(qtbot, window: MainWindow, monkeypatch):
    window.ledger.set_total(window.record.id, PrivacyCost(3.0))
    window.task_page.select_task(TaskKind.CDF)
    batch = plan_two_wage_releases(qtbot, window).batch
    calls = on_the_gui_thread(monkeypatch, "plan_reviews")
    window.review_plan(batch)
    assert window.review_sheet is None  # nothing composed on the click
    sheet = review_shown(qtbot, window)
    assert calls == [False] and [name for name, _ in sheet.reviews] == ["cdf of wage", "median of wage"]
    sheet.reject()


def test_a_review_of_a_ledger_that_moved_meanwhile_is_composed_again(qtbot, demo_window: MainWindow):
    """The custodian raised the total while the review was prepared: the sheet states the new total."""
    window = demo_window
    one_column_task(window, TaskKind.CDF, "wage", WEEKLY)
    stale = _prepared_review(window.current_spec(), window.dataset, window.ledger, window.record.id)
    window.ledger.set_total(window.record.id, PrivacyCost(7.0))
    window._show_review(stale)
    assert window.review_sheet is None  # not shown: prepared again
    sheet = review_shown(qtbot, window)
    assert sheet.review.remaining_before == PrivacyCost(7.0)
    sheet.reject()
