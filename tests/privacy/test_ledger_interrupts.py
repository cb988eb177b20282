"""An interrupt or an I/O error between a ledger line and the head file (a ledger audit's kill points):
a reservation never returned is refunded, a touched run stays charged, and a lagging head is caught up."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.privacy import ledger_store
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, LedgerTampered, ReservationStatus
from dpgui.tasks.runner import settle_failed_run

SHA = "c" * 64


@pytest.fixture
def ledger_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DPGUI_HOME", str(tmp_path / "home"))
    return tmp_path / "home" / "ledger.jsonl"


def with_budget(ledger: Ledger) -> str:
    record = ledger.open_dataset(Path("wages.csv"), SHA)
    ledger.set_total(record.id, PrivacyCost(2.0))
    return record.id


def head_write_fails_once(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    """The next write of the head file raises ``error`` after the transaction's line is on disk."""
    real = ledger_store.LedgerFile._write_head

    def fail_once(self: ledger_store.LedgerFile) -> None:
        monkeypatch.setattr(ledger_store.LedgerFile, "_write_head", real)
        raise error

    monkeypatch.setattr(ledger_store.LedgerFile, "_write_head", fail_once)


def test_ctrl_c_after_the_reservation_line_refunds_the_run_that_never_started(ledger_path, monkeypatch):
    ledger = Ledger()
    dataset_id = with_budget(ledger)
    head_write_fails_once(monkeypatch, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        ledger.reserve(dataset_id, PrivacyCost(1.0), "median of wage")
    (entry,) = Ledger().entries(dataset_id)
    assert entry.status is ReservationStatus.REFUNDED
    assert Ledger().state(dataset_id).spent.epsilon == 0


def test_a_failure_after_the_touched_line_commits_the_run_instead_of_a_refused_refund(
    ledger_path, monkeypatch
):
    ledger = Ledger()
    dataset_id = with_budget(ledger)
    reservation = ledger.reserve(dataset_id, PrivacyCost(1.0), "median of wage")
    head_write_fails_once(monkeypatch, OSError("disk went away"))
    with pytest.raises(OSError):
        ledger.mark_touched(reservation)  # the touched line is written; the run never learns so
    settle_failed_run(ledger, reservation)  # was: "Cannot refund ...: Commit it instead."
    (entry,) = Ledger().entries(dataset_id)
    assert entry.status is ReservationStatus.COMMITTED
    assert Ledger().state(dataset_id).spent.epsilon == pytest.approx(1.0)


def test_reading_the_ledger_brings_a_lagging_head_up_to_date_so_a_removed_line_is_caught(
    ledger_path, monkeypatch
):
    ledger = Ledger()
    dataset_id = with_budget(ledger)
    monkeypatch.setattr(ledger_store.LedgerFile, "_write_head", lambda self: None)  # a crash before it
    ledger.reserve(dataset_id, PrivacyCost(1.0), "median of wage")
    monkeypatch.undo()
    monkeypatch.setenv("DPGUI_HOME", str(ledger_path.parent))
    Ledger().state(dataset_id)  # a read-only command: `dpgui budget show`
    lines = ledger_path.read_text().splitlines(keepends=True)
    ledger_path.write_text("".join(lines[:-1]))  # the unresolved charge removed
    with pytest.raises(LedgerTampered, match="truncated"):
        Ledger()
