"""Pins found by the mutation scan of the generator worker (dpgui/jobs/worker.py, notes/mutscan_rel17.md).

test_worker.py cancels a worker before it starts only, when there is no generator frame to close yet. A
worker that abandoned a cancelled run without closing it passed, as did one that raised a host's shorter
thread switch interval or let Qt delete it after its run.
"""

from __future__ import annotations

import sys
from collections.abc import Generator

import pytest
from PySide6.QtCore import QThreadPool
from pytestqt.qtbot import QtBot

from dpgui.algorithms.progress import Progress
from dpgui.jobs.worker import GUI_SWITCH_INTERVAL, Cancelled, GeneratorWorker


def test_a_run_cancelled_between_steps_is_closed_before_failed_is_emitted(
    qtbot: QtBot, pool: QThreadPool
) -> None:
    """Rule: a cancel between two steps closes the run's generator, so its ``finally`` blocks (an engine's
    scan, a temporary file) run in the worker before ``failed`` reports the cancel, not whenever the
    garbage collector gets to it. Kills ``self._generator.close()`` removed."""
    log: list[str] = []
    holder: list[GeneratorWorker] = []

    def cancelled_after_one_step() -> Generator[Progress, None, int]:
        try:
            holder[0].cancel()
            yield Progress(0.5, "one")
            log.append("second step ran")
            yield Progress(1.0, "two")
            return 2
        finally:
            log.append("closed")

    worker = GeneratorWorker(cancelled_after_one_step())
    holder.append(worker)
    seen: list[list[str]] = []
    worker.signals.failed.connect(lambda error: seen.append(list(log)))
    with qtbot.waitSignal(worker.signals.failed, timeout=5000) as failed:
        worker.start(pool)
    assert isinstance(failed.args[0], Cancelled)
    assert seen == [["closed"]]


def test_starting_a_worker_never_raises_a_shorter_switch_interval(qtbot: QtBot, pool: QThreadPool) -> None:
    """Rule: the worker lowers the interpreter's thread switch interval to GUI_SWITCH_INTERVAL and never
    raises it: a host that set a shorter one keeps it. Kills the guard replaced by ``if True:``."""
    original = sys.getswitchinterval()
    shorter = GUI_SWITCH_INTERVAL / 5
    sys.setswitchinterval(shorter)
    try:
        worker = GeneratorWorker(_one_step())
        with qtbot.waitSignal(worker.signals.finished, timeout=5000):
            worker.start(pool)
        assert sys.getswitchinterval() == pytest.approx(shorter)
    finally:
        sys.setswitchinterval(original)


def test_qt_never_deletes_a_worker_python_still_holds() -> None:
    """Rule: a worker is not auto-deleted by the pool after its run: the job keeps the Python object (to
    cancel it, to read its signals), and a C++ object deleted under it would crash the window. Kills
    ``self.setAutoDelete(False)`` removed."""
    assert GeneratorWorker(_one_step()).autoDelete() is False


def _one_step() -> Generator[Progress, None, int]:
    yield Progress(1.0, "done")
    return 1


def test_a_worker_runs_in_the_pool_it_is_given(qtbot: QtBot, pool: QThreadPool) -> None:
    """Rule: ``start(pool)`` runs the generator in that pool (a job's tests, and the window's own pool,
    drain it before the ledger goes away), not in the global one. Kills ``pool or global`` -> ``and``."""
    seen: list[int] = []

    def counting() -> Generator[Progress, None, int]:
        seen.append(pool.activeThreadCount())
        yield Progress(1.0, "done")
        return 1

    worker = GeneratorWorker(counting())
    with qtbot.waitSignal(worker.signals.finished, timeout=5000):
        worker.start(pool)
    assert seen == [1]
