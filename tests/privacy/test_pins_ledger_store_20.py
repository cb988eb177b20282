"""Pins from the privacy20 mutation scan of dpgui/privacy/ledger_store.py.

The ledger's folder is the owner's only (0o700), like dpgui's home (tests/privacy/test_ledger_head.py). That
test creates the folder through dpgui_home() first, so the mode LedgerFile itself gives a folder it creates
(for a ledger at another path) was never checked: 0o701 for 0o700 survived.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, LedgerTampered


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_folder_the_ledger_creates_is_the_owners_only(tmp_path: Path) -> None:
    """Guards LedgerFile.__init__ (ledger_store.py:219): mkdir(..., mode=0o700) for a new ledger folder."""
    old = os.umask(0o022)
    try:
        Ledger(tmp_path / "fresh" / "ledger.jsonl")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "fresh").stat().st_mode) == 0o700


def test_a_ledger_cut_short_by_one_byte_while_open_is_refused(tmp_path: Path) -> None:
    """Guards _read_new's size (ledger_store.py:320): the file's size is its end, seek(0, SEEK_END). Reading
    it as one byte more let a ledger cut by exactly one byte (its last newline) pass the shrink check; the
    earlier pin (test_pins_ledger_store) cuts whole lines."""
    path = tmp_path / "ledger.jsonl"
    ledger = Ledger(path)
    record = ledger.open_dataset(Path("people.csv"), "d" * 64)
    ledger.set_total(record.id, PrivacyCost(1.0))
    ledger.commit(ledger.reserve(record.id, PrivacyCost(0.5), "half the budget"), "release-1")
    data = path.read_bytes()
    assert data.endswith(b"\n")
    path.write_bytes(data[:-1])
    with pytest.raises(LedgerTampered, match="shrank"):
        ledger.state(record.id)
