"""A release plan run for the GUI: the whole plan reserved at once, each release run in a worker in turn.

The order is the one ``dpgui.tasks.batch_run.execute_batch`` follows for the command line, with the
ledger's steps in the GUI thread as in :class:`~dpgui.jobs.release_job.ReleaseJob`:

1. The constructor (GUI thread) runs every release's pre-flight and, for data in memory, its data check,
   then reserves the whole plan in one ledger transaction (all releases fit or none is booked); a refusal
   is raised to the caller and nothing starts.
2. :meth:`PlanJob.start` runs the first release's algorithm in a pool thread; its ``on_touch`` writes the
   fsynced "touched" line before the first read of the private data.
3. Back in the GUI thread each finished release is committed by ``finish`` before ``released`` carries it
   anywhere, then the next one starts. A failed or cancelled release is settled as a single run would be
   (committed if it touched the data, refunded otherwise) and the releases that never started are
   refunded, before ``failed`` or ``cancelled`` is emitted. Releases finished earlier stay committed.
"""

from __future__ import annotations

import threading
import traceback
from collections.abc import Generator

from PySide6.QtCore import QObject, QThreadPool, Signal

from dpgui.algorithms.progress import Progress, map_steps
from dpgui.data.aggregate import Aggregator, InMemoryAggregator
from dpgui.data.backends import ScanMonitor
from dpgui.data.dataset import Dataset, DatasetHandle
from dpgui.jobs.pool_job import PoolJob, stopped_by_user
from dpgui.jobs.release_job import after_abandoned_work, checked_data
from dpgui.planner.batch import BatchPlan
from dpgui.privacy.cancellable import CancellableRandom
from dpgui.privacy.ledger import BudgetState, Ledger
from dpgui.privacy.random import PrivateRandom, SecureRandom
from dpgui.release.kept import keep
from dpgui.release.release import Release
from dpgui.tasks.batch_run import NamedRun, reserve_plan
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.preflight import Limits, preflight
from dpgui.tasks.runner import PreparedRun, finish, run_algorithm, settle_failed_run


class PlanJob(PoolJob):
    """Reserve a split plan whole, then run, commit and settle its releases one by one (module doc).

    A job is used once; once constructed the whole plan is reserved (not starting it leaves the
    reservations open, which the ledger counts against the budget: the safe side).
    """

    release_started = Signal(int)
    """The index (in the plan) of the release that starts now."""
    released = Signal(int, object)
    """A release's index and its committed :class:`Release` (its spend is final when this is emitted)."""
    finished = Signal(object)
    """Every release of the plan, committed, in the plan's order (a list of :class:`Release`)."""
    failed = Signal(str)
    """A message; the plan is settled (the traceback is in :attr:`error_details`)."""
    cancelled = Signal()
    """The user cancelled; the plan is settled (the running release stays charged if it touched the data)."""

    def __init__(
        self,
        batch: BatchPlan,
        dataset: Dataset | DatasetHandle,
        ledger: Ledger,
        rng: PrivateRandom | None = None,
        parent: QObject | None = None,
        *,
        aggregator: Aggregator | None = None,
        monitor: ScanMonitor | None = None,
        engine_choice: str | None = None,
        limits: Limits | None = None,
    ) -> None:
        super().__init__(parent)
        for release in batch.releases:
            if release.prepared.n != dataset.n_rows:
                raise ValueError(
                    f"the plan was split at n = {release.prepared.n:,}, but {dataset.name} has "
                    f"{dataset.n_rows:,} rows: split it again at this n"
                )
            preflight(release.spec, dataset.n_rows, limits)
        if aggregator is None:
            assert isinstance(dataset, Dataset), "a DatasetHandle needs the aggregator that reads it"
            aggregator = InMemoryAggregator(dataset)
        self.in_memory = isinstance(dataset, Dataset)
        """Data in memory is checked here, before the reservation; a scanning engine's pass runs in the
        worker before each release touches the data, so a refusal there is refunded."""
        if self.in_memory:
            for release in batch.releases:
                checked_data(release.spec, dataset, aggregator)
        self.batch = batch
        self.runs = [NamedRun(release.name, release.prepared) for release in batch.releases]
        self._dataset, self._ledger, self._aggregator, self._monitor = dataset, ledger, aggregator, monitor
        self._rng = rng if rng is not None else SecureRandom()
        self._engine_choice = engine_choice or aggregator.name
        self._record, self._reservations = reserve_plan(self.runs, dataset, ledger)
        self.releases: list[Release] = []
        self.index = -1
        """The release running now (its position in the plan)."""
        self._budget_before: BudgetState | None = None
        self._touched = threading.Event()
        self._stopping = False
        self._pool: QThreadPool | None = None
        self.error_details = ""
        """The traceback of the exception behind ``failed`` (for a dialog's "Show Details…")."""

    @property
    def touched(self) -> bool:
        """Whether the running release has started reading the private data (its cost is then spent)."""
        return self._touched.is_set()

    def start(self, pool: QThreadPool | None = None) -> None:
        """Run the plan's releases in ``pool`` (default: the global thread pool), one after the other; a
        plan cancelled before it started runs nothing."""
        if self._stopping:
            return
        self._pool = pool
        self._next()

    def cancel(self) -> None:
        """Stop the running release before its next step and start no other (safe from any thread). Before
        the plan started nothing has read the data: every reservation is refunded, then ``cancelled``."""
        self._stopping = True
        if self.index < 0:
            self._refund_the_rest()
            self.cancelled.emit()
            return
        super().cancel()

    def _next(self) -> None:
        """GUI thread: start the next release in a worker, or report the plan finished."""
        self.index += 1
        if self.index == len(self.runs):
            self.finished.emit(list(self.releases))
            return
        self._touched.clear()
        try:
            self._start_release(self.runs[self.index].prepared)
        except Exception as error:  # before the worker (ledger busy): nothing read, refunded
            self._on_failed(error)

    def _start_release(self, prepared: PreparedRun) -> None:
        """GUI thread: the budget before the release, then its run in a worker of the pool."""
        self._budget_before = self._ledger.state(self._record.id, prepared.account)
        aggregator = self._aggregator
        run = run_algorithm(
            prepared,
            self._dataset,
            CancellableRandom(self._rng, lambda: self._worker.is_cancelled()),
            self._on_touch,
            aggregator=lambda _: aggregator,
        )
        if not self.in_memory:
            run = self._checked_first(run)
        run = after_abandoned_work(prepared.spec, run)
        worker = self._run_in_pool(
            self._numbered(self.index, run), self._monitor, f"scanning {self._dataset.name}"
        )
        worker.signals.finished.connect(self._on_finished)
        worker.signals.failed.connect(self._on_failed)
        self.release_started.emit(self.index)
        worker.start(self._pool)

    def _checked_first(
        self, run: Generator[Progress, object, ReleaseTable]
    ) -> Generator[Progress, object, ReleaseTable]:
        """Worker thread: a scanning engine's data pass, then the run (which marks the data touched)."""
        checked_data(self.runs[self.index].prepared.spec, self._dataset, self._aggregator)
        return (yield from run)

    def _numbered(
        self, index: int, run: Generator[Progress, object, ReleaseTable]
    ) -> Generator[Progress, object, ReleaseTable]:
        """The release's progress as a share of the whole plan, its message prefixed with its name; what
        the worker sends in (Finish now's FINISH_NOW) is passed on to the release (``map_steps``)."""
        count, name = len(self.runs), self.runs[index].name
        return map_steps(
            run,
            lambda step: Progress(
                (index + step.fraction) / count, f"{name} ({index + 1} of {count}): {step.message}"
            ),
        )

    def _on_touch(self) -> None:
        """Worker thread, before the first read: the fsynced ledger line comes first, then the flag."""
        self._ledger.mark_touched(self._reservations[self.index])
        self._touched.set()

    def _refund_the_rest(self) -> None:
        for never_started in self._reservations[self.index + 1 :]:
            self._ledger.refund(never_started)

    def _on_finished(self, table: ReleaseTable) -> None:
        assert self._budget_before is not None
        try:
            release = finish(
                self.runs[self.index].prepared,
                table,
                dataset=self._dataset,
                ledger=self._ledger,
                record=self._record,
                reservation=self._reservations[self.index],
                budget_before=self._budget_before,
                rng=self._rng,
                aggregation_backend=self._engine_choice,
                stage=keep,
            )
        except Exception as error:
            self._refund_the_rest()
            self.error_details = "".join(traceback.format_exception(error))
            self.failed.emit(f"Release {self.runs[self.index].name!r} could not be committed: {error}")
            return
        self.releases.append(release)
        self.released.emit(self.index, release)
        if self._stopping:
            self._refund_the_rest()
            self.cancelled.emit()
            return
        self._next()

    def _on_failed(self, error: Exception) -> None:
        settle_failed_run(self._ledger, self._reservations[self.index])
        self._refund_the_rest()
        if stopped_by_user(error):
            self.cancelled.emit()
        else:
            self.error_details = "".join(traceback.format_exception(error))
            self.failed.emit(f"{self.runs[self.index].name}: {str(error) or type(error).__name__}")
