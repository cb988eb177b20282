"""Pins found by planting errors in the background jobs (tools/planted_errors.py, session 29).

No test ran :class:`~dpgui.jobs.background.LatestCall` (the planner previews) outside the views, nor the
open job's cancel and its budget composed ahead, nor a job's Finish now: a stale preview shown, an error
swallowed, a cancelled open also reported failed, an unreadable ledger failing the open and Finish now
cancelling the run all passed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from pathlib import Path
from types import SimpleNamespace

import pytest
from PySide6.QtCore import QCoreApplication, QThreadPool, Signal
from pytestqt.qtbot import QtBot

from dpgui.algorithms.progress import FINISH_NOW, Progress
from dpgui.data.backends import Engine, ScanCancelled, ScanMonitor
from dpgui.jobs.background import LatestCall
from dpgui.jobs.open_job import OpenJob, OpenRequest, compose_budget_ahead, open_private
from dpgui.jobs.pool_job import PoolJob
from dpgui.privacy.ledger_store import LedgerError

WAIT_MS = 10_000


def _settled() -> None:
    """Wait for the global pool's runs to end, then deliver the signals they queued to this thread."""
    QThreadPool.globalInstance().waitForDone()
    QCoreApplication.sendPostedEvents()


def _waiting_for(gate: threading.Event, value: str) -> Callable[[], str]:
    def call() -> str:
        gate.wait(WAIT_MS / 1000)
        return value

    return call


@pytest.fixture
def csv_file(tmp_path: Path) -> Path:
    path = tmp_path / "ages.csv"
    path.write_text("age\n" + "".join(f"{20 + i % 50}\n" for i in range(200)))
    return path


def test_an_older_preview_arriving_after_a_newer_one_is_dropped(qtbot: QtBot) -> None:
    """Rule: only the latest call's outcome is shown, whatever order the calls end in. Kills the ticket
    compared with ``>`` instead of ``!=``."""
    latest, shown = LatestCall(), []
    latest.done.connect(shown.append)
    gate = threading.Event()
    latest.submit(_waiting_for(gate, "old"))
    with qtbot.waitSignal(latest.done, timeout=WAIT_MS):
        latest.submit(lambda: "new")
    gate.set()
    _settled()
    assert shown == ["new"]


def test_a_dropped_call_is_never_shown(qtbot: QtBot) -> None:
    """Rule: after ``drop`` the running call's outcome goes nowhere and nothing is busy. Kills ``drop``
    leaving the ticket as it is."""
    latest, shown = LatestCall(), []
    latest.done.connect(shown.append)
    gate = threading.Event()
    latest.submit(_waiting_for(gate, "dropped"))
    latest.drop()
    assert not latest.busy
    gate.set()
    _settled()
    assert shown == []


def test_a_call_superseded_before_a_thread_took_it_never_runs_and_a_review_goes_first(qtbot: QtBot) -> None:
    """Each Task page change queued a planner call; stale ones ran auto's simulations for seconds each
    ahead of the review the custodian waited for. With one thread held: the superseded call is skipped,
    and a queued call of higher priority starts before an earlier queued one."""
    from PySide6.QtCore import QThreadPool

    pool = QThreadPool.globalInstance()
    threads = pool.maxThreadCount()
    pool.setMaxThreadCount(1)
    try:
        ran: list[str] = []
        gate = threading.Event()
        blocker, planner, reviewer = LatestCall(), LatestCall(), LatestCall(priority=1)
        blocker.submit(_waiting_for(gate, "blocking"))
        planner.submit(lambda: ran.append("stale plan"))
        planner.submit(lambda: ran.append("plan"))
        reviewer.submit(lambda: ran.append("review"))
        gate.set()
        qtbot.waitUntil(lambda: len(ran) >= 2, timeout=WAIT_MS)
        _settled()
        assert ran == ["review", "plan"]
    finally:
        pool.setMaxThreadCount(threads)


def test_a_preview_that_raises_is_reported_through_failed(qtbot: QtBot) -> None:
    """Rule: the call's exception reaches ``failed``; it is not swallowed into a ``done`` without a value."""
    latest, shown = LatestCall(), []
    latest.done.connect(shown.append)

    def broken() -> object:
        raise ValueError("no such column")

    with qtbot.waitSignal(latest.failed, timeout=WAIT_MS) as failed:
        latest.submit(broken)
    assert isinstance(failed.args[0], ValueError)
    _settled()
    assert shown == []


def test_opening_with_a_scanning_engine_stops_when_the_watching_run_cancels(csv_file: Path) -> None:
    """Rule: the engine's row count asks the run watching the monitor whether to stop. Kills the open
    passing ``lambda: False`` and the monitor never asking the run."""
    monitor = ScanMonitor()
    monitor.watch(lambda fraction: None, lambda: True)
    with pytest.raises(ScanCancelled):
        open_private(OpenRequest(csv_file, Engine.EMBEDDED), monitor)


def test_a_cancelled_open_is_reported_as_cancelled_only(
    qtbot: QtBot, pool: QThreadPool, csv_file: Path
) -> None:
    """Rule: exactly one of ``opened``, ``failed``, ``cancelled``."""
    job = OpenJob(OpenRequest(csv_file, Engine.MEMORY), ScanMonitor())
    failures: list[object] = []
    job.failed.connect(failures.append)
    job.cancel()
    with qtbot.waitSignal(job.cancelled, timeout=WAIT_MS):
        job.start(pool)
    pool.waitForDone()
    QCoreApplication.sendPostedEvents()
    assert failures == []


class _UnreadableLedger:
    def find(self, path: Path, sha256: str) -> None:
        raise LedgerError("the ledger is busy")


def test_a_ledger_that_cannot_be_read_does_not_fail_the_open() -> None:
    """Rule: composing the budget ahead only saves time; a ledger error is left to the window."""
    opened = SimpleNamespace(dataset=SimpleNamespace(path=Path("ages.csv"), sha256="0" * 64))
    compose_budget_ahead(_UnreadableLedger(), opened)  # type: ignore[arg-type]


class _RoundsJob(PoolJob):
    finished = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        worker = self._run_in_pool(self._rounds(), None, "rounds")
        worker.signals.finished.connect(self.finished)

    @staticmethod
    def _rounds() -> Generator[Progress, object, str]:
        request = yield Progress(0.5, "round 1")
        if request == FINISH_NOW:
            return "ended early"
        yield Progress(1.0, "round 2")
        return "ran to the end"


def test_finish_now_ends_a_job_early_with_its_result(qtbot: QtBot, pool: QThreadPool) -> None:
    """Rule: Finish now is not a cancel: the run ends at its next step and its result is delivered."""
    job = _RoundsJob()
    job.finish_now()
    with qtbot.waitSignal(job.finished, timeout=WAIT_MS) as finished:
        job.start(pool)
    assert finished.args == ["ended early"]
