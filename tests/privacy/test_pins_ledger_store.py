"""Pins found by the mutation scan of the ledger file: a replaced ledger of the same length, a hash-less
line, and the directory fsync that makes a new ledger survive a crash."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, LedgerTampered


def _ledger_with_one_release(path: Path) -> None:
    ledger = Ledger(path)
    record = ledger.open_dataset(Path("people.csv"), "d" * 64)
    ledger.set_total(record.id, PrivacyCost(1.0))
    ledger.commit(ledger.reserve(record.id, PrivacyCost(1.0), "the whole budget"), "release-1")


def test_a_ledger_replaced_by_another_of_the_same_length_is_refused(tmp_path: Path) -> None:
    """ledger_store.py _check_head: `if recorded.seq == ours.seq and recorded.hash != ours.hash:` ->
    `if False:`. Copying a fresh ledger (its budget unspent) over the used one keeps the line count; only the
    head sees it."""
    used, fresh = tmp_path / "used" / "ledger.jsonl", tmp_path / "fresh" / "ledger.jsonl"
    _ledger_with_one_release(used)
    _ledger_with_one_release(fresh)
    assert len(used.read_text().splitlines()) == len(fresh.read_text().splitlines())
    shutil.copyfile(fresh, used)  # the used ledger's .head stays
    with pytest.raises(LedgerTampered, match="does not match the chain head"):
        Ledger(used)


def test_a_complete_line_without_a_hash_is_tampering(tmp_path: Path) -> None:
    """ledger_store.py _accept: `if not isinstance(record, dict) or "hash" not in record:` -> `if False:`
    (the line then fails with a KeyError/TypeError instead of LedgerTampered naming it)."""
    path = tmp_path / "ledger.jsonl"
    _ledger_with_one_release(path)
    lines = len(path.read_text().splitlines())
    for line in (b'{"seq":99}\n', b"[1]\n"):
        broken = tmp_path / f"copy{len(line)}" / "ledger.jsonl"
        broken.parent.mkdir()
        shutil.copyfile(path, broken)
        with broken.open("ab") as f:
            f.write(line)
        with pytest.raises(LedgerTampered, match=rf"line {lines + 1}: not a ledger record"):
            Ledger(broken)


def test_creating_the_ledger_fsyncs_its_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ledger_store.py: `_fsync_directory(self.path.parent)` after the first append (mutants: `if created:`
    -> `if False:`; `os.fsync(fd)` in _fsync_directory -> `pass`). Without it a crash can lose the new file's
    name, and with it the first charge."""
    synced_dirs: list[str] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        if stat.S_ISDIR(os.fstat(fd).st_mode):
            synced_dirs.append("dir")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", spy)
    path = tmp_path / "home" / "ledger.jsonl"
    Ledger(path).open_dataset(Path("people.csv"), "d" * 64)
    assert synced_dirs


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def test_a_rehashed_edit_of_an_earlier_line_breaks_the_next_prev_link(tmp_path: Path) -> None:
    """ledger_store.py _accept: `if record.get("prev") != self._last_hash:` -> `if False:` (or its raise ->
    `pass`). An edit that recomputes only the edited line's own hash is caught by the next line's prev link
    alone; without it the reservation below is read as 0.05 instead of 1.0."""
    import json

    from dpgui.privacy.ledger_store import canonical_json, record_hash

    path = tmp_path / "ledger.jsonl"
    _ledger_with_one_release(path)
    lines = _lines(path)
    index = next(i for i, line in enumerate(lines) if '"type":"reserved"' in line)
    assert index < len(lines) - 1
    record = json.loads(lines[index])
    del record["hash"]
    record["epsilon"] = 0.05
    record["hash"] = record_hash(record)
    lines[index] = canonical_json(record).decode("ascii") + "\n"
    path.write_text("".join(lines))
    with pytest.raises(LedgerTampered, match=rf"line {index + 2}: its prev link"):
        Ledger(path)


def test_a_truncated_ledger_with_a_garbled_head_is_refused(tmp_path: Path) -> None:
    """ledger_store.py _read_head: `raise LedgerTampered(... not a chain head ...)` -> `pass` (the head check
    is then skipped, so cutting the commit lines off and garbling the head would go unnoticed)."""
    path = tmp_path / "ledger.jsonl"
    _ledger_with_one_release(path)
    path.write_text("".join(_lines(path)[:2]))
    path.with_suffix(".head").write_text("garbage\n")
    with pytest.raises(LedgerTampered):
        Ledger(path)


def test_a_ledger_that_shrinks_while_open_is_refused(tmp_path: Path) -> None:
    """ledger_store.py _read_new: `if size < self._verified_bytes:` -> `if False:`."""
    path = tmp_path / "ledger.jsonl"
    _ledger_with_one_release(path)
    ledger = Ledger(path)
    dataset = ledger.datasets()[0].id
    path.write_text("".join(_lines(path)[:2]))
    with pytest.raises(LedgerTampered, match="shrank"):
        ledger.state(dataset)


def test_a_ledger_deleted_while_open_is_refused(tmp_path: Path) -> None:
    """ledger_store.py _read_new: `if self._verified_bytes:` -> `if False:` (deleted while open)."""
    path = tmp_path / "ledger.jsonl"
    _ledger_with_one_release(path)
    ledger = Ledger(path)
    dataset = ledger.datasets()[0].id
    path.unlink()
    with pytest.raises(LedgerTampered, match="deleted"):
        ledger.state(dataset)


def test_each_ledger_line_is_fsynced_in_the_ledger_file_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ledger_store.py append: `os.fsync(f.fileno())` -> `pass` (or `f.flush()` -> `pass`). The head file's
    fsync comes later in the same transaction, so a spy that only reads the ledger's bytes misses it."""
    path = tmp_path / "ledger.jsonl"
    ledger = Ledger(path)
    record = ledger.open_dataset(Path("people.csv"), "d" * 64)
    ledger.set_total(record.id, PrivacyCost(1.0))
    reservation = ledger.reserve(record.id, PrivacyCost(0.5), "CDF")
    inode = path.stat().st_ino
    synced: list[bytes] = []
    real_fsync = os.fsync

    def spy(fd: int) -> None:
        real_fsync(fd)
        if os.fstat(fd).st_ino == inode:
            synced.append(path.read_bytes())

    monkeypatch.setattr(os, "fsync", spy)
    ledger.mark_touched(reservation)
    assert any(b'"type":"touched"' in content for content in synced)
