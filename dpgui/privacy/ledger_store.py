"""The ledger's file format: an append-only, hash-chained JSON Lines file guarded by a file lock.

Each line is one JSON object: ``seq`` (0, 1, 2, ...), ``time`` (UTC ISO 8601), ``type`` (an
:class:`EventType`), the payload's fields, ``prev`` (the previous line's ``hash``, or 64 zeros for the
first line) and ``hash``, the SHA-256 hex digest of the canonical JSON (sorted keys, compact separators,
ASCII only) of the line without ``hash``. Lines are written in canonical form, so a line whose bytes differ
from the canonical form of what they parse to has been edited.

Writers append one full line per ``write``, then flush and ``fsync``. All reads-check-appends happen
while holding an exclusive lock on the sidecar ``<ledger>.lock`` (``filelock``: ``flock`` where the
platform has it, the Windows lock on Windows), so a GUI and a CLI process can share the file. A torn last
line (a crash mid-write: the last line has no trailing newline) is moved to ``<ledger>.torn-<timestamp>``
and cut off; any other break in the chain, a complete but unparsable last line included, raises
:class:`LedgerTampered` naming the line.

After each transaction that appended, the chain head (last ``seq`` and ``hash``) is written to the sidecar
``<ledger stem>.head``; a head ahead of the ledger means lines were removed from its end (truncation), which
the chain alone cannot show. A head behind the ledger (a crash before the head was written, or a head from
an older copy of the same ledger) must still name one of its lines: otherwise the ledger is another copy's
history (a fork), which lacks the charges of the head's copy. Files are created readable by the owner only
(0600). In a folder dpgui cannot write, the ledger is read without the lock and every append raises
:class:`LedgerReadOnly`.
"""

from __future__ import annotations

import errno
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

from dpgui.paths import OWNER_ONLY_FILE, restrict_to_owner

GENESIS = "0" * 64


class LedgerError(Exception):
    """An operation the ledger refuses (the message says why and what to do)."""


class LedgerTampered(LedgerError):
    """The hash chain is broken: the file was edited outside dpgui or corrupted."""


class LedgerReadOnly(LedgerError):
    """The ledger's folder cannot be written: budgets can be read, nothing can be charged."""


class LedgerBusy(LedgerError):
    """Another process has held the ledger's lock for longer than any append takes."""


LOCK_TIMEOUT_SECONDS = 60.0
"""How long a ledger transaction waits for the lock (each holder only reads and appends a few lines, in
milliseconds) before it gives up with :class:`LedgerBusy`, instead of waiting on a stopped or hung holder
without a word."""


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

    A labels-only guarantee says nothing when one record's features change, so such releases are booked
    on an account of their own and the replace-one account's total still bounds every replace-one loss.
    The converse composes: changing one row's label replaces that record, so every replace-one release
    protects the labels at its own cost, and the labels-only account counts the replace-one releases
    with its own (``ledger._on``).
    """

    REPLACE_ONE = "replace-one"
    LABELS_ONLY = "labels-only"

    def named(self) -> str:
        """' (labels-only account)' after a figure booked on the labels-only account, '' on the dataset's
        own (replace-one) budget: a labels-only figure shown bare reads as the dataset's budget."""
        return "" if self is Account.REPLACE_ONE else f" ({self.value} account)"


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
    owner: str | None = None
    """The owner id of the process that booked it (``ledger_owner``); absent from lines written before it
    existed, whose reservations are never found abandoned."""


@dataclass(frozen=True)
class ReservationUpdate:
    """A reservation was touched, committed (with an optional release id and where its files are) or
    refunded."""

    reservation_id: str
    release_id: str | None = None
    files: str | None = None
    reason: str | None = None
    """Why, when the line does not speak for itself (a refund of a reservation whose process ended)."""


Payload = DatasetSeen | TotalSet | Reserved | ReservationUpdate

_OMITTED_WHEN_NONE = frozenset({"files", "curve", "owner", "reason"})
"""Optional fields left out of a line when empty, so lines without them read as before."""

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


HEAD_SUFFIX = ".head"


def _fsync_directory(directory: Path) -> None:
    """Make a new name in ``directory`` durable (a no-op where directories cannot be opened: Windows)."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _writable(directory: Path) -> bool:
    """Whether dpgui can create files in ``directory`` (tried, not guessed from permission bits)."""
    probe = directory / f".dpgui-write-probe-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY_FILE)
    except FileExistsError:
        return True
    except OSError as error:
        if error.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
            return False
        raise
    os.close(fd)
    probe.unlink(missing_ok=True)
    return True


@dataclass(frozen=True)
class ChainHead:
    """The last line of the chain: its ``seq`` and ``hash`` (``seq`` -1 and genesis for an empty ledger)."""

    seq: int
    hash: str

    def as_dict(self) -> dict[str, object]:
        return {"seq": self.seq, "hash": self.hash}


class LedgerFile:
    """Reads, verifies and appends ledger lines; remembers how far it has verified.

    Call :meth:`append` only inside :meth:`locked`, after handling the events it yields.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock_path = path.with_name(path.name + ".lock")
        self.head_path = path.with_suffix(HEAD_SUFFIX)
        self._verified_bytes = 0
        self._next_seq = 0
        self._last_hash = GENESIS
        self._hashes: list[str] = []  # every verified line's hash, by seq (a head behind us names one)
        self._appended = False
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        self.read_only = not _writable(path.parent)
        from filelock import FileLock  # only a store that is opened pays for its import (commands start fast)

        self._lock = None if self.read_only else FileLock(self._lock_path, mode=OWNER_ONLY_FILE)
        for existing in (path, self.head_path):  # files from before they were made owner-only
            if existing.exists():
                restrict_to_owner(existing, OWNER_ONLY_FILE)

    @property
    def head(self) -> ChainHead:
        """The chain head as verified so far."""
        return ChainHead(self._next_seq - 1, self._last_hash)

    def hash_at(self, seq: int) -> str | None:
        """The hash of verified line ``seq`` (from 0), or None when the ledger has no such line."""
        return self._hashes[seq] if 0 <= seq < len(self._hashes) else None

    @contextmanager
    def locked(self) -> Iterator[list[StoredEvent]]:
        """Hold the exclusive lock; yield the events other writers appended since the last call.

        A read-only ledger is read without the lock (nothing can be appended to it).
        """
        if self._lock is None:
            yield self._read_new()
            return
        from filelock import Timeout

        try:
            self._lock.acquire(timeout=LOCK_TIMEOUT_SECONDS)
        except Timeout:
            raise LedgerBusy(
                f"another process has held the ledger's lock {self._lock_path} for "
                f"{LOCK_TIMEOUT_SECONDS:g} s (a dpgui release or window that is stopped or hung); end it, "
                "then try again"
            ) from None
        try:
            self._appended = False
            news = self._read_new()
            if self._head_behind():
                self._write_head()  # a crash after an append left it behind: a line removed would go unseen
            yield news
            if self._appended:
                self._write_head()
        finally:
            self._lock.release()

    def append(self, event_type: EventType, payload: Payload) -> StoredEvent:
        """Append one line: a single write of the whole line, then flush and fsync."""
        if self.read_only:
            raise LedgerReadOnly(
                f"the folder {self.path.parent} cannot be written, so no release can be charged (budgets can "
                "still be shown); make it writable or point DPGUI_HOME at a writable copy of the ledger"
            )
        record: dict[str, object] = {
            "seq": self._next_seq,
            "time": datetime.now(UTC).isoformat(),
            "type": event_type.value,
            "prev": self._last_hash,
            **{
                key: value for key, value in asdict(payload).items() if key not in _OMITTED_WHEN_NONE or value
            },
        }
        record["hash"] = record_hash(record)
        raw = canonical_json(record)
        created = not self.path.exists()
        fd = os.open(
            self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_BINARY", 0), OWNER_ONLY_FILE
        )
        with os.fdopen(fd, "ab") as f:
            f.write(raw + b"\n")
            f.flush()
            os.fsync(f.fileno())
        if created:
            _fsync_directory(self.path.parent)
        self._appended = True
        return self._accept(raw)

    def _write_head(self) -> None:
        """Record the chain head beside the ledger (atomically: a temporary file renamed into place)."""
        temporary = self.head_path.with_name(f"{self.head_path.name}.{os.getpid()}.tmp")
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, OWNER_ONLY_FILE)
        with os.fdopen(fd, "wb") as f:
            f.write(canonical_json(self.head.as_dict()) + b"\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, self.head_path)

    def _head_behind(self) -> bool:
        """Whether the ledger has lines the head file does not record yet (a crash between an append and
        the head's write, or no head file): under the lock, the head is then brought up to date at once,
        or read-only commands would leave the last lines removable unseen until the next charge."""
        if self._next_seq == 0:
            return False
        recorded = self._read_head()
        return recorded is None or recorded.seq < self.head.seq

    def _read_head(self) -> ChainHead | None:
        try:
            record = json.loads(self.head_path.read_bytes())
            head = ChainHead(int(record["seq"]), str(record["hash"]))
        except FileNotFoundError:
            return None
        except (ValueError, KeyError, TypeError) as exc:
            raise LedgerTampered(f"{self.head_path}: not a chain head written by dpgui ({exc})") from exc
        if head.seq < 0:  # written only after a line was appended
            raise LedgerTampered(f"{self.head_path}: not a chain head written by dpgui (seq {head.seq})")
        return head

    def _check_head(self) -> None:
        """Refuse a ledger shorter than its recorded head (lines removed from the end), or a forked one.

        A ledger longer than its head is legitimate only as a continuation of the head's history (a crash
        after appending but before the head was written; a head restored from an older copy of the same
        ledger), so the head's line must still carry the head's hash.
        """
        recorded = self._read_head()
        if recorded is None:
            return
        ours = self.head
        if recorded.seq > ours.seq:
            raise LedgerTampered(
                f"{self.path} ends at line {ours.seq + 1} but {self.head_path.name} records line "
                f"{recorded.seq + 1}: lines were removed from the end of the ledger (truncated). It refuses "
                f"all operations until it is restored from a backup (with the {self.head_path.name} of the "
                "same backup)."
            )
        if recorded.seq == ours.seq and recorded.hash != ours.hash:
            raise LedgerTampered(
                f"{self.path}: its last line does not match the chain head in {self.head_path.name}. The "
                "ledger was replaced or edited; it refuses all operations until it is restored from a backup."
            )
        if recorded.seq < ours.seq and recorded.hash != self._hashes[recorded.seq]:
            raise LedgerTampered(
                f"{self.path}: its line {recorded.seq + 1} does not match the chain head in "
                f"{self.head_path.name}, so the ledger is another copy's history (forked or replaced), "
                "without the charges the head's copy recorded. It refuses all operations until it is "
                f"restored from a backup (with the {self.head_path.name} of the same backup)."
            )

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
            self._check_head()
            return []
        lines = data.split(b"\n")
        torn = lines.pop()  # b"" when the data ends with a newline; else a write cut short by a crash
        events = [self._accept(raw) for raw in lines]
        self._check_head()  # first: a line the head file records was written whole; never cut it as torn
        if torn and not self.read_only:
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
        self._hashes.append(claimed)
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
                    OWNER_ONLY_FILE,
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
