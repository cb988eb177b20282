"""Running a release plan: every release reserved at once, then run, committed and settled one by one.

The whole plan is booked in one ledger transaction (:meth:`Ledger.reserve_all`: all releases fit together
or none is booked), with one reservation line per release so each is touched, committed or refunded on its
own, exactly as :func:`dpgui.tasks.runner.execute` does for one. If a run fails or is cancelled, it is
settled as a single run would be (committed if it touched the data); if writing its files or its commit
fails, it stays as ``finish`` leaves it (committed, the line saying whether its files were written; open,
so spent, if the commit itself failed). Either way the plan's releases that never started are refunded:
they read nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from dpgui.algorithms.progress import Progress
from dpgui.data.fingerprint import installation_key
from dpgui.privacy.ledger import DatasetRecord, Ledger, Reservation, ReservationRequest
from dpgui.privacy.random import PrivateRandom
from dpgui.release.release import Release
from dpgui.tasks.public_files import refuse_changed_files
from dpgui.tasks.runner import PreparedRun, describe, refuse_private_inputs, run_reserved

if TYPE_CHECKING:
    from dpgui.data.aggregate import Aggregator
    from dpgui.data.dataset import Dataset, DatasetHandle


@dataclass(frozen=True)
class NamedRun:
    """One release of a plan, prepared (resolved, priced and checked) at the public row count."""

    name: str
    prepared: PreparedRun


PLAN_PRICED_AGAIN = "split the plan again, so that its releases are priced on the new file"
"""What to do about a queries file changed since the plan was split (and its releases priced)."""


def reserve_plan(
    runs: Sequence[NamedRun], dataset: Dataset | DatasetHandle, ledger: Ledger
) -> tuple[DatasetRecord, list[Reservation]]:
    """Book every release of the plan in one ledger transaction (all fit or none is booked), one line each.

    The exports' fingerprint key is read first, before the charge (see ``runner.reserve``)."""
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    requests = [
        ReservationRequest(
            run.prepared.cost,
            f"{run.name}: {describe(run.prepared)}",
            account=run.prepared.account,
            curve=run.prepared.curve,
        )
        for run in runs
    ]
    for run in runs:
        refuse_changed_files(run.prepared.spec, PLAN_PRICED_AGAIN)  # charged as it was priced, or not at all
        refuse_private_inputs(run.prepared, record)
    installation_key()
    return record, ledger.reserve_all(record.id, requests)


def execute_batch(
    runs: Sequence[NamedRun],
    dataset: Dataset | DatasetHandle,
    ledger: Ledger,
    rng: PrivateRandom,
    *,
    cancelled: Callable[[], bool] = lambda: False,
    aggregator: Aggregator | None = None,
    engine_choice: str | None = None,
    completed: list[Release] | None = None,
    stage: Callable[[int, NamedRun, Release], str] | None = None,
) -> Generator[Progress, None, list[Release]]:
    """Reserve the whole plan, then run each release in order; returns the releases (module doc).

    ``engine_choice`` is the engine as the custodian chose it, recorded in each manifest (as ``execute``).
    ``completed``, when given, receives each release as soon as it is committed, so a caller can still write
    the committed (charged) releases when a later one fails or is cancelled. ``stage``, when given, writes
    the ``index``-th release (from 0) before its commit and says where (``runner.finish``'s ``stage``).
    """
    record, reservations = reserve_plan(runs, dataset, ledger)
    releases: list[Release] = [] if completed is None else completed
    for index, (run, reservation) in enumerate(zip(runs, reservations, strict=True)):
        unsettled = index  # reservations[unsettled:] are refunded if the plan stops here
        try:  # a release that fails to run, or to be written and committed, stops the plan
            budget_before = ledger.state(record.id, run.prepared.account)  # may wait on the lock: Ctrl-C
            unsettled = index + 1  # from here run_reserved settles this release (charged once touched)
            release = yield from run_reserved(
                run.prepared,
                dataset,
                ledger,
                rng,
                record=record,
                reservation=reservation,
                budget_before=budget_before,
                cancelled=cancelled,
                aggregator=aggregator,
                engine_choice=engine_choice,
                stage=None if stage is None else partial(stage, index, run),
            )
            releases.append(release)
        except BaseException:
            for never_started in reservations[unsettled:]:
                ledger.refund(never_started)
            raise
    return releases
