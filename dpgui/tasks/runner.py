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
   caller may show (with a ``stage`` callback: the outputs are written where nobody sees them yet, then the
   commit, whose line says where they are; the caller then moves them into place). A run that fails or is
   cancelled after step 3 is committed too; only a run that never touched the data is refunded.
"""

from __future__ import annotations

import dataclasses
import functools
import uuid
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from dpgui import APP_NAME, __version__
from dpgui.algorithms.progress import Progress
from dpgui.data.engines import Engine
from dpgui.data.errors import DataError
from dpgui.data.fingerprint import installation_key, keyed_fingerprint
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.curve import PrivacyCurve
from dpgui.privacy.ledger import Account, BudgetState, DatasetRecord, Ledger, Reservation, ReservationRequest
from dpgui.privacy.random import PrivateRandom
from dpgui.release.release import DatasetInfo, Release
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.public_files import named_files, pinned, refuse_changed_files
from dpgui.tasks.registry import AlgorithmInfo, PreconditionFailure, algorithms, get_algorithm
from dpgui.tasks.review import algorithm_check_failures, predicted_error_text, sample_fit
from dpgui.tasks.spec import AUTO, LABELLED_KINDS, TaskSpec

if TYPE_CHECKING:  # the data layer (pandas) is imported by the functions that read data, not by planning
    from dpgui.data.aggregate import Aggregator
    from dpgui.data.dataset import Dataset, DatasetHandle


class PreconditionFailed(Exception):
    """An algorithm refuses to run at this n; raised before any private data is read."""

    def __init__(self, failures: tuple[PreconditionFailure, ...]) -> None:
        self.failures = failures
        # auto's candidates often fail for one shared reason (a column too fine for any table algorithm)
        # a reason ends with a full stop or not: joined, each but the last loses it ("le.; the" read badly)
        reasons = list(dict.fromkeys(f.message for f in failures))
        super().__init__("; ".join([*(reason.rstrip(".") for reason in reasons[:-1]), *reasons[-1:]]))

    @property
    def parameters_unusable(self) -> bool:
        """Every failure is about the chosen parameters, not the row count."""
        return all(failure.parameter for failure in self.failures)

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
    curve: PrivacyCurve | None = None
    """The privacy curve the ledger records beside ``cost`` (see ``AlgorithmInfo.recorded_curve``)."""

    @property
    def account(self) -> Account:
        """The ledger account this run is booked on (dpgui.privacy.ledger.Account)."""
        return self.algorithm.account(self.spec)


def prepare(spec: TaskSpec, n: int, *, simulate: bool = True) -> PreparedRun:
    """Resolve ``auto``, pin the PUBLIC files the parameters name (``public_files.pinned``), price the run
    and enforce preconditions. Reads nothing private.

    ``simulate=False`` lets ``auto`` rank by the a-priori bounds alone (a planner's inner search, which
    resolves ``auto`` at many budgets, cannot afford a simulation at each)."""
    if spec.kind in LABELLED_KINDS and spec.label is None:  # a fuzzed plan's run failed after its charge
        raise ValueError(f"a {spec.kind.value} learning task needs a label column (the plan's 'label')")
    if spec.algorithm == AUTO:
        algorithm, reason = choose_auto(spec, n, simulate=simulate)
        spec = spec.with_algorithm(algorithm.name)
    else:
        algorithm, reason = get_algorithm(spec.algorithm), None
        if algorithm.task is not spec.kind:
            raise ValueError(f"algorithm {algorithm.name!r} does not solve the task {spec.kind.value!r}")
    spec = pinned(spec, algorithm)  # priced, checked and run on the named files' bytes as read now
    failures = algorithm.preconditions(spec, n)
    if failures:
        raise PreconditionFailed(failures)
    return PreparedRun(
        spec=spec,
        algorithm=algorithm,
        cost=algorithm.cost(spec),
        n=n,
        auto_reason=reason,
        curve=algorithm.recorded_curve(spec),
    )


def prepared_again(spec: TaskSpec, n: int, reviewed: PreparedRun | None) -> PreparedRun:
    """``reviewed`` when it was prepared from ``spec`` at ``n`` rows (the run a review priced, with the files
    it pinned then), else ``prepare(spec, n)``: a charge after a review charges what was reviewed, even if
    a public file changed between the review's check and this moment (it is then refused before the touch).
    """
    if reviewed is not None and reviewed.n == n and spec.algorithm in (AUTO, reviewed.algorithm.name):
        asked = dataclasses.replace(reviewed.spec, algorithm=spec.algorithm, pinned_files=spec.pinned_files)
        if asked == spec:
            return reviewed
    return prepare(spec, n)


def choose_auto(spec: TaskSpec, n: int, *, simulate: bool = True) -> tuple[AlgorithmInfo, str]:
    """The feasible algorithm with the smallest expected error, and a sentence saying why.

    A calibrated algorithm is ranked by its mean error in seeded simulations on public or synthetic data
    on the declared domain (``tasks.simulation.expected_error``; over synthetic shapes, the geometric mean
    of their mean errors); the others by their a-priori bound.
    An algorithm failing a check of how it uses the public sample (``review.algorithm_checks``) is never
    chosen, nor one booked on an account other than replace-one.
    """
    from dpgui.tasks.simulation import (  # the simulation runs registered algorithms
        RACE_FACTOR,
        SIMULATED,
        error_estimate,
        simulates_public_sample,
    )

    candidates, unfit, infeasible = [], [], []
    refusals: list[tuple[str, tuple[PreconditionFailure, ...]]] = []
    for info in algorithms(spec.kind):
        concrete = spec.with_algorithm(info.name)
        if spec.delta == 0 and not info.cost(concrete).is_pure:
            continue
        if info.account(concrete) is not Account.REPLACE_ONE:
            continue  # a weaker guarantee is an explicit choice, never auto's
        failures = info.preconditions(concrete, n)
        if failures:
            infeasible.append(info.name)
            refusals.append((info.name, failures))
            continue
        checks = algorithm_check_failures(concrete, info)
        if checks:
            unfit.append(info.name)
            refusals.append((info.name, tuple(PreconditionFailure(check.detail) for check in checks)))
            continue
        estimate = error_estimate(info, concrete, n, simulate=simulate)
        candidates.append((estimate.value, info, estimate.kind))
    if not candidates:
        nothing_fits = PreconditionFailure(
            f"no algorithm for {spec.kind.value} fits ε={spec.epsilon}, δ={spec.delta}"
        )
        raise PreconditionFailed(_why_none_fits(refusals) or (nothing_fits,))
    candidates, raced = _race(spec, n, candidates)
    error, best, kind = min(candidates, key=lambda triple: triple[0])
    others = ", ".join(f"{info.name}: {err:.4g}" for err, info, _ in candidates if info is not best)
    reason = f"auto chose {best.name}: {kind} {error:.4g} {best.error_unit}" + (
        f" (others: {others})" if others else " (the only feasible algorithm)"
    )
    if raced:
        reason += (
            f"; {', '.join(raced)} came close and were simulated again with {RACE_FACTOR} times the releases"
        )
    if unfit:
        reason += f"; not considered: {', '.join(unfit)} (the public sample does not match the grid)"
    if infeasible:
        reason += (
            f"; refused here: {', '.join(infeasible)} (a precondition fails: choosing one by name says which)"
        )
    if any(kind == SIMULATED for _, _, kind in candidates) and not simulates_public_sample(spec):
        fit = sample_fit(spec)
        why = (
            "a public sample of it informs the choice"
            if fit is None
            else f"the public sample does not describe the declared grid ({fit.detail()})"
        )
        shapes = "synthetic shapes (the geometric mean of their errors)"
        reason += f"; simulated on {shapes}, not on this column's: {why}"
    return best, reason


def _race(
    spec: TaskSpec, n: int, candidates: list[tuple[float, AlgorithmInfo, str]]
) -> tuple[list[tuple[float, AlgorithmInfo, str]], list[str]]:
    """The candidates with the simulated ones within RACE_MARGIN of the best simulated re-estimated from
    RACE_FACTOR times the releases (``simulation.refine_expected_error``), and the names of those raced."""
    from dpgui.tasks.simulation import RACE_MARGIN, SIMULATED

    simulated = [value for value, _, kind in candidates if kind == SIMULATED]
    if len(simulated) < 2:
        return candidates, []
    close = {info.name for value, info, kind in candidates if kind == SIMULATED
             and value <= RACE_MARGIN * min(simulated)}  # fmt: skip
    if len(close) < 2:
        return candidates, []
    raced = [
        (_refined(spec.with_algorithm(info.name), n, value), info, kind)
        if info.name in close
        else (value, info, kind)
        for value, info, kind in candidates
    ]
    return raced, [info.name for _, info, _ in candidates if info.name in close]


def _refined(spec: TaskSpec, n: int, first: float) -> float:
    """The raced estimate of a simulated spec (``first`` only if it has none): an error of 0, which a
    median on a spiky column can have, is an estimate like any other."""
    from dpgui.tasks.simulation import refine_expected_error

    refined = refine_expected_error(spec, n)
    return first if refined is None else refined


def _why_none_fits(
    refusals: Sequence[tuple[str, tuple[PreconditionFailure, ...]]],
) -> tuple[PreconditionFailure, ...]:
    """Each reason the algorithms auto considered refused (name, reasons), once; a reason they do not all
    give is led by the names of those that do.

    An algorithm auto never considers (another ledger account, a cost that is not pure at δ = 0) says
    nothing. A fuzz run's refusal of a repeated distance column ended "...; the Gaussian baseline needs
    delta > 0", the reason of one algorithm of six, unnamed, and listed reasons of algorithms auto skips."""
    givers: dict[str, list[str]] = {}
    first: dict[str, PreconditionFailure] = {}
    for name, failures in refusals:
        for failure in failures:
            givers.setdefault(failure.message, []).append(name)
            first.setdefault(failure.message, failure)
    return tuple(
        first[message]
        if len(names) == len(refusals)
        else dataclasses.replace(first[message], message=f"{', '.join(names)}: {message}")
        for message, names in givers.items()
    )


def describe(prepared: PreparedRun) -> str:
    """The run as the ledger lists it: 'cdf of wage by tree-laplace'."""
    spec = prepared.spec
    return f"{spec.kind.value} of {', '.join(spec.columns)} by {prepared.algorithm.name}"


def refuse_private_inputs(prepared: PreparedRun, record: DatasetRecord | Dataset | DatasetHandle) -> None:
    """Refuse (DataError, before any charge) a public sample, or a PUBLIC file named by a parameter (a
    queries file), with the private file's bytes (``record``: its ledger record, or the opened file): it is
    the private data, whose values or hash would reach an export. A copy in another format or with a
    changed byte cannot be told apart from public data."""
    public = prepared.spec.public
    if public is not None and public.sha256 == record.sha256:
        raise DataError(
            f"the public sample {public.path.name} has the same bytes as the private file {record.name}: a "
            "public sample must be public data; give another file, or none"
        )
    names = {path: name for name, path in named_files(prepared.spec, prepared.algorithm)}
    for path, sha256 in prepared.spec.pinned_files:
        if sha256 == record.sha256:
            raise DataError(
                f"the {names[path]} file {Path(path).name} has the same bytes as the private file "
                f"{record.name}: it must hold public data only; give another file"
            )


def reserve(prepared: PreparedRun, ledger: Ledger, record: DatasetRecord) -> Reservation:
    """Book the run's cost before it starts (raises BudgetExceeded or BudgetNotSet).

    The installation key that fingerprints the export is read (or made) first: a key that cannot be read
    fails here, before the charge, not in :func:`finish` after the commit. Public inputs changed since the
    run was priced (``public_files.refuse_changed_files``) or with the private file's bytes
    (:func:`refuse_private_inputs`) are refused first."""
    refuse_changed_files(prepared.spec)
    refuse_private_inputs(prepared, record)
    installation_key()
    return ledger.reserve_all(record.id, [reservation_request(prepared)])[0]


def reservation_request(prepared: PreparedRun) -> ReservationRequest:
    """What the ledger books for the run: its cost and privacy curve on its account."""
    return ReservationRequest(prepared.cost, describe(prepared), prepared.account, prepared.curve)


def over_budget(prepared: PreparedRun, ledger: Ledger, dataset_id: str | None) -> str | None:
    """The ledger's words if it would refuse the run's reservation now (None: it fits, or the dataset is
    not in the ledger yet or has no total, which the reservation refuses on its own). Books nothing."""
    return None if dataset_id is None else ledger.refusal(dataset_id, reservation_request(prepared))


def run_algorithm(
    prepared: PreparedRun,
    dataset: Dataset | DatasetHandle,
    rng: PrivateRandom,
    on_touch: Callable[[], None],
    cancelled: Callable[[], bool] = lambda: False,
    aggregator: Callable[[Dataset], Aggregator] | None = None,
) -> Generator[Progress, object, ReleaseTable]:
    """Run the algorithm on the private data; ``on_touch`` is called before the first read. ``aggregator``
    makes the engine over ``dataset`` (default: in memory)."""
    from dpgui.data.aggregate import InMemoryAggregator
    from dpgui.data.validation import require_columns

    require_columns(dataset.header, list(prepared.spec.columns), file_name=dataset.name)
    engine = (aggregator or InMemoryAggregator)(dataset)
    engine.refuse_changed_source()  # before the touch: a file changed since its check is refused, refunded
    refuse_changed_files(prepared.spec)  # so is a queries file changed since the run was priced
    on_touch()
    run = prepared.algorithm.run(prepared.spec, engine, rng)
    request: object = None  # what the caller sends in (FINISH_NOW), passed on to the algorithm
    while True:
        if cancelled():
            run.close()
            raise RunCancelled("cancelled after the private data was read; the budget stays spent")
        try:
            step = run.send(request)
        except StopIteration as stop:
            return stop.value
        request = yield step


def _error_bound(prepared: PreparedRun) -> str:
    """The a-priori error bound the report states, in the review's words (public facts only). A public file
    it reads (a public sample, a queries file) that changed or went since the run began leaves the report
    without it ('') rather than failing a release that is charged."""
    try:
        bound = prepared.algorithm.predicted_error(prepared.spec, prepared.n)
    except (OSError, ValueError):
        return ""
    return f"a-priori bound: {predicted_error_text(bound, prepared.algorithm.error_unit, prepared.n)}"


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
    aggregation_backend: str = Engine.MEMORY.value,
    stage: Callable[[Release], str] | None = None,
) -> Release:
    """Commit the spend, then wrap the outputs into a Release (the commit comes first).

    ``aggregation_backend`` is the engine as the custodian chose it (``auto`` stays ``auto``).

    With ``stage``, the Release (its budget after the commit predicted) is first handed to ``stage``, which
    writes every output somewhere not yet visible and returns where; the commit line records it. If staging
    fails, the run (which read the data) is committed all the same, its line saying no files were written.
    """
    release_id = uuid.uuid4().hex
    head = ledger.head()  # the commit line's prev, unless another process appends first (then before it)
    error_bound = _error_bound(prepared)

    def release(budget_after: BudgetState) -> Release:
        return Release(
            release_id=release_id,
            created=datetime.now(UTC),
            app=APP_NAME,
            app_version=__version__,
            dataset=DatasetInfo(
                dataset.name, keyed_fingerprint(dataset.sha256), dataset.n_rows, dataset.encoding
            ),
            spec=prepared.spec,
            algorithm=prepared.algorithm,
            cost=prepared.cost,
            table=table,
            private=rng.is_private,
            randomness=rng.description,
            budget_before=budget_before,
            budget_after=budget_after,
            auto_reason=prepared.auto_reason,
            error_bound=error_bound,
            aggregation_backend=aggregation_backend,
            ledger_head=head,
        )

    if stage is None:
        ledger.commit(reservation, release_id)
        return release(ledger.state(record.id, prepared.account))
    staged = release(ledger.state(record.id, prepared.account, as_committed=reservation))
    try:
        where = stage(staged)
    except BaseException as error:
        ledger.commit(reservation, release_id, files=f"none: writing the outputs failed ({error})")
        raise
    ledger.commit(reservation, release_id, files=where)
    return staged


def engine_name(aggregator: Aggregator | None, engine_choice: str | None) -> str:
    """The engine a manifest names: as the custodian chose it, else the aggregator's, else in memory."""
    return engine_choice or (Engine.MEMORY.value if aggregator is None else aggregator.name)


def settle_failed_run(ledger: Ledger, reservation: Reservation) -> None:
    """After an error or a cancel: a run that touched the data stays charged; otherwise refund it. The
    ledger's record of the touch decides (``Ledger.settle_unfinished``), not the run's flag: an interrupt
    after the touched line was written and before the flag was set turned a charge into a refused refund."""
    ledger.settle_unfinished(reservation)


def execute(
    spec: TaskSpec,
    dataset: Dataset | DatasetHandle,
    ledger: Ledger,
    rng: PrivateRandom,
    *,
    cancelled: Callable[[], bool] = lambda: False,
    aggregator: Aggregator | None = None,
    engine_choice: str | None = None,
    stage: Callable[[Release], str] | None = None,
    staging: str | None = None,
) -> Generator[Progress, None, Release]:
    """The whole flow for one release (the CLI's path; the GUI runs the same steps across threads).

    ``aggregator`` (from ``dpgui.data.backends.open_aggregator``) reads the data; by default the
    in-memory one over ``dataset``, which must then be a loaded ``Dataset``. ``engine_choice`` is the engine
    as the custodian chose it (``OpenedData.engine_choice``), recorded in the manifest. ``staging``: where
    ``stage`` will write the outputs (``OutFolder.describe``), recorded in the touched line.
    """
    prepared = prepare(spec, dataset.n_rows)
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    budget_before = ledger.state(record.id, prepared.account)
    reservation = reserve(prepared, ledger, record)
    return (
        yield from run_reserved(
            prepared,
            dataset,
            ledger,
            rng,
            record=record,
            reservation=reservation,
            budget_before=budget_before,
            cancelled=cancelled,
            aggregator=aggregator,
            engine_choice=engine_choice,
            stage=stage,
            staging=staging,
        )
    )


def run_reserved(
    prepared: PreparedRun,
    dataset: Dataset | DatasetHandle,
    ledger: Ledger,
    rng: PrivateRandom,
    *,
    record: DatasetRecord,
    reservation: Reservation,
    budget_before: BudgetState,
    cancelled: Callable[[], bool],
    aggregator: Aggregator | None,
    engine_choice: str | None,
    stage: Callable[[Release], str] | None,
    staging: str | None = None,
) -> Generator[Progress, None, Release]:
    """Run a reserved release and finish it (stage, commit); a run that fails or is cancelled is settled
    (``settle_failed_run``: charged once it touched the data, else refunded). ``execute``'s steps after the
    reservation, and each step of a plan (``batch_run.execute_batch``)."""
    factory = None if aggregator is None else lambda _: aggregator
    touch = functools.partial(ledger.mark_touched, reservation, staging)  # once the run reads the data
    try:
        table = yield from run_algorithm(prepared, dataset, rng, touch, cancelled, factory)
    except BaseException:
        settle_failed_run(ledger, reservation)
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
        aggregation_backend=engine_name(aggregator, engine_choice),
        stage=stage,
    )
