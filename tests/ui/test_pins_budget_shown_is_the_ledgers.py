"""The budget the window shows is the ledger's: the running reservations counted once, each account's own.

Planted errors ui-bar-without-pending, ui-running-cost-counted-twice and ui-labels-only-shows-replace-one
passed the other tests: none looked at the bar during a run or at a labels-only spend through the window.
"""

from __future__ import annotations

import pytest

from dpgui.paths import demo_private_path
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetState
from dpgui.ui.budget_panel import BudgetPanel
from dpgui.ui.main_window import MainWindow
from tests.ui.test_main_window import pick_cdf


def test_the_bar_counts_the_running_reservations_as_used(qtbot):
    panel = BudgetPanel()
    qtbot.addWidget(panel)
    state = BudgetState(PrivacyCost(10.0), PrivacyCost(2.0), PrivacyCost(1.0), PrivacyCost(7.0))
    panel.show_state(state, PrivacyCost(1.0))
    assert panel.bar.fractions == pytest.approx((0.3, 0.1, 0.6))
    assert "running" in panel.spent_label.text()


def test_during_a_run_the_bar_shows_its_reservation_once(qtbot, window: MainWindow, errors):
    """The running release is pending in the ledger; the Budget page's ε is not added a second time."""
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(4.0))
    pick_cdf(window, algorithm="tree-laplace")
    window.start_release()
    job = window.current_job
    assert job is not None
    assert window.budget_panel.bar.fractions == pytest.approx((0.25, 0.0, 0.75))
    with qtbot.waitSignal(job.released, timeout=15000):
        pass


def test_the_labels_only_spend_shown_is_that_accounts(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(demo_private_path())
    record = window.record
    assert record is not None
    window.ledger.set_total(record.id, PrivacyCost(5.0))
    window.ledger.commit(window.ledger.reserve(record.id, PrivacyCost(2.0), "replace-one release"))
    labels = window.ledger.reserve(record.id, PrivacyCost(0.7), "labels-only release", Account.LABELS_ONLY)
    window.ledger.commit(labels)
    window.refresh_budget()
    text = window.budget_page.labels_only.text()
    assert not window.budget_page.labels_only.isHidden() and "spent ε = 2.7" in text  # with the replace-one
    assert window.budget_panel.spent_label.text().startswith("ε = 2")
