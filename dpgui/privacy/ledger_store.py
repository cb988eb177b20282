"""The ledger's file format: an append-only, hash-chained JSON Lines file guarded by ``flock``.

Each line is one JSON object: ``seq`` (0, 1, 2, ...), ``time`` (UTC ISO 8601), ``type`` (an
:class:`EventType`), the payload's fields, ``prev`` (the previous line's ``hash``, or 64 zeros for the
first line) and ``hash``, the SHA-256 hex digest of the canonical JSON (sorted keys, compact separators,
ASCII only) of the line without ``hash``. Lines are written in canonical form, so a line whose bytes differ
from the canonical form of what they parse to has been edited.

Writers append one full line per ``write``, then flush and ``fsync``. All reads-check-appends happen
while holding an exclusive ``flock`` on the sidecar ``<ledger>.lock``, so a GUI and a CLI process can share
the file. A torn last line (a crash mid-write: no trailing newline, or unparsable JSON at the very end) is
moved to ``<ledger>.torn-<timestamp>`` and cut off; any other break in the chain raises
:class:`LedgerTampered` naming the line.
"""

from __future__ import annotations

import fcntl
import hashlib
import itertools
import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path

GENESIS = "0" * 64


class LedgerError(Exception):
    """An operation the ledger refuses (the message says why and what to do)."""


class LedgerTampered(LedgerError):
    """The hash chain is broken: the file was edited outside dpgui or corrupted."""


class EventType(StrEnum):
    """The kinds of line in the ledger file."""

    DATASET_ADDED = "dataset_added"
    DATASET_SEEN = "dataset_seen"
    TOTAL_SET = "total_set"
    RESERVED = "reserved"
    TOUCHED = "touched"
    COMMITTED = "committed"
    REFUNDED = "refunded"


class Account(StrEnum):
    """Which budget of a dataset a reservation is booked on.

    Guarantees under different neighbouring relations do not compose into one figure: a labels-only
    guarantee says nothing when one record's features change. Such releases are therefore booked on an
    account of their own, so the replace-one account's total still bounds every replace-one loss.
    """

    REPLACE_ONE = "replace-one"
    LABELS_ONLY = "labels-only"


@dataclass(frozen=True)
class DatasetSeen:
    """A dataset registered (``DATASET_ADDED``), or seen under a new name, path or hash (``DATASET_SEEN``)."""

    dataset_id: str
    name: str
    path: str
    sha256: str
    changed: bool


@dataclass(frozen=True)
class TotalSet:
    """The custodian set the dataset's total budget."""

    dataset_id: str
    epsilon: float
    delta: float
    note: str


@dataclass(frozen=True)
class Reserved:
    """A release reserved part of the budget before running."""

    reservation_id: str
    dataset_id: str
    epsilon: float
    delta: float
    description: str
    account: str = Account.REPLACE_ONE.value
    """An :class:`Account` value (lines written before accounts existed are replace-one)."""
    curve: dict[str, object] | None = None
    """The release's privacy curve (``PrivacyCurve.to_json``); absent from lines written before it existed,
    and from lines of releases that only have their (epsilon, delta)."""


@dataclass(frozen=True)
class ReservationUpdate:
    """A reservation was touched, committed (with an optional release id) or refunded."""

    reservation_id: str
    release_id: str | None = None


Payload = DatasetSeen | TotalSet | Reserved | ReservationUpdate

PAYLOAD_TYPES: dict[EventType, type[Payload]] = {
    EventType.DATASET_ADDED: DatasetSeen,
    EventType.DATASET_SEEN: DatasetSeen,
    EventType.TOTAL_SET: TotalSet,
    EventType.RESERVED: Reserved,
    EventType.TOUCHED: ReservationUpdate,
    EventType.COMMITTED: ReservationUpdate,
    EventType.REFUNDED: ReservationUpdate,
}


@dataclass(frozen=True)
class StoredEvent:
    """One verified line of the ledger."""

    seq: int
    time: datetime
    type: EventType
    payload: Payload


def canonical_json(record: dict[str, object]) -> bytes:
    """The canonical serialisation that is hashed and written."""
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode("ascii")


def record_hash(record: dict[str, object]) -> str:
    """SHA-256 hex of the canonical JSON of ``record`` (which must not contain ``hash``)."""
    return hashlib.sha256(canonical_json(record)).hexdigest()


def _fields(payload: Payload) -> dict[str, object]:
    """The payload's fields; an absent curve is left out, so such lines read as they did before curves."""
    fields = asdict(payload)
    if isinstance(payload, Reserved) and payload.curve is None:
        del fields["curve"]
    return fields


def _parses(raw: bytes) -> bool:
    try:
        json.loads(raw)
    except ValueError:
        return False
    return True


def _fsync_directory(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class LedgerFile:
    """Reads, verifies and appends ledger lines; remembers how far it has verified.

    Call :meth:`append` only inside :meth:`locked`, after handling the events it yields.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock_path = path.with_name(path.name + ".lock")
        self._verified_bytes = 0
        self._next_seq = 0
        self._last_hash = GENESIS
        path.parent.mkdir(parents=True, exist_ok=True)

    @contextmanager
    def locked(self) -> Iterator[list[StoredEvent]]:
        """Hold the exclusive lock; yield the events other writers appended since the last call."""
        fd = os.open(self._lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            yield self._read_new()
        finally:
            os.close(fd)  # releases the lock

    def append(self, event_type: EventType, payload: Payload) -> StoredEvent:
        """Append one line: a single write of the whole line, then flush and fsync."""
        record: dict[str, object] = {
            "seq": self._next_seq,
            "time": datetime.now(UTC).isoformat(),
            "type": event_type.value,
            "prev": self._last_hash,
            **_fields(payload),
        }
        record["hash"] = record_hash(record)
        raw = canonical_json(record)
        created = not self.path.exists()
        with self.path.open("ab") as f:
            f.write(raw + b"\n")
            f.flush()
            os.fsync(f.fileno())
        if created:
            _fsync_directory(self.path.parent)
        return self._accept(raw)

    def _read_new(self) -> list[StoredEvent]:
        try:
            with self.path.open("rb") as f:
                size = f.seek(0, os.SEEK_END)
                if size < self._verified_bytes:
                    raise LedgerTampered(f"{self.path} shrank while dpgui had it open")
                f.seek(self._verified_bytes)
                data = f.read()
        except FileNotFoundError:
            if self._verified_bytes:
                raise LedgerTampered(f"{self.path} was deleted while dpgui had it open") from None
            return []
        lines = data.split(b"\n")
        torn = lines.pop()  # b"" when the data ends with a newline
        events: list[StoredEvent] = []
        for index, raw in enumerate(lines):
            if not torn and index == len(lines) - 1 and not _parses(raw):
                torn = raw + b"\n"
                break
            events.append(self._accept(raw))
        if torn:
            self._cut_torn_tail(torn)
        return events

    def _accept(self, raw: bytes) -> StoredEvent:
        """Verify the next line against the chain, advance past it and return its event."""
        line_number = self._next_seq + 1

        def broken(why: str) -> LedgerTampered:
            return LedgerTampered(
                f"{self.path}, line {line_number}: {why}. The ledger was edited outside dpgui or corrupted; "
                "it refuses all operations until it is restored from a backup."
            )

        try:
            record = json.loads(raw)
        except ValueError:
            raise broken("not valid JSON") from None
        if not isinstance(record, dict) or "hash" not in record:
            raise broken("not a ledger record")
        if canonical_json(record) != raw:
            raise broken("not in the canonical form dpgui writes")
        claimed = record.pop("hash")
        if claimed != record_hash(record):
            raise broken("its hash does not match its contents")
        if record.get("seq") != self._next_seq:
            raise broken(f"expected seq {self._next_seq}, found {record.get('seq')!r}")
        if record.get("prev") != self._last_hash:
            raise broken("its prev link does not match the previous line's hash")
        try:
            event_type = EventType(record.pop("type"))
            time = datetime.fromisoformat(record.pop("time"))
            del record["seq"], record["prev"]
            event = StoredEvent(self._next_seq, time, event_type, PAYLOAD_TYPES[event_type](**record))
        except (KeyError, TypeError, ValueError) as exc:
            raise broken(f"malformed event ({exc})") from exc
        self._next_seq += 1
        self._last_hash = claimed
        self._verified_bytes += len(raw) + 1
        return event

    def _cut_torn_tail(self, torn: bytes) -> None:
        """Keep the torn bytes beside the ledger, then truncate it to the last complete line.

        Safe because the write that tore never returned, so the run it was for never started.
        """
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
        for attempt in itertools.count():
            suffix = f"-{attempt}" if attempt else ""
            try:
                fd = os.open(
                    self.path.with_name(f"{self.path.name}.torn-{stamp}{suffix}"),
                    os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                    0o600,
                )
            except FileExistsError:
                continue
            with os.fdopen(fd, "wb") as f:
                f.write(torn)
                f.flush()
                os.fsync(f.fileno())
            break
        with self.path.open("r+b") as f:
            f.truncate(self._verified_bytes)
            os.fsync(f.fileno())
        _fsync_directory(self.path.parent)
