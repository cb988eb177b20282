"""The privacy budget ledger: how much of each dataset's (epsilon, delta) budget has been spent.

A release goes through ``reserve`` (before the run; refused if the budget would be exceeded),
``mark_touched`` (fsynced when the run first reads private data), then ``commit`` (the spend is final) or
``refund`` (only if never touched: the private data was not read, so nothing was spent).

Costs compose per :class:`Account` of the dataset, each refused beyond the dataset's total: the replace-one
account counts the replace-one releases, the labels-only account the label-private learner's labels-only
releases with the replace-one ones (changing a label replaces a record, so a replace-one release protects
the labels at its cost; a labels-only release bounds no replace-one loss). Within an account, costs
compose through the accountant (:mod:`dpgui.privacy.accountant`): each reservation line records the
release's (epsilon, delta) and, where its mechanism has one, its privacy curve (noise or zCDP rho); the
spent budget is the tight composition of those curves, reported as epsilon at the dataset's delta and
never more than basic composition (epsilons add, deltas add). It is recomputed from the recorded lines on
every read, and an overspend is refused on that figure. Lines without a curve count as their (epsilon,
delta).

Open reservations created by *this* :class:`Ledger` object are "pending"; any other open reservation in the
file belongs to another process (a CLI next to the GUI) or to one that crashed, and is "unresolved": it counts
as spent. Both count against the budget in :meth:`Ledger.reserve`. So after a kill -9 at any point, a
reservation without an outcome counts as spent and nothing already written is lost. One exception: a
reservation whose process has ended (``ledger_owner``: its lock is free) and whose run never wrote its
"touched" line never read the private data, so the next transaction that can write refunds it, with a note
saying why (a killed release plan kept every release it had not started charged for good).

Trust model: the ledger guards a *trusted* custodian against accidental overspending and is
tamper-evident (a hash chain verified on every read). It is not a security boundary: deleting the file resets
every budget, and someone who edits it can recompute the chain.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from uuid import uuid4

from dpgui.paths import dpgui_home
from dpgui.privacy.accountant import BookedRelease, Composition, compose
from dpgui.privacy.cost import PrivacyCost, basic_composition
from dpgui.privacy.curve import PrivacyCurve
from dpgui.privacy.ledger_owner import owner_gone, process_owner
from dpgui.privacy.ledger_store import (
    Account,
    ChainHead,
    DatasetSeen,
    EventType,
    LedgerBusy,
    LedgerError,
    LedgerFile,
    LedgerReadOnly,
    LedgerTampered,
    Payload,
    ReservationUpdate,
    Reserved,
    StoredEvent,
    TotalSet,
)

__all__ = [
    "LEDGER_FILENAME",
    "TOLERANCE",
    "Account",
    "BudgetEvent",
    "BudgetExceeded",
    "BudgetNotSet",
    "BudgetState",
    "ChainHead",
    "DatasetRecord",
    "Ledger",
    "LedgerBusy",
    "LedgerEntry",
    "LedgerError",
    "LedgerReadOnly",
    "LedgerTampered",
    "Reservation",
    "ReservationRequest",
    "ReservationStatus",
]

LEDGER_FILENAME = "ledger.jsonl"
ABANDONED_REASON = "its process ended before the run read the private data, so nothing was spent"
"""The reason of a refund the ledger made for a reservation whose process ended untouched."""
NO_RESULT_REASON = (
    "the run was cancelled, or failed, after it read the private data: charged without a result"
)
"""The reason of the commit that settles such a run (its line read like any release's)."""
TOLERANCE = 1e-9
"""Relative slack when comparing a spend with a total, so that two 0.5's fit in 1.0 (and nothing more)."""


SET_A_DELTA = (
    "set a total with a δ (`dpgui budget set --data FILE --epsilon E --delta 1e-6`, or Budget → Set total "
    "budget… in the app), or choose an algorithm that is pure DP (δ = 0)."
)
"""The way out of a release with δ > 0 under a pure total."""


class BudgetExceeded(LedgerError):
    """The reservation would take the dataset over its total budget."""


class BudgetNotSet(LedgerError):
    """The dataset has no total budget yet, so every reservation is refused."""


class ReservationStatus(StrEnum):
    """Where a reservation stands."""

    PENDING = "pending"
    TOUCHED = "touched"
    COMMITTED = "committed"
    REFUNDED = "refunded"
    UNRESOLVED = "unresolved/spent"
    """Open in another process, or in one that crashed: counted as spent."""


@dataclass(frozen=True)
class DatasetRecord:
    """A dataset as last seen.

    ``changed`` is True when the file had bytes different from the last known SHA-256: edited at a path the
    dataset was seen at, or an earlier version of its bytes opened again (the budget continues: the same
    people are in it).
    """

    id: str
    name: str
    sha256: str
    path: Path
    changed: bool = False


@dataclass(frozen=True)
class Reservation:
    """Budget set aside for one release before it runs."""

    id: str
    dataset_id: str
    cost: PrivacyCost
    description: str
    account: Account = Account.REPLACE_ONE
    curve: PrivacyCurve | None = None
    """The release's privacy curve, when its mechanism knows more than its (epsilon, delta)."""


@dataclass(frozen=True)
class ReservationRequest:
    """What :meth:`Ledger.reserve_all` books for one release."""

    cost: PrivacyCost
    description: str
    account: Account = Account.REPLACE_ONE
    curve: PrivacyCurve | None = None


@dataclass(frozen=True)
class BudgetState:
    """A dataset's budget. ``spent`` is committed plus unresolved; ``pending`` is this process's open runs.

    ``total`` and ``remaining`` are None until the custodian sets a total; ``remaining`` is never negative.
    ``spent`` is the accountant's figure (epsilon at the total's delta when that beats basic composition);
    ``spent_basic`` is basic composition of the same releases, to show the saving. ``pending`` is what the
    open runs add to the spent figure.
    """

    total: PrivacyCost | None
    spent: PrivacyCost
    pending: PrivacyCost
    remaining: PrivacyCost | None
    spent_basic: PrivacyCost | None = None

    @property
    def saving(self) -> float:
        """Epsilon saved on the spent budget by the accountant, against basic composition."""
        if self.spent_basic is None or self.spent_basic.delta > self.spent.delta * (1 + TOLERANCE):
            return 0.0
        return max(0.0, self.spent_basic.epsilon - self.spent.epsilon)

    @property
    def basic_beyond_delta(self) -> bool:
        """Whether basic composition's delta exceeds the spent figure's (the total's): the releases fit the
        total only as one guarantee, so nothing is "saved" against a sum that does not fit."""
        return self.spent_basic is not None and self.spent_basic.delta > self.spent.delta * (1 + TOLERANCE)

    @property
    def tight(self) -> bool:
        """Whether the spent figure is the accountant's (epsilon at the total's delta), not the plain sums."""
        return bool(self.saving) or self.basic_beyond_delta


@dataclass(frozen=True)
class LedgerEntry:
    """One reservation, as a row of the budget table."""

    reservation_id: str
    time: datetime
    description: str
    cost: PrivacyCost
    status: ReservationStatus
    release_id: str | None
    account: Account = Account.REPLACE_ONE
    curve: PrivacyCurve | None = None
    files: str | None = None
    """Where the commit line says the release's outputs went (``OutFolder.describe``), if it says."""
    touched: bool = False
    """Whether its run wrote the "touched" line (it read, or was about to read, the private data)."""
    reason: str | None = None
    """Why it was settled so, when its line says (a refund of a reservation whose process ended)."""


@dataclass(frozen=True)
class BudgetEvent:
    """The custodian set the total (``previous`` is None the first time).

    ``exhausted`` is True when the new total was below what was already spent or reserved: no more releases.
    """

    time: datetime
    total: PrivacyCost
    previous: PrivacyCost | None
    note: str
    exhausted: bool


@dataclass
class _Booking:
    """Mutable per-reservation state, folded from the file."""

    reservation: Reservation
    time: datetime
    touched: bool = False
    outcome: EventType | None = None
    release_id: str | None = None
    files: str | None = None
    owner: str | None = None
    reason: str | None = None


@dataclass
class _Dataset:
    """Mutable per-dataset state, folded from the file."""

    record: DatasetRecord
    total: PrivacyCost | None = None
    budget_events: list[BudgetEvent] = field(default_factory=list)
    bookings: list[_Booking] = field(default_factory=list)


_AXES = (("ε", "epsilon"), ("δ", "delta"))


def _exceeds(amount: float, limit: float) -> bool:
    return amount > limit * (1 + TOLERANCE)


def _apart(need: float, left: float) -> tuple[str, str]:
    """``need`` and ``left`` written with six significant digits, or more where six would show them equal
    (a refusal read "needs ε=1 but only ε=1 remains" for 1.0000001 against 1)."""
    for digits in (6, 9, 12, 17):
        written = f"{need:.{digits}g}", f"{left:.{digits}g}"
        if written[0] != written[1]:
            break
    return written


def _accountant_note(added: float, composed: float) -> str:
    """Says what the accountant charges when that is not the plain sum."""
    return (
        ""
        if math.isclose(added, composed, rel_tol=TOLERANCE)
        else f"; with it the accountant charges {composed:.6g}"
    )


def _counted(account: Account) -> frozenset[Account]:
    """The accounts whose releases count against ``account``: a replace-one release also protects every
    label at its cost (changing one row's label replaces that record), so the labels-only account composes
    the replace-one releases with its own; a labels-only release bounds no replace-one loss, and the
    replace-one account counts only its own (the custodian opted in to that)."""
    return frozenset({account, Account.REPLACE_ONE})


def _on(bookings: Iterable[_Booking], account: Account) -> list[_Booking]:
    """The releases whose loss counts against ``account`` (:func:`_counted`)."""
    counted = _counted(account)
    return [booking for booking in bookings if booking.reservation.account in counted]


def _left(total: PrivacyCost, composed: Composition) -> PrivacyCost:
    """What the total leaves once ``composed`` is spent: epsilon as the accountant composes it, delta the
    part of the total no release has booked (the accountant measures epsilon at the total's delta, so this
    is for information: releases fit on epsilon)."""
    return PrivacyCost(
        max(0.0, total.epsilon - composed.spent.epsilon), max(0.0, total.delta - composed.basic.delta)
    )


def _fits(amount: PrivacyCost, total: PrivacyCost) -> bool:
    return not any(_exceeds(getattr(amount, axis), getattr(total, axis)) for _, axis in _AXES)


class Ledger:
    """The budget ledger stored in ``path`` (default: ``dpgui_home() / "ledger.jsonl"``).

    Every method takes the file lock and reads what other processes appended first, so decisions are made on
    the latest state. Raises :class:`LedgerTampered` on construction if the chain is broken, and from then on
    refuses every operation.
    """

    def __init__(self, path: Path | None = None) -> None:
        self._file = LedgerFile(path if path is not None else dpgui_home() / LEDGER_FILENAME)
        self._datasets: dict[str, _Dataset] = {}
        self._bookings: dict[str, _Booking] = {}
        self._sightings: list[DatasetRecord] = []  # every dataset line, oldest first: what _find matches
        self._own: set[str] = set()
        self._foreign_untouched: set[str] = set()  # open, never touched, another owner's: may be abandoned
        self._broken: LedgerTampered | None = None
        self._mutex = threading.Lock()
        with self._transaction():
            pass

    @property
    def path(self) -> Path:
        return self._file.path

    @property
    def read_only(self) -> bool:
        """Whether the ledger's folder cannot be written (budgets readable, every charge refused)."""
        return self._file.read_only

    def head(self) -> ChainHead:
        """The chain head (last line's seq and hash) after reading what others appended."""
        with self._transaction():
            return self._file.head

    # -- datasets and totals -------------------------------------------------------------------------------

    def open_dataset(self, path: Path, sha256: str, *, new_dataset: bool = False) -> DatasetRecord:
        """The dataset a file belongs to, registering it (or its new name, path or hash) if needed.

        Matched first by any SHA-256 a dataset ever had (the same bytes under a new name or path, or back
        after an edit), then by any path a dataset was ever seen at (bytes changed: the new hash is
        recorded), else registered as new; see :meth:`_find`. ``changed`` is True when the bytes differ from
        the dataset's last known SHA-256. ``new_dataset=True`` always registers a new dataset.
        """
        path = path.resolve()
        with self._transaction():
            known = None if new_dataset else self._find(path, sha256)
            if known is None:
                record = DatasetRecord(uuid4().hex, path.name, sha256, path)
                self._append(EventType.DATASET_ADDED, self._seen_payload(record))
                return record
            record = DatasetRecord(known.id, path.name, sha256, path, changed=known.sha256 != sha256)
            if record != replace(known, changed=record.changed):
                self._append(EventType.DATASET_SEEN, self._seen_payload(record))
            return record

    def link(self, path: Path, sha256: str, dataset_id: str) -> DatasetRecord:
        """Record the file as another version of a known dataset (the same people saved in another format or
        at another path, which :meth:`open_dataset` cannot tell from a new dataset), so that its releases
        spend that dataset's budget. The newest sighting wins in :meth:`_find`, so from now on the file
        opens as ``dataset_id``.

        Refused (``LedgerError``) when the file already belongs to a dataset with releases charged: the
        ledger keeps one history per dataset and does not merge two. A dataset the file registered without
        any release (a total set, nothing spent) is left behind, no longer matched.
        """
        path = path.resolve()
        with self._transaction():
            target = self._dataset(dataset_id).record
            own = self._find(path, sha256)
            if own is not None and own.id == dataset_id:
                return own
            if own is not None and self._datasets[own.id].bookings:
                raise LedgerError(
                    f"{path.name} already has releases charged to its own budget in the ledger; the ledger "
                    f"cannot merge two budgets, so it stays apart from {target.name}"
                )
            record = DatasetRecord(dataset_id, path.name, sha256, path, changed=True)
            self._append(EventType.DATASET_SEEN, self._seen_payload(record))
            return record

    def find(self, path: Path, sha256: str) -> DatasetRecord | None:
        """The dataset ``open_dataset`` would match this file to, without registering anything (None: it
        would register a new one)."""
        with self._transaction():
            return self._find(path.resolve(), sha256)

    def set_total(self, dataset_id: str, total: PrivacyCost, note: str = "") -> None:
        """Set (raise or lower) the dataset's total budget.

        A total below what is already spent means no more releases (remaining 0), never a negative budget.
        """
        with self._transaction():
            self._dataset(dataset_id)
            self._append(EventType.TOTAL_SET, TotalSet(dataset_id, total.epsilon, total.delta, note))

    # -- the life of a reservation -------------------------------------------------------------------------

    def reserve(
        self,
        dataset_id: str,
        cost: PrivacyCost,
        description: str,
        account: Account = Account.REPLACE_ONE,
        *,
        curve: PrivacyCurve | None = None,
    ) -> Reservation:
        """Set aside ``cost`` on one of the dataset's accounts; raises :class:`BudgetNotSet` or
        :class:`BudgetExceeded`.

        ``curve`` is the release's privacy curve (recorded in the line, composed by the accountant).
        The release fits when the accountant's figure for everything spent, pending and this release stays
        within the total.
        """
        return self.reserve_all(dataset_id, [ReservationRequest(cost, description, account, curve)])[0]

    def reserve_all(self, dataset_id: str, requests: Sequence[ReservationRequest]) -> list[Reservation]:
        """Set aside every request at once (a release plan): all fit together or none is booked.

        One reservation line per request, written in one transaction; each is then touched, committed or
        refunded on its own. Each account's releases must fit the total on their own.
        """
        reservations: list[Reservation] = []
        try:
            with self._transaction():
                self._book_all(dataset_id, requests, reservations)
        except BaseException:
            self._refund_unreturned(reservations)
            raise
        return reservations

    def _book_all(
        self, dataset_id: str, requests: Sequence[ReservationRequest], reservations: list[Reservation]
    ) -> None:
        """``reserve_all``'s body inside its transaction: each reservation goes into ``reservations``
        before its line is written, so a failure after the write can refund it."""
        dataset = self._dataset(dataset_id)
        total = dataset.total
        if total is None:
            raise BudgetNotSet(
                f"No total privacy budget is set for dataset '{dataset.record.name}', so no release can "
                f"run. Set one first: `dpgui budget set --data {dataset.record.path} --epsilon E "
                "[--delta D]`."
            )
        refusal = self._first_overspend(dataset, total, requests)
        if refusal is not None:
            raise BudgetExceeded(refusal)
        for request in requests:
            reservation = Reservation(
                uuid4().hex, dataset_id, request.cost, request.description, request.account, request.curve
            )
            reservations.append(reservation)
            self._own.add(reservation.id)
            self._append(
                EventType.RESERVED,
                Reserved(
                    reservation.id,
                    dataset_id,
                    request.cost.epsilon,
                    request.cost.delta,
                    request.description,
                    request.account.value,
                    None if request.curve is None else request.curve.to_json(),
                    process_owner(self.path.parent),
                ),
            )

    def _refund_unreturned(self, reservations: Sequence[Reservation]) -> None:
        """Refund the reservations a failed ``reserve_all`` wrote but never returned: an interrupt (Ctrl-C)
        while the head file was written left a run that never started charged for good. Best effort: if
        the ledger cannot be written now, they stay charged, the safe side."""
        if not reservations:
            return
        with suppress(LedgerError, OSError), self._transaction():
            for reservation in reservations:
                booking = self._bookings.get(reservation.id)
                if booking is not None and booking.outcome is None and not booking.touched:
                    self._append(EventType.REFUNDED, ReservationUpdate(reservation.id))

    def refusal(self, dataset_id: str, request: ReservationRequest) -> str | None:
        """What ``reserve`` would refuse ``request`` with (its :class:`BudgetExceeded` words), or None when
        it fits now (or no total is set, which ``reserve`` refuses on its own): the review before a charge
        says so instead of predicting a remainder of zero. Books nothing."""
        return self.refusal_all(dataset_id, [request])

    def refusal_all(self, dataset_id: str, requests: Sequence[ReservationRequest]) -> str | None:
        """What ``reserve_all`` would refuse ``requests`` with (a plan's review), or None; books nothing."""
        with self._transaction():
            dataset = self._dataset(dataset_id)
            return None if dataset.total is None else self._first_overspend(dataset, dataset.total, requests)

    def _first_overspend(
        self, dataset: _Dataset, total: PrivacyCost, requests: Sequence[ReservationRequest]
    ) -> str | None:
        """The first account whose releases and ``requests`` do not fit the total, in words; or None. Each
        account's releases (:func:`_counted`: a replace-one request counts on both) must fit the total."""
        for account in Account:
            counted = [r for r in requests if r.account in _counted(account)]
            refusal = self._overspend(dataset, total, account, counted) if counted else None
            if refusal is not None:
                return refusal
        return None

    def _overspend(
        self, dataset: _Dataset, total: PrivacyCost, account: Account, requests: Sequence[ReservationRequest]
    ) -> str | None:
        """Why the account's releases and ``requests`` do not fit the total, or None when they do."""
        bookings = _on(dataset.bookings, account)
        used = self._used(bookings, total).spent
        adding = [BookedRelease(r.cost, r.curve) for r in requests]
        after = self._compose([*self._live(bookings), *adding], total).spent
        cost = basic_composition(r.cost for r in requests)
        what = "This release needs" if len(requests) == 1 else f"These {len(requests)} releases need"
        where = "" if account is Account.REPLACE_ONE else f" on its {account.value} account"
        for symbol, axis in _AXES:
            need, spent, limit, composed = (getattr(c, axis) for c in (cost, used, total, after))
            if _exceeds(composed, limit):
                if axis == "delta" and limit == 0:
                    return (
                        f"{what} δ={need:.6g}, but the total of dataset '{dataset.record.name}'{where} has "
                        f"δ = 0 (pure DP only): {SET_A_DELTA}"
                    )
                needed, left = _apart(need, max(0.0, limit - spent))
                return (
                    f"{what} {symbol}={needed} but only {symbol}={left}"
                    f" of the total {symbol}={limit:.6g} remains for dataset '{dataset.record.name}'"
                    f"{where} (spent {spent:.6g}{_accountant_note(spent + need, composed)}). Lower {axis} or "
                    "raise the total (`dpgui budget set`, or Budget → Set total budget… in the app)."
                )
        return None

    def mark_touched(self, reservation: Reservation, files: str | None = None) -> None:
        """Record (fsynced) that the run is about to read private data; later calls are no-ops. ``files``:
        where the run will stage its outputs (``OutFolder.describe``), so that a run killed after it wrote
        them, before its commit, still points at them (``budget show``)."""
        with self._transaction():
            if not self._open_booking(reservation).touched:
                self._append(EventType.TOUCHED, ReservationUpdate(reservation.id, files=files))

    def commit(
        self, reservation: Reservation, release_id: str | None = None, files: str | None = None
    ) -> None:
        """Make the spend final; ``files`` says where the release's outputs are (when not where asked)."""
        with self._transaction():
            self._open_booking(reservation)
            self._append(EventType.COMMITTED, ReservationUpdate(reservation.id, release_id, files))

    def settle_unfinished(self, reservation: Reservation) -> None:
        """After an error or a cancel: commit the reservation if the ledger records that its run touched the
        private data (it stays charged), refund it otherwise.

        The ledger's record decides, not the run's own flag: an interrupt can land after the touched line
        is written and before the run learns so, and a refund would then be refused."""
        with self._transaction():
            touched = self._open_booking(reservation).touched
            if touched:
                self._append(EventType.COMMITTED, ReservationUpdate(reservation.id, reason=NO_RESULT_REASON))
            else:
                self._append(EventType.REFUNDED, ReservationUpdate(reservation.id))

    def refund(self, reservation: Reservation) -> None:
        """Give the reservation back; only allowed if the run never read private data."""
        with self._transaction():
            if self._open_booking(reservation).touched:
                raise LedgerError(
                    f"Cannot refund '{reservation.description}': the run already read the private data, "
                    "so its cost is spent. Commit it instead."
                )
            self._append(EventType.REFUNDED, ReservationUpdate(reservation.id))

    # -- queries -------------------------------------------------------------------------------------------

    def state(
        self,
        dataset_id: str,
        account: Account = Account.REPLACE_ONE,
        *,
        as_committed: Reservation | None = None,
    ) -> BudgetState:
        """The total, spent, pending and remaining budget of one of the dataset's accounts.

        ``as_committed``: the state once this open reservation is committed (an export staged before the
        commit states it), composed by the accountant like any other.
        """
        with self._transaction():  # a snapshot under the lock; composing it (up to seconds) outside
            dataset = self._dataset(dataset_id)
            total = dataset.total
            bookings = _on(dataset.bookings, account)
            committing = None if as_committed is None else as_committed.id
            statuses = [
                ReservationStatus.COMMITTED if b.reservation.id == committing else self._status(b)
                for b in bookings
            ]
            spent_releases = self._live(
                b
                for b, status in zip(bookings, statuses, strict=True)
                if status in (ReservationStatus.COMMITTED, ReservationStatus.UNRESOLVED)
            )
            live_releases = self._live(bookings)
            open_costs = [
                b.reservation.cost
                for b, status in zip(bookings, statuses, strict=True)
                if status in (ReservationStatus.PENDING, ReservationStatus.TOUCHED)
            ]
        spent = self._compose(spent_releases, total)
        composed = self._compose(live_releases, total)
        used = composed.spent
        if used == composed.basic and spent.spent == spent.basic:  # plain sums: as booked
            pending = basic_composition(open_costs)
        else:  # what the open runs add to the accountant's figure
            pending = PrivacyCost(
                max(0.0, used.epsilon - spent.spent.epsilon), max(0.0, used.delta - spent.spent.delta)
            )
        if total is None:
            return BudgetState(None, spent.spent, pending, None, spent.basic)
        return BudgetState(total, spent.spent, pending, _left(total, composed), spent.basic)

    def remaining_with(
        self, dataset_id: str, requests: Sequence[ReservationRequest], account: Account = Account.REPLACE_ONE
    ) -> PrivacyCost | None:
        """The budget ``account`` would have left once ``requests`` are booked too (None without a total),
        composed by the accountant as a reservation would be: with a delta to share, the epsilon left can
        fall by more than the requests' own epsilon (the review before a charge states this). Books
        nothing."""
        counted = _counted(account)
        adding = [BookedRelease(r.cost, r.curve) for r in requests if r.account in counted]
        with self._transaction():
            dataset = self._dataset(dataset_id)
            total, live = dataset.total, self._live(_on(dataset.bookings, account))
        if total is None:
            return None
        return _left(total, self._compose([*live, *adding], total))

    def entries(self, dataset_id: str) -> list[LedgerEntry]:
        """One row per reservation of the dataset, oldest first."""
        with self._transaction():
            return [
                LedgerEntry(
                    b.reservation.id,
                    b.time,
                    b.reservation.description,
                    b.reservation.cost,
                    self._status(b),
                    b.release_id,
                    b.reservation.account,
                    b.reservation.curve,
                    b.files,
                    b.touched,
                    b.reason,
                )
                for b in self._dataset(dataset_id).bookings
            ]

    def release_problem(self, head: ChainHead, release_id: str) -> str | None:
        """What is wrong with this ledger for an exported release whose manifest recorded ``head`` as its
        ``ledger_head`` and ``release_id``, or None: a ledger without that line was cut back or replaced by
        an older copy (a rollback, which the head file cannot show when it was copied back too), one whose
        line differs is another copy's history, and one without the release's commit lost its charge."""
        with self._transaction():
            line = self._file.hash_at(head.seq)
            if line is None:
                return (
                    f"the ledger has {self._file.head.seq + 1} lines, but this release was committed after "
                    f"line {head.seq + 1}: the ledger was cut back or replaced by an older copy"
                )
            if line != head.hash:
                return f"line {head.seq + 1} of the ledger is not the one this release saw: another history"
            committed = any(
                b.release_id == release_id and b.outcome is EventType.COMMITTED
                for b in self._bookings.values()
            )
        return None if committed else "the ledger holds no commit of this release: its charge is missing"

    def budget_events(self, dataset_id: str) -> list[BudgetEvent]:
        """The history of the dataset's total, oldest first."""
        with self._transaction():
            return list(self._dataset(dataset_id).budget_events)

    def datasets(self) -> list[DatasetRecord]:
        """Every known dataset, as last seen, in order of registration."""
        with self._transaction():
            return [dataset.record for dataset in self._datasets.values()]

    # -- internals -----------------------------------------------------------------------------------------

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """Lock the file, fold in what others appended, and run the body on the latest state."""
        with self._mutex:
            if self._broken is not None:
                raise LedgerTampered(str(self._broken))
            try:
                with self._file.locked() as news:
                    for event in news:
                        self._apply(event)
                    if not self._file.read_only:
                        self._refund_abandoned()
                    yield
            except LedgerTampered as exc:
                self._broken = exc
                raise

    def _refund_abandoned(self) -> None:
        """Refund every open reservation of another process that has ended without its run reading the
        private data (no "touched" line): see the module docstring."""
        for reservation_id in sorted(self._foreign_untouched):
            owner = self._bookings[reservation_id].owner
            if owner is not None and owner_gone(self.path.parent, owner):
                self._append(EventType.REFUNDED, ReservationUpdate(reservation_id, reason=ABANDONED_REASON))

    def _append(self, event_type: EventType, payload: Payload) -> None:
        self._apply(self._file.append(event_type, payload))

    def _apply(self, event: StoredEvent) -> None:
        """Fold one verified event into the in-memory state."""
        try:
            match event.payload:
                case DatasetSeen() as seen:
                    record = DatasetRecord(
                        seen.dataset_id, seen.name, seen.sha256, Path(seen.path), seen.changed
                    )
                    if event.type is EventType.DATASET_ADDED:
                        self._datasets[record.id] = _Dataset(record)
                    else:
                        self._datasets[record.id].record = record
                    self._sightings.append(record)
                case TotalSet() as set_total:
                    dataset = self._datasets[set_total.dataset_id]
                    total = PrivacyCost(set_total.epsilon, set_total.delta)
                    replace_one = _on(dataset.bookings, Account.REPLACE_ONE)
                    exhausted = not _fits(self._used(replace_one, total).spent, total)
                    dataset.budget_events.append(
                        BudgetEvent(event.time, total, dataset.total, set_total.note, exhausted)
                    )
                    dataset.total = total
                case Reserved() as reserved:
                    cost = PrivacyCost(reserved.epsilon, reserved.delta)
                    curve = None if reserved.curve is None else PrivacyCurve.from_json(reserved.curve)
                    reservation = Reservation(
                        reserved.reservation_id,
                        reserved.dataset_id,
                        cost,
                        reserved.description,
                        Account(reserved.account),
                        curve,
                    )
                    booking = _Booking(reservation, event.time, owner=reserved.owner)
                    self._datasets[reserved.dataset_id].bookings.append(booking)
                    self._bookings[reservation.id] = booking
                    if reserved.owner is not None and reservation.id not in self._own:
                        self._foreign_untouched.add(reservation.id)
                case ReservationUpdate() as update:
                    booking = self._bookings[update.reservation_id]
                    if booking.outcome is not None:
                        raise ValueError(f"reservation {update.reservation_id} was already {booking.outcome}")
                    self._foreign_untouched.discard(update.reservation_id)
                    if event.type is EventType.TOUCHED:
                        booking.touched = True
                        booking.files = update.files
                    else:
                        booking.outcome = event.type
                        booking.release_id = update.release_id
                        booking.files = update.files
                        booking.reason = update.reason
        except (KeyError, TypeError, ValueError) as exc:
            raise LedgerTampered(
                f"{self.path}, line {event.seq + 1}: inconsistent event ({exc!r}). The ledger was edited "
                "outside dpgui; it refuses all operations until it is restored from a backup."
            ) from exc

    def _find(self, path: Path, sha256: str) -> DatasetRecord | None:
        """The known dataset a file at ``path`` with bytes ``sha256`` belongs to (as last seen), or None.

        Every line that registered or saw a dataset counts, not only its latest: bytes a dataset ever had
        are never a new dataset, and a path it was ever seen at still finds it after a copy elsewhere was
        opened. Where several datasets match, the most recent sighting wins: first one of these bytes at
        this path, then one of these bytes anywhere, then one at this path.
        """
        latest_first = self._sightings[::-1]
        for matches in (
            lambda seen: seen.sha256 == sha256 and seen.path == path,
            lambda seen: seen.sha256 == sha256,
            lambda seen: seen.path == path,
        ):
            found = next((seen.id for seen in latest_first if matches(seen)), None)
            if found is not None:
                return self._datasets[found].record
        return None

    @staticmethod
    def _seen_payload(record: DatasetRecord) -> DatasetSeen:
        return DatasetSeen(record.id, record.name, str(record.path), record.sha256, record.changed)

    def _dataset(self, dataset_id: str) -> _Dataset:
        try:
            return self._datasets[dataset_id]
        except KeyError:
            raise LedgerError(f"Unknown dataset id {dataset_id!r}; open the data file first.") from None

    def _open_booking(self, reservation: Reservation) -> _Booking:
        """The booking of one of this ledger's own open reservations; raises otherwise."""
        booking = self._bookings.get(reservation.id)
        if booking is None:
            raise LedgerError(f"Unknown reservation {reservation.id!r}.")
        if booking.outcome is not None:
            raise LedgerError(f"Reservation '{reservation.description}' was already {booking.outcome}.")
        if reservation.id not in self._own:
            raise LedgerError(
                f"Reservation '{reservation.description}' belongs to another dpgui process (or one that "
                "crashed); it counts as spent and cannot be changed from here."
            )
        return booking

    def _status(self, booking: _Booking) -> ReservationStatus:
        if booking.outcome is EventType.COMMITTED:
            return ReservationStatus.COMMITTED
        if booking.outcome is EventType.REFUNDED:
            return ReservationStatus.REFUNDED
        if booking.reservation.id not in self._own:
            return ReservationStatus.UNRESOLVED
        return ReservationStatus.TOUCHED if booking.touched else ReservationStatus.PENDING

    @staticmethod
    def _live(bookings: Iterable[_Booking]) -> list[BookedRelease]:
        """The bookings that were not refunded, as the accountant sees them."""
        return [
            BookedRelease(b.reservation.cost, b.reservation.curve)
            for b in bookings
            if b.outcome is not EventType.REFUNDED
        ]

    @staticmethod
    def _compose(releases: list[BookedRelease], total: PrivacyCost | None) -> Composition:
        """The releases composed at the total's delta (basic composition alone without a total)."""
        return compose(releases, total.delta if total is not None else 0.0)

    def _used(self, bookings: Iterable[_Booking], total: PrivacyCost | None) -> Composition:
        """Composed cost of the bookings that were not refunded."""
        return self._compose(self._live(bookings), total)
