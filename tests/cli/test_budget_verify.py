"""`budget verify` checks exported releases against the ledger: a rollback of the ledger and its head file
together is shown by the releases exported since.

An audit copied an older ledger.jsonl back together with its ledger.head: the chain and the head agreed,
`budget show` exited 0, and the spent budget fell from ε = 2 to 1.5. Every manifest records the head its
commit followed (``ledger_head``), but nothing read it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dpgui.cli.main import main


def _release(data: Path, out: Path) -> None:
    assert main(["release", "median", "--data", str(data), "--column", "wage", "--bounds", "0", "20000",
                 "--epsilon", "0.5", "--out", str(out)]) == 0  # fmt: skip


def test_a_ledger_copied_back_with_its_head_is_named_by_the_releases_exported_since(
    wages_csv: Path, tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    _release(wages_csv, tmp_path / "first")
    backup = tmp_path / "backup"
    backup.mkdir()
    for name in ("ledger.jsonl", "ledger.head"):
        shutil.copy2(isolated_home / name, backup / name)
    _release(wages_csv, tmp_path / "second")
    capsys.readouterr()
    assert main(["budget", "verify", str(tmp_path / "first"), str(tmp_path / "second")]) == 0
    assert capsys.readouterr().out.count("ok: ") == 2
    for name in ("ledger.jsonl", "ledger.head"):  # the rollback: both files, so chain and head agree
        shutil.copy2(backup / name, isolated_home / name)
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0  # unseen by the ledger alone
    capsys.readouterr()
    second = tmp_path / "second" / "manifest.json"  # a manifest named itself, the first by its folder
    assert main(["budget", "verify", str(tmp_path / "first"), str(second)]) == 3
    out = capsys.readouterr().out
    assert f"ok: {tmp_path / 'first' / 'manifest.json'}" in out
    assert "PROBLEM: " in out and "cut back or replaced by an older copy" in out


def test_a_file_that_is_not_a_manifest_is_named_not_passed(tmp_path: Path, capsys) -> None:
    other = tmp_path / "notes.json"
    other.write_text("{}")
    assert main(["budget", "verify", str(other)]) == 3
    assert "not a release manifest dpgui can check" in capsys.readouterr().out


def test_a_release_whose_commit_the_ledger_lacks_is_named(wages_csv: Path, tmp_path: Path) -> None:
    """A ledger whose line the release saw is there, but not the release's commit (cut after it, or a
    manifest of another ledger's release): its charge is missing."""
    from dpgui.privacy.ledger import Ledger

    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    _release(wages_csv, tmp_path / "first")
    ledger = Ledger()
    assert ledger.release_problem(ledger.head(), "no-such-release") == (
        "the ledger holds no commit of this release: its charge is missing"
    )
