"""sha256_file streams the file; the keyed fingerprint exports carry needs the installation's private key."""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from pathlib import Path

from dpgui.cli import main
from dpgui.data import sha256_file
from dpgui.data.fingerprint import CHUNK_BYTES, KEY_FILE_NAME, installation_key, keyed_fingerprint


def test_fingerprint_equals_hashlib_on_whole_file_spanning_several_chunks(tmp_path: Path) -> None:
    content = bytes(range(256)) * (CHUNK_BYTES // 256 * 2 + 7)
    path = tmp_path / "data.bin"
    path.write_bytes(content)
    assert sha256_file(path) == hashlib.sha256(content).hexdigest()


def test_fingerprint_of_empty_file_is_sha256_of_nothing(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_bytes(b"")
    assert sha256_file(path) == hashlib.sha256(b"").hexdigest()


def test_the_installation_key_is_private_stable_and_local_to_the_installation(tmp_path, isolated_home):
    key = installation_key()
    assert len(key) == 32 and installation_key() == key
    key_file = isolated_home / KEY_FILE_NAME
    if os.name == "posix":
        assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    other_home = tmp_path / "other-installation"
    other_home.mkdir()
    assert installation_key(other_home) != key


def test_the_keyed_fingerprint_matches_the_file_only_under_the_key(tmp_path):
    path = tmp_path / "private.csv"
    path.write_text("wage\n1\n")
    raw = sha256_file(path)
    fingerprint = keyed_fingerprint(raw)
    assert fingerprint != raw and len(fingerprint) == 64
    assert fingerprint == hmac.new(installation_key(), bytes.fromhex(raw), hashlib.sha256).hexdigest()
    path.write_text("wage\n2\n")
    assert keyed_fingerprint(sha256_file(path)) != fingerprint  # one record changed: no match
    assert keyed_fingerprint(raw, key=b"\0" * 32) != fingerprint  # another key: no match


def test_dpgui_fingerprint_prints_what_the_manifest_states(tmp_path, capsys):
    path = tmp_path / "private.csv"
    path.write_text("wage\n1\n")
    assert main(["fingerprint", str(path)]) == 0
    assert capsys.readouterr().out.split() == [keyed_fingerprint(sha256_file(path)), "private.csv"]


def test_an_unreadable_key_refuses_the_release_before_the_charge(wages_csv, tmp_path, isolated_home, capsys):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    (isolated_home / KEY_FILE_NAME).write_text("not a key")
    argv = ["release", "median", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "5000"]
    assert main([*argv, "--epsilon", "1", "--out", str(tmp_path / "out")]) == 2
    assert "fingerprint key" in capsys.readouterr().err
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    assert "spent ε=0;" in capsys.readouterr().out


def test_a_folder_without_parquet_parts_gets_no_fingerprint_and_no_budget(tmp_path, capsys):
    """CLI fuzz (session 36): any folder was fingerprinted and given a budget that guarded nothing."""
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "readme.txt").write_text("not a table")
    for command in (["fingerprint", str(folder)], ["budget", "set", "--data", str(folder), "--epsilon", "1"]):
        assert main(command) == 2
        assert "folder without Parquet parts" in capsys.readouterr().err
    (folder / "000000_0").write_bytes(b"PAR1")  # a Hive part: Parquet by its magic bytes, not its name
    assert main(["fingerprint", str(folder)]) == 0
    (folder / "000000_0").unlink()
    (folder / "part-0.parquet").write_bytes(b"PAR1")  # a part is named: the folder is a dataset's
    assert main(["fingerprint", str(folder)]) == 0
