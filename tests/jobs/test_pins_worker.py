"""Pins found by the mutation scan of the generator worker (dpgui/jobs/worker.py, notes/mutscan_rel17.md).

test_worker.py cancels a worker before it starts only, when there is no generator frame to close yet. A
worker that abandoned a cancelled run without closing it passed.
"""

from __future__ import annotations

from collections.abc import Generator

from PySide6.QtCore import QThreadPool
from pytestqt.qtbot import QtBot

from dpgui.algorithms.progress import Progress
from dpgui.jobs.worker import Cancelled, GeneratorWorker


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
