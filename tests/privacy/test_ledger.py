"""The privacy budget ledger: datasets, reservations, crash recovery and tamper evidence."""

from __future__ import annotations

import hashlib
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dpgui.data.fingerprint import sha256_file
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import (
    BudgetExceeded,
    BudgetNotSet,
    DatasetRecord,
    Ledger,
    LedgerError,
    LedgerTampered,
    ReservationRequest,
    ReservationStatus,
)

SHA = "a" * 64
DEFAULT_TOTAL = PrivacyCost(1.0, 1e-6)


@pytest.fixture
def ledger_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DPGUI_HOME", str(tmp_path))
    return tmp_path / "ledger.jsonl"


def dataset_with_total(ledger: Ledger, total: PrivacyCost | None = DEFAULT_TOTAL) -> DatasetRecord:
    record = ledger.open_dataset(Path("cps1988.csv"), SHA)
    if total is not None:
        ledger.set_total(record.id, total)
    return record


def sample_ledger(path: Path) -> list[str]:
    """A ledger with every kind of event; returns its lines."""
    ledger = Ledger(path)
    record = dataset_with_total(ledger)
    first = ledger.reserve(record.id, PrivacyCost(0.5, 1e-7), "CDF of wage (ε split 3 ways)")
    ledger.mark_touched(first)
    ledger.commit(first, "release-1")
    second = ledger.reserve(record.id, PrivacyCost(0.25), "median of age")
    ledger.refund(second)
    return path.read_text().splitlines(keepends=True)


def rewind_head(path: Path, lines: list[str]) -> None:
    """The chain head as a crash while writing the line after ``lines`` leaves it (the head comes last)."""
    last = json.loads(lines[-1])
    path.with_suffix(".head").write_text(json.dumps({"seq": last["seq"], "hash": last["hash"]}))


def run_python(code: str, **kwargs: object) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE, text=True, **kwargs
    )


# -- storage format ------------------------------------------------------------------------------------------


def test_default_location_is_dpgui_home(ledger_path: Path) -> None:
    dataset_with_total(Ledger())
    assert ledger_path.exists()


def test_lines_form_a_hash_chain(ledger_path: Path) -> None:
    previous = "0" * 64
    for seq, line in enumerate(sample_ledger(ledger_path)):
        record = json.loads(line)
        assert record["seq"] == seq
        assert record["prev"] == previous
        claimed = record.pop("hash")
        canonical = json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
        assert claimed == hashlib.sha256(canonical.encode()).hexdigest()
        assert record["time"].endswith("+00:00")
        previous = claimed


# -- datasets ------------------------------------------------------------------------------------------------


def test_dataset_identity_survives_renames_and_edits(tmp_path: Path, ledger_path: Path) -> None:
    ledger = Ledger()
    original = tmp_path / "cps1988.csv"
    original.write_text("wage\n1\n2\n")
    first = ledger.open_dataset(original, sha256_file(original))
    assert (first.name, first.path, first.changed) == ("cps1988.csv", original.resolve(), False)
    assert ledger.open_dataset(original, sha256_file(original)) == first

    renamed = original.rename(tmp_path / "wages.csv")
    moved = ledger.open_dataset(renamed, sha256_file(renamed))
    assert (moved.id, moved.name, moved.changed) == (first.id, "wages.csv", False)

    renamed.write_text("wage\n1\n2\n3\n")
    edited = ledger.open_dataset(renamed, sha256_file(renamed))
    assert (edited.id, edited.changed, edited.sha256) == (first.id, True, sha256_file(renamed))
    assert ledger.open_dataset(renamed, sha256_file(renamed)).changed is False

    fresh = ledger.open_dataset(renamed, sha256_file(renamed), new_dataset=True)
    assert fresh.id != first.id
    other = tmp_path / "other.csv"
    other.write_text("x\n")
    assert ledger.open_dataset(other, sha256_file(other)).id not in {first.id, fresh.id}
    assert [d.id for d in Ledger().datasets()] == [d.id for d in ledger.datasets()]
    assert len(ledger.datasets()) == 3


def test_budget_continues_after_the_file_changed(tmp_path: Path, ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger)
    ledger.commit(ledger.reserve(record.id, PrivacyCost(0.75), "q"))
    changed = ledger.open_dataset(Path("cps1988.csv"), "b" * 64)
    assert changed.changed and changed.id == record.id
    assert ledger.state(record.id).spent.epsilon == pytest.approx(0.75)


def test_bytes_a_dataset_once_had_find_it_after_it_was_edited(ledger_path: Path) -> None:
    """A backup holding the original bytes, opened after the original was edited in place, is the same
    dataset with what it has spent, not a new one starting at zero."""
    ledger = Ledger()
    record = dataset_with_total(ledger)
    ledger.commit(ledger.reserve(record.id, PrivacyCost(0.9), "median of wage"))
    assert ledger.open_dataset(Path("cps1988.csv"), "b" * 64).id == record.id  # edited in place
    backup = Ledger().open_dataset(Path("backup/cps1988.csv"), SHA)
    assert (backup.id, backup.changed) == (record.id, True)
    assert Ledger().state(record.id).spent.epsilon == pytest.approx(0.9)
    assert [d.id for d in Ledger().datasets()] == [record.id]


def test_a_path_a_dataset_was_seen_at_finds_it_after_a_copy_was_opened(ledger_path: Path) -> None:
    """Opening a byte-identical copy elsewhere moves the dataset's last path; editing the original file
    afterwards still continues its budget."""
    ledger = Ledger()
    record = dataset_with_total(ledger)
    assert ledger.open_dataset(Path("copy/cps1988.csv"), SHA).id == record.id
    edited = Ledger().open_dataset(Path("cps1988.csv"), "b" * 64)
    assert (edited.id, edited.changed) == (record.id, True)
    assert [d.id for d in Ledger().datasets()] == [record.id]


def test_where_two_datasets_match_the_latest_sighting_wins(ledger_path: Path) -> None:
    """Bytes seen at this path win over the same bytes elsewhere, bytes over a path, and among equals the
    most recent line (a custodian's ``new_dataset`` for a copy keeps the original's file its own)."""
    ledger = Ledger()
    first = dataset_with_total(ledger)
    again = ledger.open_dataset(Path("copy.csv"), SHA, new_dataset=True)
    reopened = Ledger()
    assert reopened.find(Path("cps1988.csv"), SHA) == first
    assert reopened.find(Path("copy.csv"), SHA) == again
    assert reopened.find(Path("third.csv"), SHA) == again
    assert reopened.find(Path("copy.csv"), "c" * 64) == again
    assert reopened.find(Path("cps1988.csv"), "c" * 64) == first


# -- totals and reservations ---------------------------------------------------------------------------------


def test_no_total_means_every_reserve_is_refused_with_instructions(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, total=None)
    assert ledger.state(record.id).total is None and ledger.state(record.id).remaining is None
    with pytest.raises(
        BudgetNotSet, match=r"dpgui budget set --data .*cps1988\.csv --epsilon E \[--delta D\]"
    ):
        ledger.reserve(record.id, PrivacyCost(0.1), "CDF")


@pytest.mark.parametrize("pieces", [[0.5, 0.5], [0.1] * 10, [1 / 3] * 3, [0.7, 0.2, 0.1]])
def test_pieces_that_add_up_to_the_total_fit_and_nothing_more(ledger_path: Path, pieces: list[float]) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0))
    for i, epsilon in enumerate(pieces):
        reservation = ledger.reserve(record.id, PrivacyCost(epsilon), f"piece {i}")
        if i % 2:
            ledger.commit(reservation)
    with pytest.raises(BudgetExceeded, match=r"needs ε=1e-06 but only ε=0 of the total ε=1 remains"):
        ledger.reserve(record.id, PrivacyCost(1e-6), "one more")
    assert ledger.state(record.id).remaining.epsilon == pytest.approx(0.0, abs=1e-15)


def test_overspend_message_names_the_numbers(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0, 1e-6))
    ledger.commit(ledger.reserve(record.id, PrivacyCost(0.8, 4e-7), "earlier release"))
    with pytest.raises(BudgetExceeded) as refused:
        ledger.reserve(record.id, PrivacyCost(0.5), "CDF")
    assert str(refused.value) == (
        "This release needs ε=0.5 but only ε=0.2 of the total ε=1 remains for dataset 'cps1988.csv' "
        "(spent 0.8). Lower epsilon or raise the total (`dpgui budget set`, or Budget → Set total budget… in "
        "the app)."
    )
    with pytest.raises(
        BudgetExceeded, match=r"needs δ=1e-06 but only δ=6e-07 of the total δ=1e-06.*Lower delta"
    ):
        ledger.reserve(record.id, PrivacyCost(0.1, 1e-6), "quantiles")
    assert len(ledger.entries(record.id)) == 1


def test_an_overspend_by_a_hair_is_written_with_the_digits_that_show_it(ledger_path: Path) -> None:
    """An audit read "needs ε=1 but only ε=1 remains": six digits could not tell 1.0000001 from 1."""
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0))
    with pytest.raises(BudgetExceeded, match=r"needs ε=1\.0000001 but only ε=1 of the total ε=1 remains"):
        ledger.reserve(record.id, PrivacyCost(1.0000001), "a hair too much")


def test_a_release_with_delta_under_a_pure_total_says_how_to_set_a_delta(ledger_path: Path) -> None:
    """Unseen-tables audit, session 34: after `budget set --epsilon 6` a table at δ = 1e-6 was refused with
    "needs δ=1e-06 but only δ=0 of the total δ=0 remains ... Lower delta": the way out is a total with δ."""
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(6.0))
    with pytest.raises(BudgetExceeded) as refused:
        ledger.reserve(record.id, PrivacyCost(1.0, 1e-6), "table")
    assert "has δ = 0 (pure DP only): set a total with a δ (`dpgui budget set" in str(refused.value)
    assert "--delta 1e-6" in str(refused.value) and not ledger.entries(record.id)


def test_the_refusal_a_review_shows_is_the_reservations_own_and_books_nothing(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0, 1e-6))
    ledger.commit(ledger.reserve(record.id, PrivacyCost(0.8, 4e-7), "earlier release"))
    for cost, fits in ((PrivacyCost(0.2), True), (PrivacyCost(0.5), False), (PrivacyCost(0.1, 1e-6), False)):
        words = ledger.refusal(record.id, ReservationRequest(cost, "asked"))
        assert len(ledger.entries(record.id)) == 1  # the question booked nothing
        if fits:
            assert words is None
            continue
        with pytest.raises(BudgetExceeded) as refused:
            ledger.reserve(record.id, cost, "asked")
        assert words == str(refused.value)
    unset = ledger.open_dataset(Path("other.csv"), "c" * 64)
    assert ledger.refusal(unset.id, ReservationRequest(PrivacyCost(9.0), "x")) is None  # reserve says why


def test_a_plans_refusal_is_that_of_its_releases_together_and_books_nothing(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0))
    plan = [ReservationRequest(PrivacyCost(0.6), "cdf"), ReservationRequest(PrivacyCost(0.6), "median")]
    assert all(ledger.refusal(record.id, request) is None for request in plan)  # each fits alone
    words = ledger.refusal_all(record.id, plan)
    assert words is not None and words.startswith("These 2 releases need ε=1.2")
    assert ledger.entries(record.id) == []
    with pytest.raises(BudgetExceeded) as refused:
        ledger.reserve_all(record.id, plan)
    assert words == str(refused.value)
    assert ledger.refusal_all(record.id, plan[:1]) is None


def test_find_names_the_dataset_open_dataset_would_match_without_registering(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger)
    assert ledger.find(Path("elsewhere/moved.csv"), SHA) == record  # same bytes
    assert ledger.find(Path("cps1988.csv"), "b" * 64) == record  # same path, bytes changed
    assert ledger.find(Path("new.csv"), "c" * 64) is None
    assert ledger.datasets() == [record]


def test_refund_before_touch_restores_the_budget(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0))
    reservation = ledger.reserve(record.id, PrivacyCost(1.0), "all of it")
    assert ledger.state(record.id).pending == PrivacyCost(1.0)
    assert ledger.state(record.id).remaining == PrivacyCost(0.0)
    ledger.refund(reservation)
    state = ledger.state(record.id)
    assert (state.spent, state.pending, state.remaining) == (
        PrivacyCost(0.0),
        PrivacyCost(0.0),
        PrivacyCost(1.0),
    )
    assert [e.status for e in ledger.entries(record.id)] == [ReservationStatus.REFUNDED]
    ledger.reserve(record.id, PrivacyCost(1.0), "again")


def test_mark_touched_is_fsynced_before_returning(ledger_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ledger = Ledger()
    reservation = ledger.reserve(dataset_with_total(ledger).id, PrivacyCost(0.5), "CDF")
    synced: list[bytes] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        real_fsync(fd)
        synced.append(ledger_path.read_bytes())

    monkeypatch.setattr(os, "fsync", spy)
    ledger.mark_touched(reservation)
    assert any(b'"type":"touched"' in content for content in synced)


def test_refund_after_touch_is_refused(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger)
    reservation = ledger.reserve(record.id, PrivacyCost(0.5), "CDF")
    ledger.mark_touched(reservation)
    ledger.mark_touched(reservation)  # idempotent
    assert [e.status for e in ledger.entries(record.id)] == [ReservationStatus.TOUCHED]
    with pytest.raises(LedgerError, match="already read the private data"):
        ledger.refund(reservation)
    ledger.commit(reservation, "release-7")
    (entry,) = ledger.entries(record.id)
    assert (entry.status, entry.release_id, entry.description) == (
        ReservationStatus.COMMITTED,
        "release-7",
        "CDF",
    )
    assert ledger.state(record.id).spent == PrivacyCost(0.5)


def test_resolving_twice_or_unknown_reservations_raises(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger)
    committed = ledger.reserve(record.id, PrivacyCost(0.1), "a")
    ledger.commit(committed)
    refunded = ledger.reserve(record.id, PrivacyCost(0.1), "b")
    ledger.refund(refunded)
    for done in (committed, refunded):
        for action in (ledger.commit, ledger.refund, ledger.mark_touched):
            with pytest.raises(LedgerError, match="already"):
                action(done)
    unknown = committed.__class__("nope", record.id, PrivacyCost(0.1), "c")
    with pytest.raises(LedgerError, match="Unknown reservation"):
        ledger.commit(unknown)
    with pytest.raises(LedgerError, match="Unknown dataset"):
        ledger.reserve("nope", PrivacyCost(0.1), "d")
    foreign = ledger.reserve(record.id, PrivacyCost(0.1), "e")
    with pytest.raises(LedgerError, match="another dpgui process"):
        Ledger().refund(foreign)


def test_lowering_below_spent_means_no_more_releases(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(2.0))
    ledger.commit(ledger.reserve(record.id, PrivacyCost(1.5), "big"))
    ledger.set_total(record.id, PrivacyCost(1.0), note="policy change")
    state = ledger.state(record.id)
    assert state.remaining == PrivacyCost(0.0) and state.total == PrivacyCost(1.0)
    with pytest.raises(BudgetExceeded, match="only ε=0 of the total ε=1"):
        ledger.reserve(record.id, PrivacyCost(0.01), "tiny")
    ledger.set_total(record.id, PrivacyCost(3.0))
    assert ledger.state(record.id).remaining == PrivacyCost(1.5)
    events = Ledger().budget_events(record.id)
    assert [(e.previous, e.total, e.note, e.exhausted) for e in events] == [
        (None, PrivacyCost(2.0), "", False),
        (PrivacyCost(2.0), PrivacyCost(1.0), "policy change", True),
        (PrivacyCost(1.0), PrivacyCost(3.0), "", False),
    ]


def test_another_process_open_reservation_is_unresolved_and_spent(ledger_path: Path) -> None:
    gui = Ledger()
    record = dataset_with_total(gui, PrivacyCost(1.0))
    running = gui.reserve(record.id, PrivacyCost(0.5), "running")
    gui.mark_touched(running)
    assert gui.state(record.id).pending == PrivacyCost(0.5)
    cli = Ledger()
    assert cli.state(record.id).spent == PrivacyCost(0.5)
    assert [e.status for e in cli.entries(record.id)] == [ReservationStatus.UNRESOLVED]
    cli.reserve(record.id, PrivacyCost(0.5), "from the cli")
    with pytest.raises(BudgetExceeded):
        gui.reserve(record.id, PrivacyCost(0.1), "sees the cli's reservation")
    assert gui.state(record.id).spent == PrivacyCost(0.5)


# -- crashes -------------------------------------------------------------------------------------------------


def test_reservation_of_a_killed_process_counts_as_spent(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0))
    child = run_python(
        f"""
        import time
        from pathlib import Path
        from dpgui.privacy.cost import PrivacyCost
        from dpgui.privacy.ledger import Ledger

        ledger = Ledger(Path({str(ledger_path)!r}))
        reservation = ledger.reserve({record.id!r}, PrivacyCost(0.75), "killed run")
        ledger.mark_touched(reservation)
        print("touched", flush=True)
        time.sleep(60)
        """
    )
    assert child.stdout is not None
    ready, _, _ = select.select([child.stdout], [], [], 30)
    if not ready:
        child.kill()
    assert ready and child.stdout.readline() == "touched\n"
    child.send_signal(signal.SIGKILL)
    assert child.wait(timeout=10) == -signal.SIGKILL
    after = Ledger()
    assert after.state(record.id).spent == PrivacyCost(0.75)
    assert [e.status for e in after.entries(record.id)] == [ReservationStatus.UNRESOLVED]
    with pytest.raises(BudgetExceeded, match=r"spent 0\.75\)"):
        ledger.reserve(record.id, PrivacyCost(0.5), "too much")


def test_concurrent_processes_never_overspend(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger, PrivacyCost(1.0))
    code = f"""
        from pathlib import Path
        from dpgui.privacy.cost import PrivacyCost
        from dpgui.privacy.ledger import BudgetExceeded, Ledger

        ledger = Ledger(Path({str(ledger_path)!r}))
        granted = 0
        for _ in range(8):
            try:
                ledger.commit(ledger.reserve({record.id!r}, PrivacyCost(0.0625), "race"))
                granted += 1
            except BudgetExceeded:
                pass
        print(granted)
        """
    children = [run_python(code) for _ in range(4)]
    granted = [int(child.communicate(timeout=60)[0]) for child in children]
    assert sum(granted) == 16
    assert ledger.state(record.id).spent.epsilon == pytest.approx(1.0)


def assert_recovered(path: Path, complete: list[str], torn: bytes, refund_survived: bool) -> None:
    """Reopening keeps every complete line and preserves the torn bytes beside the ledger.

    If the refund's line was torn, the refunded reservation is unresolved again: counted as spent.
    """
    reopened = Ledger(path)
    assert path.read_text() == "".join(complete)
    (kept,) = path.parent.glob("ledger.jsonl.torn-*")
    assert kept.read_bytes() == torn
    kept.unlink()
    (record,) = reopened.datasets()
    second = ReservationStatus.REFUNDED if refund_survived else ReservationStatus.UNRESOLVED
    assert [e.status for e in reopened.entries(record.id)] == [ReservationStatus.COMMITTED, second]
    spent = reopened.state(record.id).spent
    assert spent.epsilon == pytest.approx(0.5 if refund_survived else 0.75)
    assert spent.delta == pytest.approx(1e-7)


@pytest.mark.parametrize("keep", [0.0, 0.3, 0.9, 0.999])
def test_a_torn_last_line_is_cut_and_kept_aside(ledger_path: Path, keep: float) -> None:
    lines = sample_ledger(ledger_path)
    last = lines[-1].encode()
    cut = int(len(last) * keep) or 1
    ledger_path.write_bytes("".join(lines[:-1]).encode() + last[:cut])
    rewind_head(ledger_path, lines[:-1])
    assert_recovered(ledger_path, lines[:-1], last[:cut], refund_survived=False)


def test_a_last_line_the_head_records_is_refused_as_truncated_and_not_cut(ledger_path: Path) -> None:
    """A crash tears a line before its head is written, so a line without its newline that the head file
    records was cut short by hand: the ledger refuses, and leaves the file as it found it (even for a
    read-only command such as ``budget show``, which would otherwise move the line aside first)."""
    lines = sample_ledger(ledger_path)
    shortened = "".join(lines).encode()[:-1]  # the last line loses its newline only
    ledger_path.write_bytes(shortened)
    with pytest.raises(LedgerTampered, match="truncated"):
        Ledger()
    assert ledger_path.read_bytes() == shortened
    assert not list(ledger_path.parent.glob("ledger.jsonl.torn-*"))


def test_a_half_written_line_is_recovered_by_a_running_ledger(ledger_path: Path) -> None:
    lines = sample_ledger(ledger_path)
    running = Ledger()
    half = lines[-1].encode()[: len(lines[-1]) // 2]
    with ledger_path.open("ab") as f:
        f.write(half)
    (record,) = running.datasets()
    running.reserve(record.id, PrivacyCost(0.25), "after the crash")
    assert ledger_path.read_text().startswith("".join(lines))
    assert len(ledger_path.read_text().splitlines()) == len(lines) + 1
    (kept,) = ledger_path.parent.glob("ledger.jsonl.torn-*")
    assert kept.read_bytes() == half


def test_a_complete_but_unparsable_last_line_is_tampering_not_a_torn_write(ledger_path: Path) -> None:
    """A crash cannot leave the newline after a partial line: a complete garbage line was written."""
    lines = sample_ledger(ledger_path)
    with ledger_path.open("ab") as f:
        f.write(b'{"seq": 9, "ty\x00\n')
    with pytest.raises(LedgerTampered, match=rf"line {len(lines) + 1}: not valid JSON"):
        Ledger()
    assert not list(ledger_path.parent.glob("ledger.jsonl.torn-*"))


# -- tamper evidence -----------------------------------------------------------------------------------------


def test_editing_an_epsilon_is_detected_with_the_line_number(ledger_path: Path) -> None:
    lines = sample_ledger(ledger_path)
    index = next(i for i, line in enumerate(lines) if '"type":"reserved"' in line)
    lines[index] = lines[index].replace('"epsilon":0.5', '"epsilon":0.05')
    ledger_path.write_text("".join(lines))
    with pytest.raises(LedgerTampered, match=rf"line {index + 1}: its hash does not match"):
        Ledger()


@pytest.mark.parametrize(("before", "after"), [("1e-07", "1E-07"), ("\\u03b5", "\\u03B5")])
def test_an_equivalent_but_non_canonical_edit_is_detected(ledger_path: Path, before: str, after: str) -> None:
    """Edits that parse to the same object (and so keep the hash valid) still change the bytes."""
    lines = sample_ledger(ledger_path)
    index = next(i for i, line in enumerate(lines) if before in line)
    lines[index] = lines[index].replace(before, after)
    ledger_path.write_text("".join(lines))
    with pytest.raises(LedgerTampered, match=rf"line {index + 1}: not in the canonical form"):
        Ledger()


def test_a_deleted_line_is_detected(ledger_path: Path) -> None:
    lines = sample_ledger(ledger_path)
    ledger_path.write_text("".join(lines[:3] + lines[4:]))
    with pytest.raises(LedgerTampered, match="line 4: expected seq 3"):
        Ledger()


def test_a_running_ledger_refuses_everything_once_tampering_is_seen(ledger_path: Path) -> None:
    ledger = Ledger()
    record = dataset_with_total(ledger)
    lines = ledger_path.read_text().splitlines(keepends=True)
    extra = Ledger()
    extra.reserve(record.id, PrivacyCost(0.1), "by another process")
    forged = ledger_path.read_text().splitlines(keepends=True)[-1].replace("0.1", "0.01")
    ledger_path.write_text("".join([*lines, forged]))
    with pytest.raises(LedgerTampered, match="line 3"):
        ledger.state(record.id)
    for operation in (lambda: ledger.datasets(), lambda: ledger.reserve(record.id, PrivacyCost(0.1), "x")):
        with pytest.raises(LedgerTampered):
            operation()


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_editing_any_byte_of_an_earlier_line_is_detected(data: st.DataObject) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "ledger.jsonl"
        lines = [line.encode() for line in sample_ledger(path)]
        index = data.draw(st.integers(0, len(lines) - 2), label="line")
        position = data.draw(st.integers(0, len(lines[index]) - 2), label="byte")
        original = lines[index][position]
        replacement = data.draw(st.integers(0, 255).filter(lambda b: b != original), label="new byte")
        edited = bytearray(lines[index])
        edited[position] = replacement
        lines[index] = bytes(edited)
        path.write_bytes(b"".join(lines))
        with pytest.raises(LedgerTampered, match=rf"line {index + 1}\b"):
            Ledger(path)
        assert not list(Path(folder).glob("*.torn-*"))
