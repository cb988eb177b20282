"""Run a plain function off the GUI thread, keeping only the latest call's outcome (planner previews).

Each call runs as a one-step :class:`~dpgui.jobs.worker.GeneratorWorker` in Qt's thread pool. A newer call
supersedes an older one: the older outcome, if it arrives later, is dropped, so a view never shows a result
for a spec it no longer displays.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from dpgui.algorithms.progress import Progress
from dpgui.jobs.worker import GeneratorWorker


@dataclass(frozen=True)
class Outcome:
    """What call number ``ticket`` returned, or the exception it raised."""

    ticket: int
    value: object
    error: Exception | None


def _one_step(
    ticket: int, function: Callable[[], object], current: Callable[[int], bool]
) -> Generator[Progress, None, Outcome]:
    yield Progress(0.0, "started")
    if not current(ticket):  # superseded while it waited for a thread: its outcome would be dropped
        return Outcome(ticket, None, None)
    try:
        return Outcome(ticket, function(), None)
    except Exception as error:
        return Outcome(ticket, None, error)


class LatestCall(QObject):
    """Runs functions in the thread pool; only the latest :meth:`submit`'s outcome is emitted.

    Create it in the GUI thread with the view as parent: when the view goes, the workers' connections to it
    go too. Workers are kept alive here until they end (the pool holds only a raw pointer to them).
    """

    done = Signal(object)
    """The latest call's return value."""
    failed = Signal(object)
    """The exception the latest call raised."""

    def __init__(self, parent: QObject | None = None, *, priority: int = 0) -> None:
        """``priority``: the pool runs a queued call of higher priority first (a review the custodian waits
        for before the planner's previews)."""
        super().__init__(parent)
        self._latest = 0
        self._priority = priority
        self._running: dict[int, GeneratorWorker] = {}

    @property
    def busy(self) -> bool:
        """Whether the latest call is still running."""
        return self._latest in self._running

    def submit(self, function: Callable[[], object]) -> None:
        """Run ``function()`` in the pool; earlier calls' outcomes will be dropped."""
        self._latest += 1
        worker = GeneratorWorker(_one_step(self._latest, function, self._is_latest))
        worker.signals.finished.connect(self._settle)
        self._running[self._latest] = worker
        worker.start(priority=self._priority)

    def _is_latest(self, ticket: int) -> bool:
        """Whether call ``ticket`` is still the latest (read from a pool thread: one int, no lock needed).

        A superseded call not yet started is skipped: each Task page change queued a planner call, and the
        stale ones ran auto's simulations for seconds each ahead of the review the custodian waited for."""
        return ticket == self._latest

    def drop(self) -> None:
        """Forget the running call: its outcome will not be emitted."""
        self._latest += 1

    def _settle(self, outcome: Outcome) -> None:
        self._running.pop(outcome.ticket, None)
        if outcome.ticket != self._latest:
            return
        if outcome.error is None:
            self.done.emit(outcome.value)
        else:
            self.failed.emit(outcome.error)
