"""Which process holds an open reservation, and whether that process has ended.

Each process that books a reservation first takes an exclusive lock on a file of its own,
``<ledger folder>/owners/<owner id>.lock`` (``filelock``: ``flock`` where the platform has it), and holds it
until it exits; its reservation lines name that owner id. The operating system drops the lock when the
process ends, however it ends (a kill -9 included), so another process that can take the lock knows the
owner is gone. A reservation whose owner is gone and whose run never wrote its "touched" line released
nothing derived from the private data (the line is fsynced before the algorithm's first read, and a
scanning engine's earlier pass yields only custodian-only counts, ``dpgui.tasks.runner``): the ledger
refunds it (``Ledger``), as it refunds a run refused before its touch, instead of counting it as spent for
good (a killed plan kept every release it had not started charged).

All the ledgers of one process share its owner id, so a second ``Ledger`` opened in the same process (the
app's and a job's) sees the first one's reservations as held, never as abandoned. A child created by
``fork`` inherits the lock: its parent's reservations then count as held while either lives, the safe side.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import time
from pathlib import Path
from typing import TYPE_CHECKING
from uuid import uuid4

from dpgui.paths import OWNER_ONLY_FILE

if TYPE_CHECKING:  # filelock is imported when a process first books, so commands start fast
    from filelock import BaseFileLock

OWNERS_FOLDER = "owners"
LOCK_SUFFIX = ".lock"

_held: dict[tuple[Path, int], tuple[str, BaseFileLock]] = {}
"""(ledger folder, pid) -> (owner id, its held FileLock): one owner per process and ledger folder."""


def _lock_path(folder: Path, owner: str) -> Path:
    return folder / OWNERS_FOLDER / (owner + LOCK_SUFFIX)


def process_owner(folder: Path) -> str:
    """This process's owner id for the ledger in ``folder``, its lock taken on first use and held until
    the process exits."""
    key = (folder, os.getpid())
    if key not in _held:
        from filelock import FileLock

        owner = uuid4().hex
        path = _lock_path(folder, owner)
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _sweep(path.parent)
        lock = FileLock(path, mode=OWNER_ONLY_FILE, thread_local=False)  # held whichever thread booked
        lock.acquire()
        _held[key] = (owner, lock)
        atexit.register(_let_go, path, lock)
    return _held[key][0]


SWEPT_AT_MOST = 100
"""Lock files a new owner looks at, at most, for ones their killed processes left."""
SWEPT_AFTER_SECONDS = 60.0
"""A lock file younger than this is left alone: its owner may be between creating and locking it."""


def _sweep(folder: Path) -> None:
    """Remove the lock files of owners that have ended (a kill leaves its file; one whose reservations
    were all settled is never probed otherwise), so the folder does not grow run after run. Only files
    older than SWEPT_AFTER_SECONDS: a sweep must not take the lock of an owner that is just taking it."""
    now = time.time()
    for stale in sorted(folder.glob("*" + LOCK_SUFFIX))[:SWEPT_AT_MOST]:
        with contextlib.suppress(OSError):
            if now - stale.stat().st_mtime > SWEPT_AFTER_SECONDS:
                owner_gone(folder.parent, stale.name.removesuffix(LOCK_SUFFIX))  # removes it when gone


def _let_go(path: Path, lock: BaseFileLock) -> None:
    """At a normal exit: release the lock and remove its file (a kill leaves both to ``owner_gone``)."""
    lock.release()
    with contextlib.suppress(OSError):
        path.unlink()


def owner_gone(folder: Path, owner: str) -> bool:
    """Whether the process that took ``owner``'s lock has ended: its lock file is gone or can be taken.
    A lock taken here is released at once and its file removed (no process will hold that id again)."""
    from filelock import FileLock, Timeout

    path = _lock_path(folder, owner)
    if not path.exists():
        return True
    probe = FileLock(path, timeout=0)
    try:
        probe.acquire()
    except Timeout:
        return False
    except OSError:  # a lock file this process may not open: say held, the safe side
        return False
    probe.release()
    with contextlib.suppress(OSError):
        path.unlink()
    return True
