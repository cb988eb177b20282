"""Opening the private data in a worker: loading it in memory, or counting its rows with a scanning engine.

A large file or a Spark table takes seconds to minutes to open (the row count is a scan, the fingerprint a
pass over the bytes), so the window runs :func:`dpgui.data.backends.open_aggregator` in a pool thread,
shows its progress and lets the custodian cancel. Opening reads nothing that is released and spends no
budget: the row count n is public under the neighbouring relation used throughout.
"""

from __future__ import annotations

import traceback
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QObject, QThreadPool, Signal

from dpgui.algorithms.progress import Progress
from dpgui.data.backends import Engine, OpenedData, ScanCancelled, ScanMonitor, open_aggregator
from dpgui.jobs.worker import Cancelled, GeneratorWorker


@dataclass(frozen=True)
class OpenRequest:
    """What to open and with which engine: a file, or a Spark catalog ``table`` (Spark only)."""

    path: Path | None
    engine: Engine = Engine.AUTO
    table: str | None = None
    spark_master: str | None = None

    @property
    def name(self) -> str:
        return self.table if self.path is None else self.path.name  # type: ignore[return-value]


def open_private(request: OpenRequest, monitor: ScanMonitor) -> OpenedData:
    """Open the request's data; a scanning engine reports to (and is cancelled through) ``monitor``."""
    return open_aggregator(
        request.path,
        request.engine,
        table=request.table,
        spark_master=request.spark_master or None,
        progress=monitor.progress,
        cancelled=monitor.cancelled,
    )


def _opening(request: OpenRequest, monitor: ScanMonitor) -> Generator[Progress, None, OpenedData]:
    opened = open_private(request, monitor)
    yield Progress(1.0, f"opened {request.name}: {opened.dataset.n_rows:,} rows")
    return opened


class OpenJob(QObject):
    """Open the private data in the thread pool; exactly one of ``opened``, ``failed``, ``cancelled``."""

    progress = Signal(float, str)
    opened = Signal(object)
    """The :class:`OpenedData`."""
    failed = Signal(object)
    """The exception (a ``DataError`` for a file that cannot be read); its traceback is in :attr:`details`."""
    cancelled = Signal()

    def __init__(self, request: OpenRequest, monitor: ScanMonitor, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.request = request
        self.details = ""
        self._worker = GeneratorWorker(_opening(request, monitor))
        monitor.watch(self._scan_progress, self._worker.is_cancelled)
        self._worker.signals.progress.connect(self.progress)
        self._worker.signals.finished.connect(self.opened)
        self._worker.signals.failed.connect(self._on_failed)

    def start(self, pool: QThreadPool | None = None) -> None:
        self._worker.start(pool)

    def cancel(self) -> None:
        self._worker.cancel()

    def _scan_progress(self, fraction: float) -> None:
        self._worker.signals.progress.emit(fraction, f"reading {self.request.name}: {fraction:.0%}")

    def _on_failed(self, error: Exception) -> None:
        if isinstance(error, Cancelled | ScanCancelled):
            self.cancelled.emit()
            return
        self.details = "".join(traceback.format_exception(error))
        self.failed.emit(error)
