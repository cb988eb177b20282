"""The (ε, δ) typed on the Budget page are the ones the review states, the run uses and the ledger charges.

The other window tests run at the default ε = 1 and δ = 0, so a window that sent the default (or dropped
δ) passed them all (planted errors ui-spec-epsilon-default and ui-cost-delta-dropped).
"""

from __future__ import annotations

from dpgui.privacy.cost import PrivacyCost
from dpgui.ui.main_window import MainWindow
from tests.ui.test_main_window import charge_from_the_review, pick_cdf, review_shown, wait_for_the_release


def test_the_epsilon_and_delta_typed_are_reviewed_run_and_charged(qtbot, window: MainWindow, errors):
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(5.0, 1e-5))
    pick_cdf(window, algorithm="tree-gaussian")  # approximate DP: it needs the δ typed
    window.budget_page.epsilon.setValue(0.5)
    window.budget_page.delta.setText("1e-6")
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    assert sheet.review.cost == PrivacyCost(0.5, 1e-6)
    charge_from_the_review(qtbot, window)
    wait_for_the_release(qtbot, window)
    assert window.release is not None
    assert (window.release.spec.epsilon, window.release.spec.delta) == (0.5, 1e-6)
    assert [entry.cost for entry in window.ledger.entries(window.record.id)] == [PrivacyCost(0.5, 1e-6)]
