"""What the review sheet states before a charge: the budget left on the account the release is booked to,
and a data check that is the charged data's own.

The planted errors ui-review-remaining-wrong-account and ui-review-other-specs-data-check-reused passed the
other window tests: their releases are all booked to the replace-one account, and none opens the data
again under an open sheet.
"""

from __future__ import annotations

import pytest

from dpgui.paths import demo_private_path
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account
from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import MainWindow
from tests.ui.conftest import WAGE_DOMAIN
from tests.ui.test_main_window import (
    pick_threshold,
    review_shown,
    wait_for_the_release,
)


def median_of_wage(window: MainWindow) -> None:
    window.task_page.select_task(TaskKind.MEDIAN)
    window.task_page.select_columns(["wage"])
    window.task_page.declare("wage", WAGE_DOMAIN)


def test_a_labels_only_release_is_reviewed_against_the_labels_only_account(qtbot, errors):
    """Without a public sample the label-private learner is booked to the labels-only account: the budget
    before and after it are that account's, which counts the replace-one releases too (2 of 5 spent on
    replace-one releases and 0.5 on a labels-only one: 2.5 left there, 3 on the replace-one account)."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(demo_private_path())
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(5.0))
    window.ledger.commit(window.ledger.reserve(window.record.id, PrivacyCost(2.0), "an earlier release"))
    labels = window.ledger.reserve(window.record.id, PrivacyCost(0.5), "an earlier one", Account.LABELS_ONLY)
    window.ledger.commit(labels)
    pick_threshold(window)
    window.task_page.select_algorithm("label-private")
    window.task_page.parameters.set_values([("accept_labels_only", True)])
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    assert sheet.review.spec.kind is TaskKind.THRESHOLD
    assert window.ledger.state(window.record.id).remaining == PrivacyCost(3.0)
    assert window.ledger.state(window.record.id, Account.LABELS_ONLY).remaining.epsilon == pytest.approx(2.5)
    assert sheet.review.remaining_before.epsilon == pytest.approx(2.5)
    assert dict(sheet.review.summary())["Budget after"] == "ε = 1.5, δ = 0 left (labels-only account)"
    sheet.reject()


def test_a_charge_checks_the_data_again_when_it_was_opened_again_under_the_review(
    qtbot, demo_window: MainWindow, monkeypatch, errors
):
    """The review's data check is reused only for the very dataset it read: reopened, the file may have
    changed, so the charge runs the check on what it will read."""
    from dpgui.jobs import release_job

    passes = []
    real = release_job.checked_data
    monkeypatch.setattr(release_job, "checked_data", lambda *args: passes.append(1) or real(*args))
    window = demo_window
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(5.0))
    median_of_wage(window)
    window.run_action.trigger()
    sheet = review_shown(qtbot, window)
    reviewed = window.dataset
    window.load_private(demo_private_path())
    assert window.dataset is not reviewed
    median_of_wage(window)  # its domains are declared afresh for the file opened
    sheet.acknowledge.setChecked(True)  # the sheet reviewed before the file was opened again
    sheet.charge_button.click()
    wait_for_the_release(qtbot, window)
    assert passes == [1, 1]
