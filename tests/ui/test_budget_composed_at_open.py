"""Opening a file whose ledger record holds many releases composes their budget in the open's worker, so the
window's first look at the budget does not compose it on the GUI thread."""

from __future__ import annotations

import threading
from pathlib import Path

import pandas as pd
import pytest

from dpgui.data.backends import Engine
from dpgui.data.fingerprint import sha256_file
from dpgui.privacy import accountant
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.curve import NoiseKind, NoiseRounds, PrivacyCurve
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.ledger_store import LedgerBusy
from dpgui.ui.main_window import MainWindow


@pytest.fixture
def spent_file(tmp_path: Path) -> tuple[Path, Ledger]:
    """A file and a ledger in which it has a total with delta and releases the PLD accountant composes."""
    path = tmp_path / "spent.csv"
    pd.DataFrame({"value": range(50)}).to_csv(path, index=False)
    ledger = Ledger(tmp_path / "ledger.jsonl")
    record = ledger.open_dataset(path, sha256_file(path))
    ledger.set_total(record.id, PrivacyCost(10.0, 1e-6))
    for i in range(6):
        noise = NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 20.0 + i, 1, 2)
        reservation = ledger.reserve(record.id, PrivacyCost(0.1), f"cdf {i}", curve=PrivacyCurve((noise,)))
        ledger.commit(reservation, "r")
    return path, ledger


def test_the_budget_of_an_opened_file_is_composed_in_the_worker_not_on_the_gui_thread(
    qtbot, spent_file, monkeypatch
):
    path, ledger = spent_file
    composing_threads: list[threading.Thread] = []
    compose_pld = accountant._pld_epsilon

    def observed(items, delta):
        composing_threads.append(threading.current_thread())
        return compose_pld(items, delta)

    monkeypatch.setattr(accountant, "_pld_epsilon", observed)
    accountant._compose.cache_clear()  # another test may have composed the same releases
    window = MainWindow(ledger=ledger)
    qtbot.addWidget(window)
    window.data_page.select_engine(Engine.MEMORY)
    window.open_private(window.data_page.request(str(path)))
    with qtbot.waitSignal(window.open_job.opened, timeout=20_000):
        pass

    gui = threading.main_thread()
    assert composing_threads, "the open did not compose the budget"
    assert all(thread is not gui for thread in composing_threads)
    qtbot.waitUntil(lambda: window.record is not None, timeout=5_000)
    composed = len(composing_threads)
    state = window.ledger.state(window.record.id)
    assert len(composing_threads) == composed  # read from the accountant's cache
    assert state.saving > 0  # the PLD accountant's figure, not basic composition


def test_a_ledger_the_worker_cannot_read_does_not_fail_the_open(qtbot, spent_file, monkeypatch):
    """Composing ahead only saves time: a busy ledger is left to the window, which reports it itself."""
    path, ledger = spent_file

    def busy(*args, **kwargs):
        raise LedgerBusy("the ledger's lock is held by another process")

    window = MainWindow(ledger=ledger)
    qtbot.addWidget(window)
    monkeypatch.setattr(ledger, "find", busy)
    window.data_page.select_engine(Engine.MEMORY)
    window.open_private(window.data_page.request(str(path)))
    with qtbot.waitSignal(window.open_job.opened, timeout=20_000):
        pass
