"""Writing a release to a folder: release.csv and manifest.json, each written atomically."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from dpgui.release.manifest import build_manifest
from dpgui.release.release import Release
from dpgui.tasks.outputs import ReleaseTable

RELEASE_CSV = "release.csv"
MANIFEST_JSON = "manifest.json"


@dataclass(frozen=True)
class ExportedFiles:
    folder: Path
    files: tuple[Path, ...]


def table_csv(table: ReleaseTable) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows(table.rows)
    return buffer.getvalue().encode("utf-8")


def write_atomic(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path``, fsync it, then rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def export_release(release: Release, folder: Path) -> ExportedFiles:
    """Write the released values, any attachments and the manifest fingerprinting them into ``folder``."""
    contents = {RELEASE_CSV: table_csv(release.table)}
    contents.update((a.file_name, a.content) for a in release.table.attachments)
    written = []
    for name, content in contents.items():
        write_atomic(folder / name, content)
        written.append(folder / name)
    fingerprints = {name: hashlib.sha256(content).hexdigest() for name, content in contents.items()}
    manifest = build_manifest(release, fingerprints)
    manifest_path = folder / MANIFEST_JSON
    write_atomic(manifest_path, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return ExportedFiles(folder, (*written, manifest_path))
