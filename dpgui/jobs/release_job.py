"""One release run for the GUI: the ledger's steps in the GUI thread, the algorithm in a worker.

The order is the one ``dpgui.tasks.runner`` requires for privacy:

1. The constructor (GUI thread) runs the pre-flight (``dpgui.tasks.preflight`` and, for data in memory,
   ``dpgui.data.checks``), prepares and reserves; a refusal (``PreconditionFailed``, ``BudgetExceeded``,
   ``BudgetNotSet``, ``ValueError`` such as ``DataError``) is raised to the caller and nothing starts.
2. :meth:`ReleaseJob.start` runs ``run_algorithm`` in a pool thread (after, for a scanning engine, the
   data pass, whose only outputs are custodian-only counts or a refusal, which is then refunded). Its
   ``on_touch`` callback writes the fsynced "touched" line synchronously in that thread, before the
   algorithm's first read of the private data.
3. Back in the GUI thread, a finished run is committed by ``finish`` before ``released`` carries the values
   anywhere (its files are first kept in dpgui's folder until exported, ``dpgui.release.kept``); a
   failed or cancelled run is settled (committed if it touched the data, refunded otherwise) before
   ``failed`` or ``cancelled`` is emitted.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Generator

from PySide6.QtCore import QObject, Signal

from dpgui.algorithms.progress import Progress, map_steps
from dpgui.data.aggregate import Aggregator, InMemoryAggregator
from dpgui.data.backends import ScanMonitor
from dpgui.data.checks import DataCheck, check_data
from dpgui.data.dataset import Dataset, DatasetHandle
from dpgui.jobs.pool_job import PoolJob, stopped_by_user
from dpgui.privacy.cancellable import (
    POLL_SECONDS,
    CancellableRandom,
    abandoned_work_running,
    wait_for_abandoned_work,
)
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import PrivateRandom, SecureRandom
from dpgui.release.kept import keep
from dpgui.release.release import Release
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.preflight import Limits, check_parameters, preflight
from dpgui.tasks.runner import PreparedRun, finish, prepared_again, reserve, run_algorithm, settle_failed_run
from dpgui.tasks.spec import TaskKind, TaskSpec

WAITING_FOR_ABANDONED_FIT = "waiting for the cancelled model fit to stop"


def checked_data(spec: TaskSpec, dataset: Dataset | DatasetHandle, aggregator: Aggregator) -> DataCheck:
    """The data pass of ``dpgui.data.checks`` over the cells ``spec`` reads; raises its first refusal (a
    ``DataError``). Its outputs are custodian-only counts, so it charges nothing."""
    check = check_data(
        dataset,
        aggregator,
        spec.columns,
        spec.domains,
        spec.missing,
        label=spec.label,
        positive=spec.positive,
    )
    check.raise_if_refused()
    return check


def checked_in_memory(spec: TaskSpec, dataset: Dataset | DatasetHandle) -> DataCheck | None:
    """``checked_data`` for data in memory, ahead of the review; None for a scanning engine's file, whose
    pass runs in the release's worker before its first read (a refusal there is refunded)."""
    return checked_data(spec, dataset, InMemoryAggregator(dataset)) if isinstance(dataset, Dataset) else None


def after_abandoned_work(
    spec: TaskSpec, run: Generator[Progress, object, ReleaseTable]
) -> Generator[Progress, object, ReleaseTable]:
    """Worker thread: ``run``; for a synthetic table (a model fit) only once the fit an earlier cancel gave
    up has stopped (it runs on until JAX ends compiling; beside a new fit the two would share the memory the
    pre-run check gave one). Until then a step saying so every POLL_SECONDS, at which a cancel lands: the
    data is not read yet, so a run cancelled while it waits is refunded. A Finish now sent in meanwhile
    (the worker sends it once) is kept and passed on at the run's first step."""
    request: object = None
    while spec.kind is TaskKind.TABLE and abandoned_work_running():
        request = (yield Progress(0.0, WAITING_FOR_ABANDONED_FIT)) or request
        wait_for_abandoned_work(POLL_SECONDS)
    return (yield from map_steps(run, lambda step: step, pending=request))


class ReleaseJob(PoolJob):
    """Prepare, reserve, run and settle one release; create it, connect its signals, then :meth:`start`.

    A job is used once. Once constructed its cost is reserved: not starting it leaves the reservation
    open, which the ledger counts against the budget (the safe side).
    """

    partial = Signal(object)
    released = Signal(object)
    """The committed :class:`Release` (the spend is already final when this is emitted)."""
    failed = Signal(str)
    """A message for the user; the run is settled (the traceback is in :attr:`error_details`)."""
    cancelled = Signal()
    """The user cancelled; the run is settled (still charged if it touched the data)."""

    def __init__(
        self,
        spec: TaskSpec,
        dataset: Dataset | DatasetHandle,
        ledger: Ledger,
        rng: PrivateRandom | None = None,
        parent: QObject | None = None,
        *,
        aggregator: Aggregator | None = None,
        monitor: ScanMonitor | None = None,
        engine_choice: str | None = None,
        limits: Limits | None = None,
        reviewed: DataCheck | None = None,
        priced: PreparedRun | None = None,
    ) -> None:
        """``aggregator`` reads the data (default: in memory over ``dataset``, which must then be a
        ``Dataset``); a scanning one reports through ``monitor``, which this job then watches. Before the
        reservation, the spec's parameters and predicted memory and work (within ``limits``) and, for data
        in memory, every cell the task reads are checked: a refusal raises and nothing is reserved.
        ``reviewed``: that check as the review already ran it (``checked_in_memory``) for this spec and
        dataset, so it is not run again in the GUI thread. ``priced``: the run the review priced, charged as
        it was reviewed when it is of this spec (``runner.prepared_again``)."""
        super().__init__(parent)
        check_parameters(spec)  # before the preconditions, as the CLI does
        self.prepared: PreparedRun = prepared_again(spec, dataset.n_rows, priced)
        preflight(spec.with_algorithm(self.prepared.algorithm.name), dataset.n_rows, limits)  # auto's choice
        self.data_check: DataCheck | None = None
        """The custodian-only counts of the data's problems: data in memory is checked here, before the
        reservation; a scanning engine's pass runs in the worker before the run touches the data, so a
        refusal there is refunded."""
        if isinstance(dataset, Dataset):
            self.data_check = reviewed or self._check(dataset, InMemoryAggregator(dataset))
        self._dataset = dataset
        self._ledger = ledger
        self._rng = rng if rng is not None else SecureRandom()
        if aggregator is None:
            assert isinstance(dataset, Dataset), "a DatasetHandle needs the aggregator that reads it"
            aggregator = InMemoryAggregator(dataset)
        self._aggregator = aggregator
        self._engine_choice = engine_choice or aggregator.name
        self._record = ledger.open_dataset(dataset.path, dataset.sha256)
        self._budget_before = ledger.state(self._record.id, self.prepared.account)
        self._reservation = reserve(self.prepared, ledger, self._record)
        self._touched = threading.Event()
        self.error_details = ""
        """The traceback of the exception behind ``failed`` (for a dialog's "Show Details…")."""
        run = run_algorithm(
            self.prepared,
            dataset,
            CancellableRandom(self._rng, lambda: self._worker.is_cancelled()),
            self._on_touch,
            aggregator=lambda _: aggregator,
        )
        if self.data_check is None:
            run = self._checked_first(aggregator, run)
        run = after_abandoned_work(spec, run)
        worker = self._run_in_pool(run, monitor, f"scanning {dataset.name}")
        worker.signals.partial.connect(self.partial)
        worker.signals.finished.connect(self._on_finished)
        worker.signals.failed.connect(self._on_failed)

    def _check(self, dataset: Dataset | DatasetHandle, aggregator: Aggregator) -> DataCheck:
        return checked_data(self.prepared.spec, dataset, aggregator)

    def _checked_first(
        self, aggregator: Aggregator, run: Generator[Progress, object, ReleaseTable]
    ) -> Generator[Progress, object, ReleaseTable]:
        """Worker thread: a scanning engine's data pass, then the run (which marks the data touched)."""
        self.data_check = self._check(self._dataset, aggregator)
        return (yield from run)

    @property
    def touched(self) -> bool:
        """Whether the run has started reading the private data (its cost is then spent)."""
        return self._touched.is_set()

    def _on_touch(self) -> None:
        """Worker thread, before the first read: the fsynced ledger line comes first, then the flag."""
        self._ledger.mark_touched(self._reservation)
        self._touched.set()

    def _on_finished(self, table: ReleaseTable) -> None:
        try:
            release: Release = finish(
                self.prepared,
                table,
                dataset=self._dataset,
                ledger=self._ledger,
                record=self._record,
                reservation=self._reservation,
                budget_before=self._budget_before,
                rng=self._rng,
                aggregation_backend=self._engine_choice,
                stage=keep,
            )
        except Exception as error:
            self.error_details = "".join(traceback.format_exception(error))
            self.failed.emit(f"The release could not be committed: {error}")
            return
        self.released.emit(release)

    def _on_failed(self, error: Exception) -> None:
        settle_failed_run(self._ledger, self._reservation)
        if stopped_by_user(error):
            self.cancelled.emit()
        else:
            self.error_details = "".join(traceback.format_exception(error))
            self.failed.emit(str(error) or type(error).__name__)
