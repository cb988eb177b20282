"""A ledger whose lock another process holds (stopped or hung) is refused after LOCK_TIMEOUT_SECONDS with
a message naming the lock, instead of every command waiting on it without a word; the lock is released
after every transaction, so the next command is not kept waiting by this one."""

from __future__ import annotations

import multiprocessing
import threading
from pathlib import Path

import pytest
from filelock import FileLock

import dpgui.privacy.ledger_store as ledger_store
from dpgui.cli.errors import EXIT_USAGE, run_guarded
from dpgui.privacy import accountant
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, LedgerBusy


def _hold_lock(lock_path: str, ready: multiprocessing.Event, done: multiprocessing.Event) -> None:
    with FileLock(lock_path):
        ready.set()
        done.wait(30)


def test_a_lock_held_by_another_process_is_refused_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "ledger.jsonl"
    Ledger(path).datasets()  # creates the ledger
    monkeypatch.setattr(ledger_store, "LOCK_TIMEOUT_SECONDS", 0.2)
    context = multiprocessing.get_context("spawn")
    ready, done = context.Event(), context.Event()
    holder = context.Process(target=_hold_lock, args=(str(path) + ".lock", ready, done))
    holder.start()
    try:
        assert ready.wait(30)
        with pytest.raises(LedgerBusy, match=r"ledger\.jsonl\.lock"):
            Ledger(path).datasets()
        assert run_guarded(lambda: Ledger(path).datasets()) == EXIT_USAGE
        assert "stopped or hung" in capsys.readouterr().err
    finally:
        done.set()
        holder.join(30)
    assert Ledger(path).datasets() == []  # once the holder is gone


def test_a_transaction_releases_the_lock_it_took(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger = Ledger(path)
    ledger.datasets()
    ledger.datasets()
    with FileLock(str(path) + ".lock", timeout=0.5):  # free again: a leaked acquire would time out here
        pass


def test_a_budget_state_holds_the_lock_to_read_the_ledger_not_while_it_composes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Composing a long ledger takes seconds: the window's ledger and other processes are not kept waiting."""
    path = tmp_path / "ledger.jsonl"
    ledger = Ledger(path)
    record = ledger.open_dataset(tmp_path / "data.csv", "ab" * 32)
    ledger.set_total(record.id, PrivacyCost(5.0, 1e-6))
    ledger.commit(ledger.reserve(record.id, PrivacyCost(0.5, 1e-7), "median"), "r")
    composing, finish = threading.Event(), threading.Event()
    compose = accountant._pld_epsilon

    def slow(items, delta):
        composing.set()
        assert finish.wait(30)
        return compose(items, delta)

    monkeypatch.setattr(accountant, "_pld_epsilon", slow)
    monkeypatch.setattr(ledger_store, "LOCK_TIMEOUT_SECONDS", 0.2)
    accountant._compose.cache_clear()
    reader = threading.Thread(target=ledger.state, args=(record.id,))
    reader.start()
    try:
        assert composing.wait(30)
        assert Ledger(path).datasets()[0].id == record.id  # another process's view: the file is not locked
        same = threading.Thread(target=ledger.entries, args=(record.id,))
        same.start()
        same.join(10)
        assert not same.is_alive()  # the same ledger's other calls go on too
    finally:
        finish.set()
        reader.join(30)
