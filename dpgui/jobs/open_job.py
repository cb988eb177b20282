"""Opening the private data in a worker: loading it in memory, or counting its rows with a scanning engine.

A large file or a Spark table takes seconds to minutes to open (the row count is a scan, the fingerprint a
pass over the bytes), so the window runs :func:`dpgui.data.backends.open_aggregator` in a pool thread,
shows its progress and lets the custodian cancel. Opening reads nothing that is released and spends no
budget: the row count n is public under the neighbouring relation used throughout.
"""

from __future__ import annotations

import dataclasses
import traceback
from collections.abc import Generator
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from dpgui.algorithms.progress import Progress
from dpgui.data.backends import Engine, OpenedData, ScanMonitor, open_aggregator
from dpgui.data.text_format import describe_file_format
from dpgui.jobs.pool_job import PoolJob, stopped_by_user
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.ledger_store import Account, LedgerError


@dataclasses.dataclass(frozen=True)
class OpenRequest:
    """What to open and with which engine: a file (delimited text in the declared ``encoding``, None for the
    automatic reading), or a Spark catalog ``table`` (Spark only)."""

    path: Path | None
    engine: Engine = Engine.AUTO
    table: str | None = None
    spark_master: str | None = None
    encoding: str | None = None

    @property
    def name(self) -> str:
        return self.table if self.path is None else self.path.name  # type: ignore[return-value]


def open_private(request: OpenRequest, monitor: ScanMonitor) -> OpenedData:
    """Open the request's data, with the words of how its file is read; a scanning engine reports to (and is
    cancelled through) ``monitor``."""
    opened = open_aggregator(
        request.path,
        request.engine,
        table=request.table,
        spark_master=request.spark_master or None,
        progress=monitor.progress,
        cancelled=monitor.cancelled,
        encoding=request.encoding,
    )
    if request.path is None:
        return opened
    return dataclasses.replace(opened, file_format=describe_file_format(request.path, request.encoding))


def compose_budget_ahead(ledger: Ledger, opened: OpenedData) -> None:
    """Worker thread: compose the budget states of the ledger's record for the opened file, if it has one.

    The accountant caches what it composed (``accountant.compose``), so the window's first ``Ledger.state``
    after the open finds it there instead of composing on the GUI thread: a ledger of 1,000 releases of
    mixed kinds takes about a second to compose, plus dp-accounting's import when it has not finished.
    A ledger that cannot be read (busy, tampered) is left to the window, which says so when it registers
    the file: composing ahead only saves time and must not fail the open."""
    dataset = opened.dataset
    try:
        record = ledger.find(dataset.path, dataset.sha256)
        for account in Account if record is not None else ():
            ledger.state(record.id, account)
    except LedgerError:
        return


def _opening(
    request: OpenRequest, monitor: ScanMonitor, ledger: Ledger | None
) -> Generator[Progress, None, OpenedData]:
    opened = open_private(request, monitor)
    yield Progress(1.0, f"opened {request.name}: {opened.dataset.n_rows:,} rows")
    if ledger is not None:
        yield Progress(1.0, f"composing the budget spent on {request.name}")
        compose_budget_ahead(ledger, opened)
    return opened


class OpenJob(PoolJob):
    """Open the private data in the thread pool; exactly one of ``opened``, ``failed``, ``cancelled``."""

    opened = Signal(object)
    """The :class:`OpenedData`."""
    failed = Signal(object)
    """The exception (a ``DataError`` for a file that cannot be read); its traceback is in :attr:`details`."""
    cancelled = Signal()

    def __init__(
        self,
        request: OpenRequest,
        monitor: ScanMonitor,
        ledger: Ledger | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``ledger``: the window's, whose budget for the file is composed in the worker after the open."""
        super().__init__(parent)
        self.request = request
        self.details = ""
        opening = _opening(request, monitor, ledger)
        worker = self._run_in_pool(opening, monitor, f"reading {request.name}")
        worker.signals.finished.connect(self.opened)
        worker.signals.failed.connect(self._on_failed)

    def _on_failed(self, error: Exception) -> None:
        if stopped_by_user(error):
            self.cancelled.emit()
            return
        self.details = "".join(traceback.format_exception(error))
        self.failed.emit(error)
