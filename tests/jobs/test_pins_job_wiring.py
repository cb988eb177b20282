"""Pins found by the mutation scan of the GUI's jobs (notes/mutscan_rel17.md): what a job passes on, and
what it refuses before anything is reserved.

Survivors these kill: ReleaseJob without its pre-flight (a run predicted past the memory limit reserved
anyway), its ``partial`` signal never connected (the live plot stays empty), a cancel inside a scanning
engine or a noise draw reported as a failure, and a scanning engine that cannot be cancelled.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from PySide6.QtCore import QThreadPool
from pytestqt.qtbot import QtBot

from dpgui.algorithms.progress import Progress
from dpgui.algorithms.tree_cdf import CdfSoFar
from dpgui.data import NumericDomain, open_dataset
from dpgui.data.backends import ScanMonitor
from dpgui.data.backends.embedded import ScanCancelled
from dpgui.jobs.plan_job import PlanJob
from dpgui.jobs.pool_job import PoolJob, stopped_by_user
from dpgui.jobs.release_job import ReleaseJob
from dpgui.jobs.worker import Cancelled
from dpgui.planner.batch import split_plan
from dpgui.planner.plan_file import load_plan
from dpgui.privacy.cancellable import DrawCancelled
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.preflight import Limits, PreflightError
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.cli.test_batch import PLAN
from tests.jobs.test_release_job import median_spec, with_total

TOO_SMALL = Limits(max_memory=1 << 20)
"""1 MiB: below the interpreter's own predicted footprint, so every run is refused."""


def test_a_release_predicted_past_the_limits_is_refused_before_it_is_reserved(wages_csv: Path) -> None:
    """Rule: the pre-flight (parameters, predicted memory and work) runs before the reservation; a refusal
    books nothing. Kills ``preflight(...)`` removed from ReleaseJob.__init__."""
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    with pytest.raises(PreflightError, match="of memory"):
        ReleaseJob(median_spec(), open_dataset(wages_csv), ledger, limits=TOO_SMALL)
    assert ledger.entries(dataset_id) == []


def test_a_plan_predicted_past_the_limits_is_refused_before_it_is_reserved(
    wages_csv: Path, tmp_path: Path
) -> None:
    """The same rule for a plan: every release's pre-flight runs before the plan is reserved."""
    path = tmp_path / "plan.toml"
    path.write_text(PLAN.replace("delta = 1e-6\n", ""))
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    with pytest.raises(PreflightError, match="of memory"):
        PlanJob(split_plan(load_plan(path), 2001), open_dataset(wages_csv), ledger, limits=TOO_SMALL)
    assert ledger.entries(dataset_id) == []


def test_a_release_job_passes_its_runs_partial_results_on(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path
) -> None:
    """Rule: the run's partial results (the tree CDF's consistent estimates, level by level) reach the
    job's ``partial`` signal, which the run page draws. Kills its connection to the worker removed."""
    ledger = Ledger()
    with_total(ledger, wages_csv, 2.0)
    spec = TaskSpec(TaskKind.CDF, ("wage",), NumericDomain(0, 5000, 10), 1.0, algorithm="tree-laplace")
    job = ReleaseJob(spec, open_dataset(wages_csv), ledger, SeededRandom(1))
    partials: list[object] = []
    job.partial.connect(partials.append)
    with qtbot.waitSignal(job.released, timeout=10_000):
        job.start(pool)
    assert partials and all(isinstance(partial, CdfSoFar) for partial in partials)


@pytest.mark.parametrize(
    "error", [Cancelled("between steps"), ScanCancelled("in a scan"), DrawCancelled("in a draw")]
)
def test_a_cancel_wherever_it_lands_is_a_cancel_not_a_failure(error: Exception) -> None:
    """Rule: a cancel between steps, inside a scanning engine's pass or between two noise draws ends the
    job with ``cancelled`` (no error dialog). Kills any of the three dropped from stopped_by_user."""
    assert stopped_by_user(error)
    assert not stopped_by_user(ValueError("a real failure"))


class _ScanningJob(PoolJob):
    def __init__(self, monitor: ScanMonitor) -> None:
        super().__init__()
        self._run_in_pool(self._nothing(), monitor, "scanning wages.csv")

    @staticmethod
    def _nothing() -> Generator[Progress, None, None]:
        yield Progress(1.0, "done")


def test_a_scanning_engine_hears_the_jobs_cancel_and_reports_its_progress(qtbot: QtBot) -> None:
    """Rule: a scanning engine asks the job between its batches whether to stop, so a cancel during a long
    scan lands at once, and its progress reaches the job's ``progress`` signal. Kills the monitor watching
    ``lambda: False``."""
    monitor = ScanMonitor()
    job = _ScanningJob(monitor)
    reports: list[tuple[float, str]] = []
    job.progress.connect(lambda fraction, message: reports.append((fraction, message)))
    monitor.progress(0.4)
    assert reports == [(0.4, "scanning wages.csv: 40%")]
    assert not monitor.cancelled()
    job.cancel()
    assert monitor.cancelled()


def test_a_release_job_states_the_engine_and_the_randomness_it_was_given(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path
) -> None:
    """Fields: a GUI release's aggregation_backend (the engine as chosen, else the aggregator's name) and its
    randomness, as its manifest states them. Kills ``engine_choice or aggregator.name`` -> ``and``."""
    ledger = Ledger()
    with_total(ledger, wages_csv, 3.0)
    for choice, expected in ((None, "memory"), ("auto", "auto")):
        job = ReleaseJob(
            median_spec(), open_dataset(wages_csv), ledger, SeededRandom(1), engine_choice=choice
        )
        with qtbot.waitSignal(job.released, timeout=5000) as released:
            job.start(pool)
        release = released.args[0]
        assert release.aggregation_backend == expected
        assert release.private is False and "NOT PRIVATE" in release.randomness


def test_a_plan_job_states_the_engine_and_the_randomness_it_was_given(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, tmp_path: Path
) -> None:
    """The same fields for every release of a plan. Kills ``rng if rng is not None else SecureRandom()``
    negated (seeded randomness replaced, so a test or demo plan is stated private) and the engine's
    ``or`` -> ``and``."""
    path = tmp_path / "plan.toml"
    path.write_text(PLAN.replace("delta = 1e-6\n", ""))
    ledger = Ledger()
    with_total(ledger, wages_csv, 2.0)
    job = PlanJob(split_plan(load_plan(path), 2001), open_dataset(wages_csv), ledger, SeededRandom(1))
    with qtbot.waitSignal(job.finished, timeout=20_000) as finished:
        job.start(pool)
    releases = finished.args[0]
    assert [release.aggregation_backend for release in releases] == ["memory", "memory"]
    assert [release.private for release in releases] == [False, False]


def test_checked_in_memory_checks_data_in_memory_and_leaves_a_scanned_file_to_the_worker(
    wages_csv: Path, tmp_path: Path
) -> None:
    """Rule: the review's data check runs in the GUI thread for data in memory only; a scanning engine's
    file is checked in the release's worker (None here). Kills the condition negated."""
    from dpgui.data.backends import open_aggregator
    from dpgui.data.checks import DataCheck
    from dpgui.jobs.release_job import checked_in_memory

    assert isinstance(checked_in_memory(median_spec(), open_dataset(wages_csv)), DataCheck)
    assert checked_in_memory(median_spec(), open_aggregator(wages_csv, "embedded").dataset) is None
