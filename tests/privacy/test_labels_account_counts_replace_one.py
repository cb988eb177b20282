"""The labels-only account composes the replace-one releases with its own: changing one row's label
replaces that record, so a replace-one release at epsilon also costs epsilon for the labels. Counting the
labels-only releases alone let a label lose up to twice the total (an audit's reproduction, below)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetExceeded, Ledger


@pytest.fixture
def ledger_and_dataset(tmp_path: Path) -> tuple[Ledger, str]:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    record = ledger.open_dataset(Path("e.csv"), "c" * 64)
    ledger.set_total(record.id, PrivacyCost(1.0))
    return ledger, record.id


def _committed(ledger: Ledger, dataset_id: str, epsilon: float, account: Account) -> None:
    reservation = ledger.reserve(dataset_id, PrivacyCost(epsilon), "release", account)
    ledger.mark_touched(reservation)
    ledger.commit(reservation, "release")


def test_a_labels_only_release_after_a_replace_one_release_at_the_total_is_refused(ledger_and_dataset):
    ledger, dataset_id = ledger_and_dataset
    _committed(ledger, dataset_id, 1.0, Account.REPLACE_ONE)
    assert ledger.state(dataset_id, Account.LABELS_ONLY).spent == PrivacyCost(1.0)
    with pytest.raises(BudgetExceeded, match="on its labels-only account"):
        ledger.reserve(dataset_id, PrivacyCost(1.0), "label-private learner", Account.LABELS_ONLY)


def test_a_replace_one_release_that_would_overspend_the_labels_is_refused(ledger_and_dataset):
    ledger, dataset_id = ledger_and_dataset
    _committed(ledger, dataset_id, 0.7, Account.LABELS_ONLY)
    assert ledger.state(dataset_id, Account.REPLACE_ONE).spent == PrivacyCost(0.0)  # no replace-one bound
    with pytest.raises(BudgetExceeded, match="on its labels-only account"):
        ledger.reserve(dataset_id, PrivacyCost(0.5), "CDF of wage")
    _committed(ledger, dataset_id, 0.3, Account.REPLACE_ONE)
    assert ledger.state(dataset_id, Account.LABELS_ONLY).spent.epsilon == pytest.approx(1.0)
    assert ledger.state(dataset_id, Account.REPLACE_ONE).spent.epsilon == pytest.approx(0.3)
