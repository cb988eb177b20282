"""What the window's background jobs share: a generator run in Qt's thread pool, reporting its progress
(a scanning engine's too, through a :class:`~dpgui.data.backends.ScanMonitor`), and a cooperative cancel."""

from __future__ import annotations

from collections.abc import Generator

from PySide6.QtCore import QObject, QThreadPool, Signal

from dpgui.algorithms.progress import Progress
from dpgui.data.backends import ScanCancelled, ScanMonitor
from dpgui.jobs.worker import Cancelled, GeneratorWorker
from dpgui.privacy.cancellable import DrawCancelled


def stopped_by_user(error: BaseException) -> bool:
    """Whether a run ended because of a cancel: between its steps, inside an engine's scan, or between two
    noise draws."""
    return isinstance(error, Cancelled | ScanCancelled | DrawCancelled)


class PoolJob(QObject):
    """Base of a one-use job: a subclass builds its generator, then calls :meth:`_run_in_pool` once."""

    progress = Signal(float, str)

    def _run_in_pool(
        self, generator: Generator[Progress, None, object], monitor: ScanMonitor | None, activity: str
    ) -> GeneratorWorker:
        """The worker for ``generator``; a scanning engine's reports reach ``progress`` as "activity: 40%"
        and its scan stops when this job is cancelled."""
        worker = GeneratorWorker(generator)
        signals = worker.signals
        if monitor is not None:
            monitor.watch(
                lambda fraction: signals.progress.emit(fraction, f"{activity}: {fraction:.0%}"),
                worker.is_cancelled,
            )
        signals.progress.connect(self.progress)
        self._worker = worker
        return worker

    def start(self, pool: QThreadPool | None = None) -> None:
        """Run in ``pool`` (default: the global thread pool)."""
        self._worker.start(pool)

    def cancel(self) -> None:
        """Ask the run to stop before its next step or scanned batch (safe from any thread)."""
        self._worker.cancel()

    def finish_now(self) -> None:
        """Ask the run to end early with its result (AIM's next round is its last; safe from any thread)."""
        self._worker.finish_now()
