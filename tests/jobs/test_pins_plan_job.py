"""Pins found by the mutation scan of the GUI's plan job (notes/mutscan_rel17.md): how a plan's releases are
settled, and when, relative to the signals the window acts on.

The existing tests cancel a plan only after its first release has read the data, and look at the ledger
after the signal's wait has returned. A plan job that charged a release cancelled before its first read, or
emitted ``cancelled``/``failed`` before settling, passed them. These tests read the ledger from a slot on
the signal itself.
"""

from __future__ import annotations

from collections.abc import Generator
from pathlib import Path

import pytest
from PySide6.QtCore import QThreadPool
from pytestqt.qtbot import QtBot

from dpgui.algorithms.progress import Progress
from dpgui.data import DataError, open_dataset
from dpgui.jobs import plan_job
from dpgui.jobs.plan_job import PlanJob
from dpgui.planner.batch import BatchPlan, split_plan
from dpgui.planner.plan_file import load_plan
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, ReservationStatus
from dpgui.privacy.random import SeededRandom
from tests.cli.test_batch import PLAN
from tests.jobs.test_release_job import statuses, with_total

COMMITTED, REFUNDED, TOUCHED = (
    ReservationStatus.COMMITTED,
    ReservationStatus.REFUNDED,
    ReservationStatus.TOUCHED,
)


@pytest.fixture
def batch(tmp_path: Path) -> BatchPlan:
    """The two-release plan of tests/cli/test_batch.py, pure (its costs add up as plain sums)."""
    path = tmp_path / "plan.toml"
    path.write_text(PLAN.replace("delta = 1e-6\n", ""))
    return split_plan(load_plan(path), 2001)


def failed_plan(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, batch: BatchPlan
) -> tuple[str, list[ReservationStatus], str]:
    """Run the plan to its ``failed``: the message, and the ledger and the stored traceback as the window's
    handler of ``failed`` sees them."""
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    seen: list[tuple[list[ReservationStatus], str]] = []
    job.failed.connect(lambda message: seen.append((statuses(ledger, dataset_id), job.error_details)))
    with qtbot.waitSignal(job.failed, timeout=20_000) as failed:
        job.start(pool)
    ((settled, details),) = seen
    return failed.args[0], settled, details


def test_a_plan_cancelled_before_its_first_read_is_refunded_whole_before_cancelled(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, batch: BatchPlan
) -> None:
    """Rule: a release cancelled before it read the data is refunded, like the releases that never
    started, and the refunds are in the ledger when ``cancelled`` arrives. Kills settle_failed_run(...,
    True) in PlanJob._on_failed (a cancelled, untouched release charged) and the settle moved after the
    emit."""
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    job.release_started.connect(lambda index: job.cancel())  # before the worker takes its first step
    seen: list[list[ReservationStatus]] = []
    job.cancelled.connect(lambda: seen.append(statuses(ledger, dataset_id)))
    with qtbot.waitSignal(job.cancelled, timeout=20_000):
        job.start(pool)
    assert not job.touched and job.releases == []
    assert seen == [[REFUNDED, REFUNDED]]
    assert ledger.state(dataset_id).spent == PrivacyCost(0.0)


def test_a_plan_whose_first_release_fails_before_its_read_is_refunded_before_failed(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, batch: BatchPlan, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: a release that fails before its first read is refunded with the rest of the plan, before the
    window hears of the failure; the traceback for "Show Details…" is stored by then too. Kills the
    error_details assignment moved after the emit."""

    def fails_before_reading(*args: object, **kwargs: object) -> Generator[Progress, object, None]:
        yield Progress(0.0, "about to fail")
        raise ValueError("the run broke before reading")

    monkeypatch.setattr(plan_job, "run_algorithm", fails_before_reading)
    message, settled, details = failed_plan(qtbot, pool, wages_csv, batch)
    assert message == "wage CDF: the run broke before reading"
    assert settled == [REFUNDED, REFUNDED]
    assert details.startswith("Traceback") and "ValueError: the run broke before reading" in details


def test_a_commit_that_fails_refunds_the_rest_of_the_plan_before_failed(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, batch: BatchPlan, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: when a release's commit fails, the releases that never started are refunded before ``failed``
    is emitted; the failed one read the data and stays booked. Kills the refund, or the error_details
    assignment, moved after the emit."""

    def commit_fails(*args: object, **kwargs: object) -> None:
        raise OSError("the ledger's disk is full")

    monkeypatch.setattr(plan_job, "finish", commit_fails)
    message, settled, details = failed_plan(qtbot, pool, wages_csv, batch)
    assert message == "Release 'wage CDF' could not be committed: the ledger's disk is full"
    assert settled == [TOUCHED, REFUNDED]
    assert "OSError: the ledger's disk is full" in details


def test_each_release_of_a_plan_states_the_budget_after_the_ones_before_it(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, batch: BatchPlan
) -> None:
    """Figure: the second release's "budget before" (in its manifest and report) holds the first release's
    commit. Kills the first release's state reused for every release of the plan."""
    ledger = Ledger()
    with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    with qtbot.waitSignal(job.finished, timeout=20_000) as finished:
        job.start(pool)
    first, second = finished.args[0]
    assert first.budget_before.spent == PrivacyCost(0.0)
    assert second.budget_before.spent == first.cost
    assert second.budget_before == first.budget_after


def test_a_cancel_between_two_releases_refunds_the_second_before_cancelled(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, batch: BatchPlan
) -> None:
    """Rule: a cancel asked while a release is being committed keeps that release and refunds the next one
    before ``cancelled`` arrives. Kills the refund and the emit swapped in _on_finished."""
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    job.released.connect(lambda index, release: job.cancel())
    seen: list[list[ReservationStatus]] = []
    job.cancelled.connect(lambda: seen.append(statuses(ledger, dataset_id)))
    with qtbot.waitSignal(job.cancelled, timeout=20_000):
        job.start(pool)
    assert seen == [[COMMITTED, REFUNDED]]


def test_a_plan_touch_the_ledger_could_not_record_is_refunded_whole(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, batch: BatchPlan, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Rule: the fsynced "touched" line comes first, then the flag; a release whose line could not be
    written never read the data and is refunded with the rest. Kills the flag set first in _on_touch."""
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))

    def ledger_cannot_write(reservation: object) -> None:
        raise OSError("the ledger's disk is full")

    monkeypatch.setattr(ledger, "mark_touched", ledger_cannot_write)
    with qtbot.waitSignal(job.failed, timeout=20_000):
        job.start(pool)
    assert not job.touched
    assert statuses(ledger, dataset_id) == [REFUNDED, REFUNDED]


def test_a_plan_over_data_in_memory_with_a_bad_value_is_refused_before_it_is_reserved(tmp_path: Path) -> None:
    """Rule: for data in memory, every release's data check runs before the plan is reserved; a refusal
    books nothing. Kills the check's ``if self.in_memory:`` made False or negated."""
    path = tmp_path / "wages.csv"
    path.write_text("wage\n" + "100\n" * 500 + "inf\n")
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN.replace("delta = 1e-6\n", ""))
    dataset = open_dataset(path)
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(2.0))
    with pytest.raises(DataError, match="'inf' is not a finite number"):
        PlanJob(split_plan(load_plan(plan), dataset.n_rows), dataset, ledger, SeededRandom(1))
    assert ledger.entries(record.id) == []


def test_a_scanning_engines_plan_refuses_bad_data_in_the_worker_before_the_touch_and_refunds(
    qtbot: QtBot, pool: QThreadPool, tmp_path: Path
) -> None:
    """Rule: with a scanning engine the data pass runs in the worker before each release touches the data;
    a refusal there refunds the whole plan. Kills _checked_first skipped (``if not self.in_memory`` made
    False) or its ``checked_data`` removed, and the given aggregator replaced by one in memory."""
    from dpgui.data.backends import open_aggregator

    path = tmp_path / "wages.csv"
    path.write_text("wage\n" + "100\n" * 500 + "inf\n")
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN.replace("delta = 1e-6\n", ""))
    opened = open_aggregator(path, "embedded")
    ledger = Ledger()
    record = ledger.open_dataset(opened.dataset.path, opened.dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(2.0))
    batch = split_plan(load_plan(plan), opened.dataset.n_rows)
    job = PlanJob(batch, opened.dataset, ledger, SeededRandom(1), aggregator=opened.aggregator)
    with qtbot.waitSignal(job.failed, timeout=20_000) as failed:
        job.start(pool)
    assert "row 501, column 'wage': 'inf' is not a finite number" in failed.args[0]
    assert not job.touched
    assert statuses(ledger, record.id) == [REFUNDED, REFUNDED]


def test_a_second_release_cancelled_before_its_read_is_refunded_not_charged(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, batch: BatchPlan
) -> None:
    """Rule: each release of a plan is charged only if it read the data itself. The first one's touch does
    not carry over: a cancel as the second starts refunds it. Kills ``self._touched.clear()`` removed from
    _next (the second release then counted as touched and charged)."""
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    job.release_started.connect(lambda index: job.cancel() if index == 1 else None)
    with qtbot.waitSignal(job.cancelled, timeout=20_000):
        job.start(pool)
    assert len(job.releases) == 1 and not job.touched
    assert statuses(ledger, dataset_id) == [COMMITTED, REFUNDED]
    assert ledger.state(dataset_id).spent == batch.releases[0].cost


def test_every_release_after_the_running_one_is_refunded_in_a_longer_plan(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, tmp_path: Path
) -> None:
    """Rule: when a plan stops in its first release, every release after it is refunded, not only the last
    (the two-release plan of the other tests cannot tell). Kills the refund slice starting at
    ``self.index - 1`` (for index 0, the last reservation only)."""
    path = tmp_path / "plan.toml"
    third = (
        '\n[[release]]\nname = "wage median again"\ntask = "median"\ncolumn = "wage"\nbounds = [0, 2000]\n'
    )
    path.write_text(PLAN.replace("delta = 1e-6\n", "") + third)
    batch = split_plan(load_plan(path), 2001)
    assert len(batch.releases) == 3
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = PlanJob(batch, open_dataset(wages_csv), ledger, SeededRandom(1))
    job.release_started.connect(lambda index: job.cancel())
    with qtbot.waitSignal(job.cancelled, timeout=20_000):
        job.start(pool)
    assert statuses(ledger, dataset_id) == [REFUNDED, REFUNDED, REFUNDED]
