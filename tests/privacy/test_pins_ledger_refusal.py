"""Pins found by the mutation scan of the ledger: refusals that no other test exercised.

Each test names the one-line mutant it kills.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState, Ledger, LedgerError, LedgerTampered
from dpgui.privacy.ledger_store import EventType, LedgerFile, ReservationUpdate

SHA = "b" * 64


@pytest.fixture
def ledger_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DPGUI_HOME", str(tmp_path))
    return tmp_path / "ledger.jsonl"


def _append_chained(path: Path, event_type: EventType, payload: ReservationUpdate) -> None:
    """Append a line with a valid hash chain (as another process, or an edit that re-chains, would)."""
    store = LedgerFile(path)
    with store.locked():
        store.append(event_type, payload)


def test_a_second_outcome_for_a_committed_reservation_is_tampering(ledger_path: Path) -> None:
    """ledger.py _apply: `if booking.outcome is not None: raise ValueError(...)` -> `if False:` (or the raise
    -> pass). A refund appended after the commit would otherwise flip the spend back into the budget."""
    ledger = Ledger(ledger_path)
    record = ledger.open_dataset(Path("people.csv"), SHA)
    ledger.set_total(record.id, PrivacyCost(1.0))
    spent = ledger.reserve(record.id, PrivacyCost(1.0), "whole budget")
    ledger.mark_touched(spent)
    ledger.commit(spent, "release-1")
    _append_chained(ledger_path, EventType.REFUNDED, ReservationUpdate(spent.id))
    with pytest.raises(LedgerTampered):
        Ledger(ledger_path)
    with pytest.raises(LedgerTampered):
        ledger.reserve(record.id, PrivacyCost(1.0), "would overspend")


def test_a_running_ledger_keeps_refusing_after_an_inconsistent_event(ledger_path: Path) -> None:
    """ledger.py _transaction: `if self._broken is not None:` -> `if False:` (or its raise -> pass). An event
    that verifies on the chain but not against the state is read once; the ledger must refuse from then on."""
    ledger = Ledger(ledger_path)
    record = ledger.open_dataset(Path("people.csv"), SHA)
    ledger.set_total(record.id, PrivacyCost(1.0))
    _append_chained(ledger_path, EventType.COMMITTED, ReservationUpdate("no-such-reservation"))
    with pytest.raises(LedgerTampered):
        ledger.state(record.id)
    with pytest.raises(LedgerTampered):
        ledger.reserve(record.id, PrivacyCost(0.5), "after tampering was seen")
    with pytest.raises(LedgerTampered):
        ledger.datasets()


def test_a_total_for_an_unknown_dataset_is_refused_without_writing(ledger_path: Path) -> None:
    """ledger.py set_total: `self._dataset(dataset_id)` -> `pass`. The TOTAL_SET line would be written for an
    unknown dataset, and the ledger would then read as tampered for good."""
    ledger = Ledger(ledger_path)
    ledger.open_dataset(Path("people.csv"), SHA)
    lines_before = ledger_path.read_text().splitlines()
    with pytest.raises(LedgerError) as refused:
        ledger.set_total("no-such-dataset", PrivacyCost(1.0))
    assert not isinstance(refused.value, LedgerTampered)
    assert ledger_path.read_text().splitlines() == lines_before
    assert len(Ledger(ledger_path).datasets()) == 1


def test_no_saving_is_claimed_against_a_basic_figure_of_larger_delta() -> None:
    """ledger.py BudgetState.saving: `if self.spent_basic is None or self.spent_basic.delta > ...:` ->
    `if False:`. Basic composition at a larger delta is no saving to report (the words then claim one
    guarantee at the total's delta beside a basic figure that does not hold at it)."""
    state = BudgetState(
        total=PrivacyCost(10.0, 1e-6),
        spent=PrivacyCost(1.5, 1e-6),
        pending=PrivacyCost(0.0),
        remaining=PrivacyCost(8.5, 0.0),
        spent_basic=PrivacyCost(2.0, 2e-6),
    )
    assert state.saving == 0.0
