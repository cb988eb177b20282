"""Model-based test of the budget ledger: random operation sequences, crashes, reopens and torn writes.

Costs and totals are dyadic (multiples of 1/8 and of 2^-20), so the model's sums are exact and its
fits-or-not decision cannot disagree with the ledger's tolerance-based one.
"""

from __future__ import annotations

import math
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, multiple, rule

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import (
    BudgetExceeded,
    BudgetNotSet,
    BudgetState,
    Ledger,
    LedgerError,
    Reservation,
    ReservationStatus,
)

DELTA_UNIT = 2.0**-20
DATASETS = 2
OPEN = (ReservationStatus.PENDING, ReservationStatus.TOUCHED)
SPENT = (ReservationStatus.COMMITTED, ReservationStatus.UNRESOLVED)

costs = st.builds(
    PrivacyCost,
    st.sampled_from([0.0, 0.125, 0.25, 0.5, 1.0]),
    st.sampled_from([0.0, DELTA_UNIT, 2 * DELTA_UNIT]),
)
totals = st.builds(
    PrivacyCost,
    st.integers(0, 16).map(lambda k: k / 8),
    st.integers(0, 4).map(lambda k: k * DELTA_UNIT),
)
dataset_indices = st.integers(0, DATASETS - 1)


@dataclass
class ModelReservation:
    id: str
    dataset: int
    cost: PrivacyCost
    status: ReservationStatus


def close(a: float, b: float) -> bool:
    return math.isclose(a, b, rel_tol=1e-12)


def same_cost(actual: PrivacyCost, expected: tuple[float, float]) -> bool:
    return close(actual.epsilon, expected[0]) and close(actual.delta, expected[1])


class LedgerMachine(RuleBasedStateMachine):
    reservations = Bundle("reservations")

    def __init__(self) -> None:
        super().__init__()
        self.folder = Path(tempfile.mkdtemp())
        self.path = self.folder / "ledger.jsonl"
        self.ledger = Ledger(self.path)
        self.totals: list[PrivacyCost | None] = [None] * DATASETS
        self.model: list[ModelReservation] = []
        self.torn_writes = 0
        self.dataset_ids: list[str] = []

    @initialize()
    def register_datasets(self) -> None:
        self.dataset_ids = [
            self.ledger.open_dataset(self.folder / f"data{i}.csv", f"{i}" * 64).id for i in range(DATASETS)
        ]

    def teardown(self) -> None:
        shutil.rmtree(self.folder)

    # -- model helpers -------------------------------------------------------------------------------------

    def sum_of(self, dataset: int, statuses: tuple[ReservationStatus, ...]) -> tuple[float, float]:
        chosen = [r.cost for r in self.model if r.dataset == dataset and r.status in statuses]
        return math.fsum(c.epsilon for c in chosen), math.fsum(c.delta for c in chosen)

    def find(self, reservation: Reservation) -> ModelReservation:
        return next(r for r in self.model if r.id == reservation.id)

    def check_state(self, state: BudgetState, dataset: int, *, pending_counts_as_spent: bool) -> None:
        spent = self.sum_of(dataset, SPENT + OPEN if pending_counts_as_spent else SPENT)
        pending = (0.0, 0.0) if pending_counts_as_spent else self.sum_of(dataset, OPEN)
        assert same_cost(state.spent, spent), (state, spent)
        assert same_cost(state.pending, pending), (state, pending)
        total = self.totals[dataset]
        assert state.total == total
        if total is None:
            assert state.remaining is None
        else:
            assert state.remaining is not None
            used = (spent[0] + pending[0], spent[1] + pending[1])
            remaining = (max(0.0, total.epsilon - used[0]), max(0.0, total.delta - used[1]))
            assert same_cost(state.remaining, remaining), (state, remaining)

    # -- rules ---------------------------------------------------------------------------------------------

    @rule(dataset=dataset_indices, total=totals)
    def set_total(self, dataset: int, total: PrivacyCost) -> None:
        self.ledger.set_total(self.dataset_ids[dataset], total, note="model")
        self.totals[dataset] = total

    @rule(target=reservations, dataset=dataset_indices, cost=costs)
    def reserve(self, dataset: int, cost: PrivacyCost) -> object:
        total = self.totals[dataset]
        used = self.sum_of(dataset, SPENT + OPEN)
        dataset_id = self.dataset_ids[dataset]
        if total is None:
            expected_refusal: type[LedgerError] | None = BudgetNotSet
        elif used[0] + cost.epsilon > total.epsilon or used[1] + cost.delta > total.delta:
            expected_refusal = BudgetExceeded
        else:
            expected_refusal = None
        try:
            reservation = self.ledger.reserve(dataset_id, cost, "model run")
        except (BudgetNotSet, BudgetExceeded) as refused:
            assert type(refused) is expected_refusal, refused
            return multiple()
        assert expected_refusal is None, "the ledger granted a reservation the model refuses"
        assert total is not None
        granted = [
            e.cost for e in self.ledger.entries(dataset_id) if e.status is not ReservationStatus.REFUNDED
        ]
        assert math.fsum(c.epsilon for c in granted) <= total.epsilon * (1 + 1e-9)
        assert math.fsum(c.delta for c in granted) <= total.delta * (1 + 1e-9)
        self.model.append(ModelReservation(reservation.id, dataset, cost, ReservationStatus.PENDING))
        return reservation

    def resolve(self, reservation: Reservation, action: str, allowed: tuple[ReservationStatus, ...]) -> None:
        """Run ``action`` on the ledger; it must succeed exactly when the model status is in ``allowed``."""
        entry = self.find(reservation)
        try:
            getattr(self.ledger, action)(reservation)
        except LedgerError:
            assert entry.status not in allowed, (action, entry)
            return
        assert entry.status in allowed, (action, entry)
        entry.status = {
            "mark_touched": ReservationStatus.TOUCHED,
            "commit": ReservationStatus.COMMITTED,
            "refund": ReservationStatus.REFUNDED,
        }[action]

    @rule(reservation=reservations)
    def mark_touched(self, reservation: Reservation) -> None:
        self.resolve(reservation, "mark_touched", OPEN)

    @rule(reservation=reservations)
    def commit(self, reservation: Reservation) -> None:
        self.resolve(reservation, "commit", OPEN)

    @rule(reservation=reservations)
    def refund(self, reservation: Reservation) -> None:
        self.resolve(reservation, "refund", (ReservationStatus.PENDING,))

    @rule()
    def crash(self) -> None:
        """The process dies: a new one opens the file; open reservations become unresolved (spent)."""
        self.ledger = Ledger(self.path)
        for entry in self.model:
            if entry.status in OPEN:
                entry.status = ReservationStatus.UNRESOLVED

    @rule()
    def reopen_elsewhere(self) -> None:
        """Another process reads the file: it sees everything, with our open reservations as spent."""
        other = Ledger(self.path)
        for dataset, dataset_id in enumerate(self.dataset_ids):
            self.check_state(other.state(dataset_id), dataset, pending_counts_as_spent=True)

    @rule(fraction=st.floats(0.0, 1.0))
    def torn_write(self, fraction: float) -> None:
        """A writer died mid-line: append a prefix (without newline) of a line."""
        line = self.path.read_bytes().splitlines()[-1]
        with self.path.open("ab") as f:
            f.write(line[: min(len(line) - 1, max(1, int(len(line) * fraction)))])
        self.torn_writes += 1

    # -- invariants ----------------------------------------------------------------------------------------

    @invariant()
    def matches_the_model(self) -> None:
        for dataset, dataset_id in enumerate(self.dataset_ids):
            self.check_state(self.ledger.state(dataset_id), dataset, pending_counts_as_spent=False)
            expected = [(r.id, r.status) for r in self.model if r.dataset == dataset]
            assert [(e.reservation_id, e.status) for e in self.ledger.entries(dataset_id)] == expected
            assert self.ledger.state(dataset_id).total == self.totals[dataset]
        assert len(list(self.folder.glob("ledger.jsonl.torn-*"))) == self.torn_writes
        assert not self.dataset_ids or self.path.read_bytes().endswith(b"\n")


LedgerMachine.TestCase.settings = settings(max_examples=40, stateful_step_count=30, deadline=None)
TestLedgerModel = LedgerMachine.TestCase
