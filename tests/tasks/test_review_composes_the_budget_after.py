"""The review's "budget left after this release" is the ledger's composition, not the remainder minus the
release's own cost: with a delta to share between releases, the epsilon left can fall by more than the
release's epsilon (an audit's case: two zCDP releases, then one with delta; the review said 0.0762 left
where 0.0166 was). The ledger refused correctly all along; the review misstated what would be left."""

from __future__ import annotations

from pathlib import Path

from dpgui.privacy.cost import PrivacyCost, zcdp_epsilon
from dpgui.privacy.curve import PrivacyCurve
from dpgui.privacy.ledger import Ledger, ReservationRequest


def test_the_budget_after_a_release_with_delta_is_composed(tmp_path: Path):
    ledger = Ledger(tmp_path / "ledger.jsonl")
    record = ledger.open_dataset(Path("e.csv"), "d" * 64)
    total = PrivacyCost(2.0, 1e-6)
    ledger.set_total(record.id, total)
    for _ in range(2):
        cost = PrivacyCost(zcdp_epsilon(0.03, 1e-6), 1e-6)
        booked = ledger.reserve(record.id, cost, "zCDP release", curve=PrivacyCurve(rho=0.03))
        ledger.commit(booked, "release")
    before = ledger.state(record.id).remaining
    new = PrivacyCost(0.3, 5e-7)
    after = ledger.remaining_with(record.id, [ReservationRequest(new, "new release")])
    assert after is not None and before is not None
    assert after.epsilon < before.epsilon - new.epsilon - 0.03  # the delta now shared costs epsilon too
    booked = ledger.reserve(record.id, new, "new release")
    ledger.commit(booked, "release")
    assert ledger.state(record.id).remaining == after  # what the review said is what is left
    assert ledger.remaining_with(record.id, []) == after
