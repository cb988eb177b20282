"""Pins found by the mutation scan of the GUI's jobs (notes/mutscan_rel17.md): the ledger is settled
*before* a job tells the window how the run ended, and a single release's "budget before" is read before
its own reservation.

The window reacts to ``cancelled`` and ``failed`` at once (it redraws the budget panel and may close), so
a job that emitted first and settled after would show, and could leave, a reservation still open. The
existing tests only look at the ledger after the signal's wait has returned, when the late settle has
also run; these look at it from a slot connected to the signal itself.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QThreadPool
from pytestqt.qtbot import QtBot

from dpgui.data import open_dataset
from dpgui.data.checks import DataCheck
from dpgui.jobs import release_job
from dpgui.jobs.release_job import ReleaseJob
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, Reservation, ReservationStatus
from dpgui.privacy.random import SeededRandom
from tests.jobs.test_release_job import median_spec, statuses, with_total

COMMITTED, REFUNDED = ReservationStatus.COMMITTED, ReservationStatus.REFUNDED


def test_a_cancel_after_the_touch_is_committed_before_cancelled_is_emitted(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, monkeypatch
) -> None:
    """Rule: a run that read the data stays charged, and the charge is final when ``cancelled`` arrives.
    Kills release_job._on_failed with settle_failed_run moved after the emit."""
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(), open_dataset(wages_csv), ledger, SeededRandom(1))
    mark_touched = ledger.mark_touched

    def touch_then_cancel(reservation: Reservation) -> None:
        mark_touched(reservation)
        job.cancel()

    monkeypatch.setattr(ledger, "mark_touched", touch_then_cancel)
    seen: list[list[ReservationStatus]] = []
    job.cancelled.connect(lambda: seen.append(statuses(ledger, dataset_id)))
    with qtbot.waitSignal(job.cancelled, timeout=5000):
        job.start(pool)
    assert seen == [[COMMITTED]]


def test_a_cancel_before_the_touch_is_refunded_before_cancelled_is_emitted(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path
) -> None:
    """Rule: a run cancelled before it read the data gives its reservation back, and the budget panel that
    redraws on ``cancelled`` already sees the refund."""
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(), open_dataset(wages_csv), ledger, SeededRandom(1))
    job.cancel()
    seen: list[tuple[list[ReservationStatus], PrivacyCost]] = []
    job.cancelled.connect(
        lambda: seen.append((statuses(ledger, dataset_id), ledger.state(dataset_id).pending))
    )
    with qtbot.waitSignal(job.cancelled, timeout=5000):
        job.start(pool)
    assert seen == [([REFUNDED], PrivacyCost(0.0))]


def test_a_failure_before_the_touch_is_refunded_before_failed_is_emitted(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, monkeypatch
) -> None:
    """Rule: a run that failed before its first read is refunded before the window hears of the failure."""
    monkeypatch.setattr(
        release_job, "check_data", lambda dataset, *args, **kwargs: DataCheck(dataset.name, ())
    )  # the pre-charge check passes, so the run itself fails on the missing column, before its first read
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(column="no such column"), open_dataset(wages_csv), ledger, SeededRandom(1))
    seen: list[list[ReservationStatus]] = []
    job.failed.connect(lambda message: seen.append(statuses(ledger, dataset_id)))
    with qtbot.waitSignal(job.failed, timeout=5000):
        job.start(pool)
    assert seen == [[REFUNDED]]


def test_a_gui_release_states_the_budget_before_its_own_reservation(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path
) -> None:
    """Figure: the manifest's and report's "budget before" of a release run from the window. Read after
    the reservation it would show this release's ε already gone from "remaining" (2.0 - 1.0 here) and as
    pending. Kills the swap of ``_budget_before = ledger.state(...)`` and ``reserve(...)`` in ReleaseJob."""
    ledger = Ledger()
    with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(epsilon=1.0), open_dataset(wages_csv), ledger, SeededRandom(1))
    with qtbot.waitSignal(job.released, timeout=5000) as released:
        job.start(pool)
    before = released.args[0].budget_before
    assert before.remaining == PrivacyCost(2.0)
    assert before.pending == PrivacyCost(0.0) and before.spent == PrivacyCost(0.0)


def test_a_commit_that_fails_ends_the_job_with_failed_and_nothing_released(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, monkeypatch
) -> None:
    """Rule: values whose commit failed are never handed on. ``failed`` says so and ``released`` is not
    emitted, and the traceback is stored before the signal. Kills the removal of the ``return`` after that
    ``failed.emit`` (the slot then goes on to emit ``released`` with no release, and raises inside Qt's event
    loop, which pytest-qt reports) and the traceback stored after the emit."""

    def commit_fails(*args: object, **kwargs: object) -> None:
        raise OSError("the ledger's disk is full")

    monkeypatch.setattr(release_job, "finish", commit_fails)
    ledger = Ledger()
    with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(), open_dataset(wages_csv), ledger, SeededRandom(1))
    released: list[object] = []
    job.released.connect(released.append)
    details: list[str] = []
    job.failed.connect(lambda message: details.append(job.error_details))
    with qtbot.waitSignal(job.failed, timeout=5000) as failed:
        job.start(pool)
    assert failed.args == ["The release could not be committed: the ledger's disk is full"]
    assert released == []
    assert len(details) == 1 and "OSError: the ledger's disk is full" in details[0]


def test_the_failures_details_are_ready_when_failed_is_emitted(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, monkeypatch
) -> None:
    """Rule: the window's slot on ``failed`` reads ``error_details`` at once for its "Show Details…" button,
    so the traceback is stored before the signal. Kills the two statements swapped in _on_failed."""
    monkeypatch.setattr(
        release_job, "check_data", lambda dataset, *args, **kwargs: DataCheck(dataset.name, ())
    )
    ledger = Ledger()
    with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(column="no such column"), open_dataset(wages_csv), ledger, SeededRandom(1))
    details: list[str] = []
    job.failed.connect(lambda message: details.append(job.error_details))
    with qtbot.waitSignal(job.failed, timeout=5000):
        job.start(pool)
    assert len(details) == 1
    assert details[0].startswith("Traceback") and "no such column" in details[0]


def test_a_touch_the_ledger_could_not_record_leaves_the_run_untouched_and_refunded(
    qtbot: QtBot, pool: QThreadPool, wages_csv: Path, monkeypatch
) -> None:
    """Rule: the fsynced "touched" line comes first, then the flag. If the ledger cannot write the line,
    the run stops before its first read, so it is refunded, not charged for data it never read. Kills the
    flag set before the line in _on_touch."""
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    job = ReleaseJob(median_spec(), open_dataset(wages_csv), ledger, SeededRandom(1))

    def ledger_cannot_write(reservation: Reservation) -> None:
        raise OSError("the ledger's disk is full")

    monkeypatch.setattr(ledger, "mark_touched", ledger_cannot_write)
    with qtbot.waitSignal(job.failed, timeout=5000) as failed:
        job.start(pool)
    assert failed.args == ["the ledger's disk is full"]
    assert not job.touched
    assert statuses(ledger, dataset_id) == [REFUNDED]
