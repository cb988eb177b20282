"""From a task spec to a charged release: validate, price, check, reserve, run, commit.

The steps are separate so the GUI can do the ledger's part in its own thread and the algorithm in a
worker (see ``dpgui/jobs``), while the CLI chains them with :func:`execute`.

Order of events, which the privacy guarantees depend on:

1. :func:`prepare` resolves ``auto``, prices the run and checks the preconditions from public facts
   only (the spec and the public row count). Nothing of the private data has been read.
2. :func:`reserve` books the cost in the ledger, or refuses an overspend.
3. :func:`run_algorithm` records that the data is being touched (a fsynced ledger line) *before* it
   reads any aggregate, then runs the algorithm.
4. :func:`finish` commits the reservation and only then builds the :class:`Release` whose values a
   caller may show. A run that fails or is cancelled after step 3 is committed too; only a run that never
   touched the data is refunded.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Generator
from dataclasses import dataclass
from datetime import UTC, datetime

from dpgui import APP_NAME, __version__
from dpgui.algorithms.progress import Progress
from dpgui.data.aggregate import Aggregator, InMemoryAggregator
from dpgui.data.dataset import Dataset, DatasetHandle
from dpgui.data.validation import require_columns
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState, DatasetRecord, Ledger, Reservation
from dpgui.privacy.random import PrivateRandom
from dpgui.release.release import DatasetInfo, Release
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.registry import AlgorithmInfo, PreconditionFailure, algorithms, get_algorithm
from dpgui.tasks.spec import AUTO, TaskSpec


class PreconditionFailed(Exception):
    """An algorithm refuses to run at this n; raised before any private data is read."""

    def __init__(self, failures: tuple[PreconditionFailure, ...]) -> None:
        self.failures = failures
        super().__init__("; ".join(f.message for f in failures))

    @property
    def min_n(self) -> int | None:
        needs = [f.min_n for f in self.failures if f.min_n is not None]
        return max(needs) if needs else None


class RunCancelled(Exception):
    """The user cancelled; the budget stays charged if the data was touched."""


@dataclass(frozen=True)
class PreparedRun:
    """A spec resolved to one algorithm and priced, checked against the public row count."""

    spec: TaskSpec
    algorithm: AlgorithmInfo
    cost: PrivacyCost
    n: int
    auto_reason: str | None = None


def prepare(spec: TaskSpec, n: int) -> PreparedRun:
    """Resolve ``auto``, price the run and enforce preconditions. Reads nothing private."""
    if spec.algorithm == AUTO:
        algorithm, reason = choose_auto(spec, n)
        spec = spec.with_algorithm(algorithm.name)
    else:
        algorithm, reason = get_algorithm(spec.algorithm), None
        if algorithm.task is not spec.kind:
            raise ValueError(f"algorithm {algorithm.name!r} does not solve the task {spec.kind.value!r}")
    failures = algorithm.preconditions(spec, n)
    if failures:
        raise PreconditionFailed(failures)
    return PreparedRun(spec=spec, algorithm=algorithm, cost=algorithm.cost(spec), n=n, auto_reason=reason)


def choose_auto(spec: TaskSpec, n: int) -> tuple[AlgorithmInfo, str]:
    """The feasible algorithm with the smallest expected error, and a sentence saying why.

    A calibrated algorithm is ranked by its median error in seeded simulations on public or synthetic
    data of the declared shape (``tasks.simulation.expected_error``); the others by their a-priori bound.
    """
    from dpgui.tasks.simulation import expected_error  # the simulation runs registered algorithms

    candidates = []
    for info in algorithms(spec.kind):
        concrete = spec.with_algorithm(info.name)
        if spec.delta == 0 and not info.cost(concrete).is_pure:
            continue
        if info.preconditions(concrete, n):
            continue
        simulated = expected_error(concrete, n) if info.calibrated else None
        if simulated is not None:
            candidates.append((simulated, info, "simulated mean error"))
        else:
            candidates.append((info.predicted_error(concrete, n), info, "predicted error"))
    if not candidates:
        failures = tuple(
            failure
            for info in algorithms(spec.kind)
            for failure in info.preconditions(spec.with_algorithm(info.name), n)
        )
        nothing_fits = PreconditionFailure(
            f"no algorithm for {spec.kind.value} fits ε={spec.epsilon}, δ={spec.delta}"
        )
        raise PreconditionFailed(failures or (nothing_fits,))
    error, best, kind = min(candidates, key=lambda triple: triple[0])
    others = ", ".join(f"{info.name}: {err:.4g}" for err, info, _ in candidates if info is not best)
    reason = f"auto chose {best.name}: {kind} {error:.4g} {best.error_unit}" + (
        f" (others: {others})" if others else " (the only feasible algorithm)"
    )
    return best, reason


def reserve(prepared: PreparedRun, ledger: Ledger, record: DatasetRecord) -> Reservation:
    """Book the run's cost before it starts (raises BudgetExceeded or BudgetNotSet)."""
    spec = prepared.spec
    description = f"{spec.kind.value} of {', '.join(spec.columns)} by {prepared.algorithm.name}"
    return ledger.reserve(record.id, prepared.cost, description)


def run_algorithm(
    prepared: PreparedRun,
    dataset: Dataset | DatasetHandle,
    rng: PrivateRandom,
    on_touch: Callable[[], None],
    cancelled: Callable[[], bool] = lambda: False,
    aggregator: Callable[[Dataset], Aggregator] = InMemoryAggregator,
) -> Generator[Progress, None, ReleaseTable]:
    """Run the algorithm on the private data; ``on_touch`` is called before the first read."""
    require_columns(dataset.header, list(prepared.spec.columns), file_name=dataset.name)
    on_touch()
    run = prepared.algorithm.run(prepared.spec, aggregator(dataset), rng)
    while True:
        if cancelled():
            run.close()
            raise RunCancelled("cancelled after the private data was read; the budget stays spent")
        try:
            step = next(run)
        except StopIteration as stop:
            return stop.value
        yield step


def finish(
    prepared: PreparedRun,
    table: ReleaseTable,
    *,
    dataset: Dataset | DatasetHandle,
    ledger: Ledger,
    record: DatasetRecord,
    reservation: Reservation,
    budget_before: BudgetState,
    rng: PrivateRandom,
    aggregation_backend: str = InMemoryAggregator.name,
) -> Release:
    """Commit the spend, then wrap the outputs into a Release (the commit comes first)."""
    release_id = uuid.uuid4().hex
    ledger.commit(reservation, release_id)
    return Release(
        release_id=release_id,
        created=datetime.now(UTC),
        app=APP_NAME,
        app_version=__version__,
        dataset=DatasetInfo(dataset.name, dataset.sha256, dataset.n_rows),
        spec=prepared.spec,
        algorithm=prepared.algorithm,
        cost=prepared.cost,
        table=table,
        private=rng.is_private,
        randomness=rng.description,
        budget_before=budget_before,
        budget_after=ledger.state(record.id),
        auto_reason=prepared.auto_reason,
        aggregation_backend=aggregation_backend,
    )


def settle_failed_run(ledger: Ledger, reservation: Reservation, touched: bool) -> None:
    """After an error or a cancel: a run that touched the data stays charged; otherwise refund it."""
    if touched:
        ledger.commit(reservation, None)
    else:
        ledger.refund(reservation)


def execute(
    spec: TaskSpec,
    dataset: Dataset | DatasetHandle,
    ledger: Ledger,
    rng: PrivateRandom,
    *,
    cancelled: Callable[[], bool] = lambda: False,
    aggregator: Aggregator | None = None,
) -> Generator[Progress, None, Release]:
    """The whole flow for one release (the CLI's path; the GUI runs the same steps across threads).

    ``aggregator`` (from ``dpgui.data.backends.open_aggregator``) reads the data; by default the
    in-memory one over ``dataset``, which must then be a loaded ``Dataset``.
    """
    factory = InMemoryAggregator if aggregator is None else lambda _: aggregator
    prepared = prepare(spec, dataset.n_rows)
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    budget_before = ledger.state(record.id)
    reservation = reserve(prepared, ledger, record)
    touched = False

    def touch() -> None:
        nonlocal touched
        ledger.mark_touched(reservation)
        touched = True

    try:
        table = yield from run_algorithm(prepared, dataset, rng, touch, cancelled, factory)
    except BaseException:
        settle_failed_run(ledger, reservation, touched)
        raise
    return finish(
        prepared,
        table,
        dataset=dataset,
        ledger=ledger,
        record=record,
        reservation=reservation,
        budget_before=budget_before,
        rng=rng,
        aggregation_backend=(aggregator or InMemoryAggregator).name,
    )
