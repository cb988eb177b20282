"""sha256_file streams the file and agrees with hashlib on the whole content."""

from __future__ import annotations

import hashlib
from pathlib import Path

from dpgui.data import sha256_file
from dpgui.data.fingerprint import CHUNK_BYTES


def test_fingerprint_equals_hashlib_on_whole_file_spanning_several_chunks(tmp_path: Path) -> None:
    content = bytes(range(256)) * (CHUNK_BYTES // 256 * 2 + 7)
    path = tmp_path / "data.bin"
    path.write_bytes(content)
    assert sha256_file(path) == hashlib.sha256(content).hexdigest()


def test_fingerprint_of_empty_file_is_sha256_of_nothing(tmp_path: Path) -> None:
    path = tmp_path / "empty.csv"
    path.write_bytes(b"")
    assert sha256_file(path) == hashlib.sha256(b"").hexdigest()
