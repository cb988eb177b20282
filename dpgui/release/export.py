"""Writing a release to a folder: release.csv (and release.parquet for tables of several rows), any
attachments, report.html and manifest.json fingerprinting them, each written atomically."""

from __future__ import annotations

import csv
import hashlib
import io
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from dpgui.json_text import json_text
from dpgui.release.manifest import PlanPosition, build_manifest
from dpgui.release.release import Release
from dpgui.release.report import REPORT_HTML, build_report
from dpgui.release.utf8 import escaped, utf8
from dpgui.tasks.outputs import ReleaseTable

RELEASE_CSV = "release.csv"
RELEASE_PARQUET = "release.parquet"
MANIFEST_JSON = "manifest.json"


@dataclass(frozen=True)
class ExportedFiles:
    folder: Path
    files: tuple[Path, ...]


def table_csv(table: ReleaseTable) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    if table.meaning:  # read it back with pandas.read_csv(..., comment="#")
        buffer.write(f"# {table.meaning}\n")
    writer.writerow(table.columns)
    writer.writerows(table.rows)
    return utf8(buffer.getvalue())


def table_parquet(table: ReleaseTable) -> bytes:
    """The released table as Parquet (pyarrow), for tables of more than one row."""
    import pandas as pd  # here, not at the top: the CLI's --help imports this module's names

    buffer = io.BytesIO()
    rows = [[escaped(cell) if isinstance(cell, str) else cell for cell in row] for row in table.rows]
    frame = pd.DataFrame(rows, columns=[escaped(str(column)) for column in table.columns])
    frame.to_parquet(buffer, index=False, engine="pyarrow")
    return buffer.getvalue()


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


def export_release(
    release: Release,
    folder: Path,
    plots: Mapping[str, bytes] | None = None,
    plan: PlanPosition | None = None,
) -> ExportedFiles:
    """Write the released values, any attachments, the report (with ``plots``: caption -> PNG bytes) and
    the manifest fingerprinting them into ``folder`` (the manifest last, so a crash leaves no manifest
    vouching for missing files); ``plan``: where the release sits in a release plan, if it is part of one."""
    contents = {RELEASE_CSV: table_csv(release.table)}
    if len(release.table.rows) > 1:
        contents[RELEASE_PARQUET] = table_parquet(release.table)
    contents.update((a.file_name, a.content) for a in release.table.attachments)
    contents[REPORT_HTML] = build_report(release, plots, plan)
    fingerprints = {name: hashlib.sha256(content).hexdigest() for name, content in contents.items()}
    manifest = build_manifest(release, fingerprints, plan)  # checked before any file is written
    contents[MANIFEST_JSON] = utf8(json_text(manifest, indent=2, ensure_ascii=False) + "\n")
    for name, content in contents.items():
        write_atomic(folder / name, content)
    return ExportedFiles(folder, tuple(folder / name for name in contents))
