"""Fingerprints of data files: the raw SHA-256 stays local, exports carry a keyed fingerprint.

The raw SHA-256 of the private file is a function of every record with no noise (epsilon infinite):
whoever knows all rows but one could test guesses about the last one against it offline. It is therefore
kept only where the custodian alone reads it (the ledger and the Data page). What leaves the machine is
:func:`keyed_fingerprint`, an HMAC-SHA-256 of that hash under a secret key generated once per
installation and stored in the user data folder (mode 0600): the custodian's own installation can match
a release to its file (``dpgui fingerprint FILE``), nobody without the key can test a guess.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
from pathlib import Path

from dpgui.data.errors import DataError, refuse_non_file
from dpgui.paths import OWNER_ONLY_FILE, dpgui_home
from dpgui.privacy.random import secret_bytes

CHUNK_BYTES = 1 << 20
KEY_FILE_NAME = "fingerprint.key"
KEY_BYTES = 32
METHOD = (
    "HMAC-SHA-256 of the file's SHA-256 under a secret key of the installation that made the release; "
    "only that installation can match it to a file ('dpgui fingerprint FILE')"
)


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of the file's bytes, read in 1 MiB chunks (constant memory for any file size)."""
    refuse_non_file(Path(path))  # a named pipe would block here until something writes to it
    digest = hashlib.sha256()
    with Path(path).open("rb") as handle:
        while chunk := handle.read(CHUNK_BYTES):
            digest.update(chunk)
    return digest.hexdigest()


def sha256_source(path: Path) -> str:
    """The SHA-256 a release states for its input: the file's (:func:`sha256_file`), or for a folder of
    Parquet parts the digest of the parts' relative names and digests. ``dpgui budget`` and every engine
    use this one function, so a folder's budget is the one its releases are charged to."""
    path = Path(path)
    if not path.is_dir():
        return sha256_file(path)
    parts = folder_parts(path)
    if not any(_is_parquet(part) for part in parts):  # a budget for it would guard nothing
        raise DataError(
            f"{path.name}: is a folder without Parquet parts; name a data file, or a folder of .parquet files"
        )
    digest = hashlib.sha256()
    for part in parts:
        digest.update(f"{part.relative_to(path)}\0{sha256_file(part)}\n".encode())
    return digest.hexdigest()


def _is_parquet(part: Path) -> bool:
    """A Parquet part by its suffix or its magic bytes (Hive writes parts named 000000_0)."""
    if part.suffix.lower() == ".parquet":
        return True
    try:
        with part.open("rb") as handle:
            return handle.read(4) == b"PAR1"
    except OSError:
        return False


def folder_parts(folder: Path) -> list[Path]:
    """The files of a folder of Parquet parts, at any depth, in a fixed order."""
    return sorted(part for part in folder.rglob("*") if part.is_file())


def installation_key(home: Path | None = None) -> bytes:
    """The installation's secret fingerprint key, created on first use (readable by the owner only)."""
    path = (home or dpgui_home()) / KEY_FILE_NAME
    if not path.exists():
        _create_key(path)
    try:
        key = bytes.fromhex(path.read_text(encoding="ascii").strip())
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != KEY_BYTES:
        raise OSError(f"{path} is not a dpgui fingerprint key; move it away and a new one is made")
    return key


def _create_key(path: Path) -> None:
    """Write a fresh key to a private temporary file, then link it into place (first writer wins)."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.{secret_bytes(4).hex()}")
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY_FILE)
    try:
        with os.fdopen(descriptor, "w", encoding="ascii") as handle:
            handle.write(secret_bytes(KEY_BYTES).hex())
            handle.flush()
            os.fsync(handle.fileno())
        with contextlib.suppress(FileExistsError):  # another process made the key first: use theirs
            os.link(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def keyed_fingerprint(sha256_hex: str, key: bytes | None = None) -> str:
    """HMAC-SHA-256 (hex) of a file's SHA-256 under the installation key."""
    return hmac.new(key or installation_key(), bytes.fromhex(sha256_hex), hashlib.sha256).hexdigest()
