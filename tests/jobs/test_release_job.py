"""The GUI's release job: refusals up front, commit before release, settle on failure or cancel."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QThreadPool

from dpgui.algorithms.progress import FINISH_NOW, Progress
from dpgui.data import DataError, NumericDomain, open_dataset
from dpgui.data.checks import DataCheck
from dpgui.jobs import release_job
from dpgui.jobs.release_job import ReleaseJob
from dpgui.privacy.cancellable import (
    abandoned_work_running,
)
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetExceeded, BudgetNotSet, Ledger, ReservationStatus
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.algorithms.test_pgm_cancel import hold_fits
from tests.jobs.conftest import ABANDONED_FIT_SECONDS

DOMAIN = NumericDomain(0, 5000, 1)


@pytest.fixture
def ledger() -> Ledger:
    return Ledger()


def median_spec(column: str = "wage", epsilon: float = 1.0) -> TaskSpec:
    return TaskSpec(TaskKind.MEDIAN, (column,), (DOMAIN,), epsilon=epsilon)


def with_total(ledger: Ledger, path: Path, epsilon: float) -> str:
    dataset = open_dataset(path)
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(epsilon))
    return record.id


def statuses(ledger: Ledger, dataset_id: str) -> list[ReservationStatus]:
    return [entry.status for entry in ledger.entries(dataset_id)]


def test_a_release_is_committed_before_it_is_emitted(qtbot, pool: QThreadPool, ledger, wages_csv):
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(), open_dataset(wages_csv), ledger, SeededRandom(1))
    seen: list[list[ReservationStatus]] = []
    job.released.connect(lambda release: seen.append(statuses(ledger, dataset_id)))
    with qtbot.waitSignal(job.released, timeout=5000) as released:
        job.start(pool)
    release = released.args[0]
    assert seen == [[ReservationStatus.COMMITTED]]
    assert ledger.entries(dataset_id)[0].release_id == release.release_id
    assert ledger.state(dataset_id).spent == PrivacyCost(1.0)
    assert release.table.column("statistic") == ["median"]


def test_a_run_cancelled_after_touching_the_data_stays_charged(
    qtbot, pool: QThreadPool, ledger, wages_csv, monkeypatch
):
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(), open_dataset(wages_csv), ledger, SeededRandom(1))
    mark_touched = ledger.mark_touched

    def touch_then_cancel(reservation) -> None:
        mark_touched(reservation)
        job.cancel()

    monkeypatch.setattr(ledger, "mark_touched", touch_then_cancel)
    with qtbot.waitSignal(job.cancelled, timeout=5000):
        job.start(pool)
    assert job.touched
    assert statuses(ledger, dataset_id) == [ReservationStatus.COMMITTED]
    assert ledger.state(dataset_id).spent == PrivacyCost(1.0)


def test_a_table_run_cancelled_during_its_model_fit_ends_before_the_fit_and_stays_charged(
    qtbot, pool: QThreadPool, ledger, wages_csv, monkeypatch
):
    """MST's fit is held where JAX would compile: the cancel ends the run (no release) while the fit is
    still held, the charge stays, and the fit, let go, stops after its first chunk of iterations."""
    dataset = open_dataset(wages_csv)
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(2.0, 1e-3))
    domains = (NumericDomain(0, 5000, 500), NumericDomain(0, 18, 1))
    spec = TaskSpec(TaskKind.TABLE, ("wage", "education"), domains, 1.0, 1e-6, "mst")
    held = hold_fits(monkeypatch)
    job = ReleaseJob(spec, dataset, ledger, SeededRandom(1))
    job.released.connect(lambda _: pytest.fail("a cancelled run released"))
    job.start(pool)
    qtbot.waitUntil(held.started.is_set, timeout=30_000)
    with qtbot.waitSignal(job.cancelled, timeout=10_000):
        job.cancel()
    assert not held.ended.is_set()  # the run did not wait for the fit
    assert statuses(ledger, record.id) == [ReservationStatus.COMMITTED]
    assert held.let_go_and_count_chunks() == 1


def test_a_run_cancelled_before_touching_the_data_is_refunded(qtbot, pool: QThreadPool, ledger, wages_csv):
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(), open_dataset(wages_csv), ledger, SeededRandom(1))
    job.cancel()
    with qtbot.waitSignal(job.cancelled, timeout=5000):
        job.start(pool)
    assert not job.touched
    assert statuses(ledger, dataset_id) == [ReservationStatus.REFUNDED]


def test_a_bad_column_is_refused_before_anything_is_reserved(ledger, wages_csv):
    dataset_id = with_total(ledger, wages_csv, 2.0)
    with pytest.raises(DataError, match="no such column"):
        ReleaseJob(median_spec(column="no such column"), open_dataset(wages_csv), ledger)
    assert ledger.entries(dataset_id) == []


def test_a_failure_before_the_data_is_read_is_refunded(
    qtbot, pool: QThreadPool, ledger, wages_csv, monkeypatch
):
    """Past the pre-flight (skipped here), a run that fails before its first read is refunded."""
    monkeypatch.setattr(
        release_job, "check_data", lambda dataset, *args, **kwargs: DataCheck(dataset.name, ())
    )
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(column="no such column"), open_dataset(wages_csv), ledger)
    with qtbot.waitSignal(job.failed, timeout=5000) as failed:
        job.start(pool)
    assert "no such column" in failed.args[0]
    assert statuses(ledger, dataset_id) == [ReservationStatus.REFUNDED]


@pytest.mark.parametrize(("total", "refusal"), [(0.5, BudgetExceeded), (None, BudgetNotSet)])
def test_refusals_are_raised_before_anything_starts(ledger, wages_csv, total, refusal):
    dataset = open_dataset(wages_csv)
    dataset_id = ledger.open_dataset(dataset.path, dataset.sha256).id
    if total is not None:
        ledger.set_total(dataset_id, PrivacyCost(total))
    with pytest.raises(refusal):
        ReleaseJob(median_spec(epsilon=1.0), dataset, ledger)
    assert ledger.entries(dataset_id) == []


def test_a_scanning_engines_data_pass_refuses_in_the_worker_before_the_touch_and_refunds(
    qtbot, pool: QThreadPool, ledger, tmp_path
):
    from dpgui.data.backends import open_aggregator

    path = tmp_path / "wages.csv"
    path.write_text("wage\n" + "100\n" * 500 + "inf\n")
    opened = open_aggregator(path, "embedded")
    record = ledger.open_dataset(opened.dataset.path, opened.dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(2.0))
    job = ReleaseJob(median_spec(), opened.dataset, ledger, aggregator=opened.aggregator)
    with qtbot.waitSignal(job.failed, timeout=5000) as failed:
        job.start(pool)
    assert "row 501, column 'wage': 'inf' is not a finite number" in failed.args[0]
    assert not job.touched
    assert statuses(ledger, record.id) == [ReservationStatus.REFUNDED]


def table_job(ledger: Ledger, wages_csv: Path) -> tuple[ReleaseJob, str]:
    """An MST table release of wage and education, its dataset's id."""
    dataset = open_dataset(wages_csv)
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(2.0, 1e-3))
    domains = (NumericDomain(0, 5000, 500), NumericDomain(0, 18, 1))
    spec = TaskSpec(TaskKind.TABLE, ("wage", "education"), domains, 1.0, 1e-6, "mst")
    return ReleaseJob(spec, dataset, ledger, SeededRandom(1)), record.id


def test_a_table_run_waits_for_the_model_fit_a_cancel_gave_up_before_it_reads_the_data(
    qtbot, pool: QThreadPool, ledger, wages_csv, abandoned_fit
):
    job, dataset_id = table_job(ledger, wages_csv)
    messages: list[str] = []
    job.progress.connect(lambda _, message: messages.append(message))
    job.start(pool)
    waiting = release_job.WAITING_FOR_ABANDONED_FIT
    qtbot.waitUntil(lambda: waiting in messages, timeout=ABANDONED_FIT_SECONDS * 1000)
    assert not job.touched
    with qtbot.waitSignal(job.released, timeout=60_000):
        abandoned_fit.set()
    assert messages[: messages.index(release_job.WAITING_FOR_ABANDONED_FIT) + 1] == [
        release_job.WAITING_FOR_ABANDONED_FIT
    ]  # nothing else ran before it waited
    assert statuses(ledger, dataset_id) == [ReservationStatus.COMMITTED]


def test_a_table_run_cancelled_while_it_waits_for_an_abandoned_fit_is_refunded(
    qtbot, pool: QThreadPool, ledger, wages_csv, abandoned_fit
):
    job, dataset_id = table_job(ledger, wages_csv)
    job.start(pool)
    with qtbot.waitSignal(job.progress, timeout=ABANDONED_FIT_SECONDS * 1000):
        pass
    with qtbot.waitSignal(job.cancelled, timeout=10_000):
        job.cancel()
    assert not job.touched and abandoned_work_running()
    assert statuses(ledger, dataset_id) == [ReservationStatus.REFUNDED]


def _table_run(received: list[object]):
    """A table run of two steps that records what each step received (Finish now or None)."""
    received.append((yield Progress(0.5, "1-way marginals measured")))
    received.append((yield Progress(0.9, "round 1")))
    return "released"


TABLE_SPEC = TaskSpec(TaskKind.TABLE, ("wage",), (DOMAIN,), 1.0, 1e-6, "aim")


def test_finish_now_pressed_while_a_table_run_waits_for_an_abandoned_fit_reaches_the_run(abandoned_fit):
    """The worker sends Finish now once: a request that arrives during the wait is passed on at the run's
    first step, not dropped with the waiting step."""
    received: list[object] = []
    steps = release_job.after_abandoned_work(TABLE_SPEC, _table_run(received))
    assert next(steps).message == release_job.WAITING_FOR_ABANDONED_FIT
    abandoned_fit.set()
    assert steps.send(FINISH_NOW).message == "1-way marginals measured"  # the wait ends, the run starts
    assert steps.send(None).message == "round 1"
    with pytest.raises(StopIteration):
        steps.send(None)
    assert received == [FINISH_NOW, None]


def test_finish_now_pressed_at_an_earlier_waiting_step_survives_the_later_ones(abandoned_fit):
    """The fit still runs after Finish now, so more waiting steps follow, each sent None by the worker: the
    request is kept through them, not overwritten by the last one."""
    received: list[object] = []
    steps = release_job.after_abandoned_work(TABLE_SPEC, _table_run(received))
    assert next(steps).message == release_job.WAITING_FOR_ABANDONED_FIT
    assert steps.send(FINISH_NOW).message == release_job.WAITING_FOR_ABANDONED_FIT  # the fit still runs
    abandoned_fit.set()
    step = steps.send(None)
    while step.message == release_job.WAITING_FOR_ABANDONED_FIT:  # until the fit has ended
        step = steps.send(None)
    assert step.message == "1-way marginals measured"
    assert steps.send(None).message == "round 1"
    assert received == [FINISH_NOW]
