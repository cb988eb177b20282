"""The GUI's plan job: the whole plan reserved up front, each release committed before it is emitted,
a cancelled plan settled like a single release (charged if touched) with the rest refunded."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QThreadPool

from dpgui.data import open_dataset
from dpgui.jobs import release_job
from dpgui.jobs.plan_job import PlanJob
from dpgui.planner.batch import BatchPlan, split_plan
from dpgui.planner.plan_file import load_plan
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetExceeded, Ledger, LedgerBusy, ReservationStatus
from dpgui.privacy.random import SeededRandom
from tests.cli.test_batch import PLAN
from tests.jobs.conftest import ABANDONED_FIT_SECONDS
from tests.jobs.test_release_job import statuses, with_total

COMMITTED, REFUNDED = ReservationStatus.COMMITTED, ReservationStatus.REFUNDED


@pytest.fixture
def ledger() -> Ledger:
    return Ledger()


@pytest.fixture
def batch(tmp_path: Path) -> BatchPlan:
    path = tmp_path / "plan.toml"
    path.write_text(PLAN.replace("delta = 1e-6\n", ""))  # pure: the totals below are plain sums
    return split_plan(load_plan(path), 2001)


def test_every_release_is_committed_before_it_is_emitted(qtbot, pool: QThreadPool, ledger, wages_csv, batch):
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    assert statuses(ledger, dataset_id) == [ReservationStatus.PENDING] * 2  # reserved whole, up front
    seen: list[list[ReservationStatus]] = []
    job.released.connect(lambda index, release: seen.append(statuses(ledger, dataset_id)))
    fractions: list[float] = []
    job.progress.connect(lambda fraction, message: fractions.append(fraction))
    with qtbot.waitSignal(job.finished, timeout=20_000) as finished:
        job.start(pool)
    assert seen == [[COMMITTED, ReservationStatus.PENDING], [COMMITTED, COMMITTED]]
    releases = finished.args[0]
    assert [r.release_id for r in releases] == [e.release_id for e in ledger.entries(dataset_id)]
    assert [r.cost for r in releases] == [r.cost for r in batch.releases]
    assert fractions == sorted(fractions) and fractions[-1] <= 1.0 and max(fractions) > 0.5
    assert ledger.state(dataset_id).spent.epsilon == pytest.approx(batch.total.epsilon)


def test_a_plan_cancelled_in_its_first_release_stays_charged_for_it_and_refunds_the_rest(
    qtbot, pool: QThreadPool, ledger, wages_csv, batch, monkeypatch
):
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    mark_touched = ledger.mark_touched

    def touch_then_cancel(reservation) -> None:
        mark_touched(reservation)
        job.cancel()

    monkeypatch.setattr(ledger, "mark_touched", touch_then_cancel)
    with qtbot.waitSignal(job.cancelled, timeout=20_000):
        job.start(pool)
    assert job.touched and job.releases == []
    assert statuses(ledger, dataset_id) == [COMMITTED, REFUNDED]
    assert ledger.state(dataset_id).spent == batch.releases[0].cost


def test_a_cancel_between_two_releases_keeps_the_first_and_refunds_the_second(
    qtbot, pool: QThreadPool, ledger, wages_csv, batch
):
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    started: list[int] = []
    job.release_started.connect(started.append)
    job.released.connect(lambda index, release: job.cancel())  # as the first one is committed
    with qtbot.waitSignal(job.cancelled, timeout=20_000):
        job.start(pool)
    assert started == [0] and len(job.releases) == 1
    assert statuses(ledger, dataset_id) == [COMMITTED, REFUNDED]
    assert ledger.state(dataset_id).spent == batch.releases[0].cost


def test_a_plan_cancelled_before_it_starts_refunds_every_release_and_runs_none(
    qtbot, pool: QThreadPool, ledger, wages_csv, batch
):
    """Cancel before start raised AttributeError (no worker yet), leaving the whole plan reserved."""
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    started: list[int] = []
    job.release_started.connect(started.append)
    with qtbot.waitSignal(job.cancelled, timeout=5_000):
        job.cancel()
    assert statuses(ledger, dataset_id) == [REFUNDED, REFUNDED]
    job.start(pool)
    pool.waitForDone()
    assert started == [] and statuses(ledger, dataset_id) == [REFUNDED, REFUNDED]


def test_a_ledger_busy_between_two_releases_fails_the_plan_and_refunds_the_second(
    qtbot, pool: QThreadPool, ledger, wages_csv, batch, monkeypatch
):
    """The second release's budget cannot be composed (another process held the lock for a minute): the
    plan fails at once, keeps the first release and refunds the second, which never read the data."""
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    compose = ledger.state

    def state(*args, **kwargs):
        if job.releases:
            raise LedgerBusy("simulated: another process held the ledger's lock for 60 s")
        return compose(*args, **kwargs)

    monkeypatch.setattr(ledger, "state", state)
    with qtbot.waitSignal(job.failed, timeout=20_000) as failed:
        job.start(pool)
    assert "60 s" in failed.args[0] and len(job.releases) == 1
    assert statuses(Ledger(), dataset_id) == [COMMITTED, REFUNDED]


def test_a_plan_over_budget_is_refused_before_anything_is_booked(ledger, wages_csv, batch):
    dataset_id = with_total(ledger, wages_csv, 0.5)
    with pytest.raises(BudgetExceeded):
        PlanJob(batch, open_dataset(wages_csv), ledger)
    assert ledger.entries(dataset_id) == []
    assert ledger.state(dataset_id).spent == PrivacyCost(0.0)


def test_finish_now_reaches_the_running_release_only(
    qtbot, pool: QThreadPool, ledger, wages_csv, batch, monkeypatch
):
    """The app's Finish now during a plan is sent into the release running then (AIM makes its next round
    the last: tests/algorithms/test_marginal_table.py), through the plan's progress wrapper; the next
    release, in a new worker, is not asked."""
    from dpgui.algorithms.progress import FINISH_NOW, Progress
    from dpgui.jobs import plan_job

    with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    received: list[list[object]] = []
    run_algorithm = plan_job.run_algorithm

    def listening(*args, **kwargs):
        heard: list[object] = []
        received.append(heard)
        if len(received) == 1:
            job.finish_now()  # asked while the first release runs, before its first step
        heard.append((yield Progress(0.0, "listening")))
        return (yield from run_algorithm(*args, **kwargs))

    monkeypatch.setattr(plan_job, "run_algorithm", listening)
    with qtbot.waitSignal(job.finished, timeout=20_000) as finished:
        job.start(pool)
    assert received == [[FINISH_NOW], [None]]
    assert len(finished.args[0]) == 2


TABLE_PLAN = (
    PLAN
    + """
[[release]]
name = "wage and education"
task = "table"
columns = ["wage", "education"]
bounds = [0, 5000, 0, 18]
granularity = [500, 1]
algorithm = "mst"
"""
)
"""The CDF and the median of the CLI's plan, then a synthetic table."""


def test_a_plans_table_release_waits_for_the_model_fit_a_cancel_gave_up_and_its_other_releases_do_not(
    qtbot, pool: QThreadPool, ledger, wages_csv, tmp_path, abandoned_fit
):
    path = tmp_path / "plan.toml"
    path.write_text(TABLE_PLAN)
    dataset = open_dataset(wages_csv)
    dataset_id = ledger.open_dataset(dataset.path, dataset.sha256).id
    ledger.set_total(dataset_id, PrivacyCost(2.0, 1e-3))
    job = PlanJob(split_plan(load_plan(path), 2001), dataset, ledger, SeededRandom(1))
    messages: list[str] = []
    job.progress.connect(lambda _, message: messages.append(message))
    released: list[int] = []
    job.released.connect(lambda index, release: released.append(index))
    job.start(pool)
    waiting = f"wage and education (3 of 3): {release_job.WAITING_FOR_ABANDONED_FIT}"
    qtbot.waitUntil(lambda: waiting in messages, timeout=ABANDONED_FIT_SECONDS * 1000)
    assert released == [0, 1]  # the CDF and the median ran beside the abandoned fit
    with qtbot.waitSignal(job.finished, timeout=60_000):
        abandoned_fit.set()
    assert statuses(ledger, dataset_id) == [COMMITTED] * 3
