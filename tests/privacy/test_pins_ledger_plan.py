"""A release plan is booked whole: ``Ledger.reserve_all`` checks every request of every account against
the total, so a plan whose later releases overspend is refused before anything is booked.

Checking the plan's first request alone let the rest of the plan overspend; only the command line's batch
tests noticed, so the ledger's own tests pin it here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetExceeded, Ledger, ReservationRequest

SHA = "b" * 64


def plan(*pieces: tuple[float, Account]) -> list[ReservationRequest]:
    return [
        ReservationRequest(PrivacyCost(eps), f"release {i}", account)
        for i, (eps, account) in enumerate(pieces)
    ]


@pytest.fixture
def ledger_and_dataset(tmp_path: Path) -> tuple[Ledger, str]:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    record = ledger.open_dataset(Path("cps1988.csv"), SHA)
    ledger.set_total(record.id, PrivacyCost(1.0))
    return ledger, record.id


def test_a_plan_whose_later_release_overspends_is_refused_whole(
    ledger_and_dataset: tuple[Ledger, str],
) -> None:
    ledger, dataset_id = ledger_and_dataset
    with pytest.raises(BudgetExceeded, match=r"These 2 releases need ε=1\.1 but only ε=1 "):
        ledger.reserve_all(dataset_id, plan((0.5, Account.REPLACE_ONE), (0.6, Account.REPLACE_ONE)))
    assert ledger.entries(dataset_id) == []
    assert len(ledger.reserve_all(dataset_id, plan(*[(0.1, Account.REPLACE_ONE)] * 10))) == 10


def test_each_account_of_a_plan_counts_what_it_must(ledger_and_dataset: tuple[Ledger, str]) -> None:
    """The replace-one account counts its own requests; the labels-only account counts its own and the
    replace-one ones (a replace-one release protects the labels at its cost)."""
    ledger, dataset_id = ledger_and_dataset
    with pytest.raises(BudgetExceeded, match="on its labels-only account"):
        ledger.reserve_all(dataset_id, plan((0.6, Account.REPLACE_ONE), (0.6, Account.LABELS_ONLY)))
    assert ledger.entries(dataset_id) == []
    booked = ledger.reserve_all(
        dataset_id, plan((0.2, Account.REPLACE_ONE), (0.6, Account.LABELS_ONLY), (0.2, Account.REPLACE_ONE))
    )
    assert [r.account for r in booked] == [Account.REPLACE_ONE, Account.LABELS_ONLY, Account.REPLACE_ONE]
