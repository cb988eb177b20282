"""A reservation whose process ended before its run read the private data is refunded, not spent for good.

An audit killed `dpgui release batch` as its first release began reading the data: the plan's two other
releases, which never read it, stayed charged ("unresolved/spent") for good, and no command could settle
them. Each reservation line now names its process's owner lock (``ledger_owner``); once that process has
ended, the next ledger transaction refunds its untouched reservations with a reason. A touched one stays
spent, and a live process's reservation is never refunded from outside.
"""

from __future__ import annotations

import os
import select
import signal
import time
from pathlib import Path

import pytest

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import ABANDONED_REASON, Ledger, ReservationStatus
from dpgui.privacy.ledger_owner import OWNERS_FOLDER, owner_gone, process_owner
from tests.privacy.test_ledger import dataset_with_total, run_python


@pytest.fixture
def ledger_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DPGUI_HOME", str(tmp_path))
    return tmp_path / "ledger.jsonl"


PLAN = """
    import time
    from pathlib import Path
    from dpgui.privacy.cost import PrivacyCost
    from dpgui.privacy.ledger import Ledger, ReservationRequest

    ledger = Ledger(Path({path!r}))
    first, second, third = ledger.reserve_all(
        {dataset!r}, [ReservationRequest(PrivacyCost(0.25), name) for name in ("a", "b", "c")]
    )
    if {touch}:
        ledger.mark_touched(first)
    print("booked", flush=True)
    time.sleep(60)
"""


def _booked_then(ledger_path: Path, dataset_id: str, *, touch: bool, kill: bool) -> list[ReservationStatus]:
    """A child books a plan of three (touching the first if ``touch``); the statuses another process sees
    while it lives, or after it was killed (``kill``)."""
    child = run_python(PLAN.format(path=str(ledger_path), dataset=dataset_id, touch=touch))
    try:
        assert child.stdout is not None
        ready, _, _ = select.select([child.stdout], [], [], 30)
        assert ready and child.stdout.readline() == "booked\n"
        if kill:
            child.send_signal(signal.SIGKILL)
            assert child.wait(timeout=10) == -signal.SIGKILL
        return [entry.status for entry in Ledger(ledger_path).entries(dataset_id)]
    finally:
        child.kill()
        child.wait(timeout=10)


def test_a_killed_plans_releases_that_never_read_the_data_are_refunded(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0))
    statuses = _booked_then(ledger_path, record.id, touch=True, kill=True)
    assert statuses == [ReservationStatus.UNRESOLVED, ReservationStatus.REFUNDED, ReservationStatus.REFUNDED]
    entries = ledger.entries(record.id)
    assert [entry.touched for entry in entries] == [True, False, False]
    assert [entry.reason for entry in entries] == [None, ABANDONED_REASON, ABANDONED_REASON]
    assert ledger.state(record.id).spent == PrivacyCost(0.25)  # the release that read the data stays spent
    refunds = [line for line in ledger_path.read_text().splitlines() if '"refunded"' in line]
    assert len(refunds) == 2  # written once, by the first transaction that saw the owner gone


def test_a_live_processs_reservations_are_never_refunded_from_outside(ledger_path: Path) -> None:
    """Control: the same plan, its process still running, untouched: held, counted as spent."""
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0))
    statuses = _booked_then(ledger_path, record.id, touch=False, kill=False)
    assert statuses == [ReservationStatus.UNRESOLVED] * 3


def test_a_second_ledger_of_the_same_process_never_finds_the_first_ones_reservations_abandoned(
    ledger_path: Path,
) -> None:
    first = Ledger()
    record = dataset_with_total(first, PrivacyCost(1.0))
    first.reserve(record.id, PrivacyCost(0.5), "open in this process")
    del first
    assert [e.status for e in Ledger().entries(record.id)] == [ReservationStatus.UNRESOLVED]


def test_an_owner_is_gone_once_its_lock_is_free_or_its_file_removed(tmp_path: Path) -> None:
    mine = process_owner(tmp_path)
    assert not owner_gone(tmp_path, mine)  # held by this process
    assert owner_gone(tmp_path, "0" * 32)  # no lock file: nobody took that id
    stale = tmp_path / OWNERS_FOLDER / ("1" * 32 + ".lock")
    stale.write_text("")  # left by a killed process: nobody holds its lock
    assert owner_gone(tmp_path, "1" * 32) and not stale.exists()


def test_a_new_owner_removes_the_lock_files_killed_owners_left(tmp_path: Path) -> None:
    """A process killed after its reservations were settled leaves its lock file, and nothing probes it:
    the folder would grow with every killed run. A new owner removes those it can take."""
    (tmp_path / OWNERS_FOLDER).mkdir()
    stale = [tmp_path / OWNERS_FOLDER / f"{i:032x}.lock" for i in range(3)]
    for path in stale:
        path.write_text("")
        os.utime(path, (time.time() - 3600, time.time() - 3600))  # left an hour ago
    fresh = tmp_path / OWNERS_FOLDER / f"{9:032x}.lock"
    fresh.write_text("")  # an owner may be between creating and locking it: left alone
    mine = process_owner(tmp_path)
    assert not any(path.exists() for path in stale) and fresh.exists()
    assert (tmp_path / OWNERS_FOLDER / f"{mine}.lock").exists()  # its own, held, stays
