"""The output folder of a release: checked before the charge, filled through a staging folder after it.

The sequence (``dpgui.cli.release_cmd`` and the app follow it):

1. :func:`prepare_out` before anything is reserved: ``--out`` is created if missing and must be a folder
   dpgui can write; one holding an earlier release is refused unless ``overwrite``; a staging folder
   ``.<out>.staging-<id>`` is made beside it (inside it when its parent is read-only), a probe is written
   through the exporter's own writer, and the free space is compared with the predicted size of the
   exports. Any failure here: exit 2, nothing charged.
2. After the run, every output is written into the staging folder (``export_release``).
3. The ledger commits the release (the commit line names the staging folder and the target).
4. :func:`publish` removes the earlier release's files (with ``overwrite``; its manifest first) and moves
   the new files into ``--out``, the manifest last. If this fails, the message names the staging folder
   that holds the files.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from dpgui.data.errors import DataError
from dpgui.paths import OWNER_ONLY_FILE, dpgui_home
from dpgui.release import export
from dpgui.release.export import MANIFEST_JSON, RELEASE_CSV, RELEASE_PARQUET, ExportedFiles, export_release
from dpgui.release.release import Release
from dpgui.release.report import REPORT_HTML

RELEASE_FILES = (RELEASE_CSV, RELEASE_PARQUET, REPORT_HTML, MANIFEST_JSON)
"""The files every release may write (attachments are named in its manifest's outputs)."""
_PROBE = ".dpgui-probe"
PLAN_CLAIM = ".dpgui-plan-in-progress"
"""The marker a plan holds in its ``--out`` while it runs (:func:`claimed_plan_folder`)."""
_SPARE_BYTES = 1 << 20


class OutFolderError(DataError):
    """``--out`` cannot take this release (exit 2, before anything is charged)."""


class EarlierRelease(OutFolderError):
    """``--out`` holds an earlier release and replacing it was not asked for."""


class PublishFailed(OSError):
    """The release is committed but its files could not be moved into ``--out``; they are in ``staging``."""

    def __init__(self, message: str, staging: Path) -> None:
        super().__init__(message)
        self.staging = staging


@dataclass(frozen=True)
class OutFolder:
    """A checked ``--out``: the target, its staging folder and the earlier release's files to replace."""

    target: Path
    staging: Path
    earlier: tuple[Path, ...] = ()
    created: bool = False
    """Whether the pre-flight created ``target`` (a run that does not happen removes it again)."""

    def describe(self) -> str:
        """Where the files are at commit time, for the ledger's commit line (read by :func:`files_left`)."""
        return f"{_STAGED_IN}{self.staging}{_MOVED_TO}{self.target}"


_STAGED_IN, _MOVED_TO, _KEPT_IN = "staged in ", ", moved to ", "kept in "


def kept_description(folder: Path) -> str:
    """The commit line's ``files`` for a release the app keeps in ``folder`` until it is exported."""
    return f"{_KEPT_IN}{folder}"


@dataclass(frozen=True)
class FilesLeft:
    """Where a committed release's files still are, as its commit line says and the disk confirms."""

    folder: Path
    target: Path | None
    """The ``--out`` a staging folder was meant for; None for the app's copy of a release not exported."""

    @property
    def kept_by_app(self) -> bool:
        return self.target is None


def files_left(files: str | None) -> FilesLeft | None:
    """The folder a commit line's ``files`` names when it still holds the release's files: a staging folder
    a crash or a failed move left, or the app's copy of a release not exported yet; else None."""
    if files is None:
        return None
    if files.startswith(_KEPT_IN):
        left = FilesLeft(Path(files[len(_KEPT_IN) :]), None)
    elif files.startswith(_STAGED_IN) and _MOVED_TO in files:
        staging, moved_to = files[len(_STAGED_IN) :].rsplit(_MOVED_TO, 1)
        left = FilesLeft(Path(staging), Path(moved_to))
    else:
        return None
    try:
        return left if left.folder.is_dir() and any(left.folder.iterdir()) else None
    except OSError:
        return None


def _move(source: Path, destination: Path) -> None:
    os.replace(source, destination)


def _reason(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__


def earlier_release(folder: Path) -> tuple[Path, ...]:
    """The files of a release already in ``folder`` (the known names and its manifest's outputs)."""
    names = set(RELEASE_FILES)
    manifest = folder / MANIFEST_JSON
    if manifest.is_file():
        try:
            outputs = json.loads(manifest.read_text(encoding="utf-8")).get("outputs", [])
            names.update(str(o["file"]) for o in outputs if isinstance(o, dict) and "file" in o)
        except (OSError, ValueError, AttributeError):
            pass
    return tuple(sorted(folder / name for name in names if (folder / name).is_file() and "/" not in name))


def refuse_near_private_files(out: Path, private: Path | None) -> None:
    """Raise OutFolderError when the release folder ``out`` holds the private data (a release folder is
    handed out) or lies inside it (a folder of Parquet parts would read the release's files as data), or
    when it holds dpgui's own folder or lies inside it: its ledger names the private file and its raw
    SHA-256, and its key turns an export's fingerprint back into a test of guesses (an audit released
    into DPGUI_HOME itself, beside ``fingerprint.key`` and ``ledger.jsonl``)."""
    folder, home = Path(out).absolute().resolve(), dpgui_home().absolute().resolve()
    if folder.is_relative_to(home) or home.is_relative_to(folder):
        raise OutFolderError(
            f"--out {out} {'is inside' if folder.is_relative_to(home) else 'holds'} dpgui's own folder "
            f"{home} (its ledger and installation key, which no release may hand out); name a folder "
            "outside it"
        )
    if private is None or not private.exists():
        return
    data = private.resolve()
    if data.is_relative_to(folder):
        raise OutFolderError(
            f"--out {out} holds the private data {private.name}; a release folder is handed out, so name a "
            "folder that does not hold the data"
        )
    if data.is_dir() and folder.is_relative_to(data):
        raise OutFolderError(
            f"--out {out} is inside the private data folder {private.name}, whose files are all read as "
            "the data; name a folder outside it"
        )


def prepare_out(
    out: Path, *, overwrite: bool = False, needed_bytes: int = 0, private: Path | None = None
) -> OutFolder:
    """Check ``out`` and make its staging folder (see the module docstring); raises OutFolderError.

    ``private`` (the private data's file or folder) must not lie inside ``out``: a release folder is what
    the custodian hands out, and ``--overwrite`` would remove a data file named like a release's."""
    out = Path(out).absolute()
    if out.exists() and not out.is_dir():
        raise OutFolderError(f"--out {out} is an existing file, not a folder; name a folder for the release")
    refuse_near_private_files(out, private)
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutFolderError(f"--out {out}: the folder cannot be created ({_reason(error)})") from error
    earlier = earlier_release(out)
    if earlier and not overwrite:
        names = ", ".join(path.name for path in earlier)
        raise EarlierRelease(
            f"--out {out} holds an earlier release ({names}); choose a new folder, or pass --overwrite to "
            "replace it (its files are removed once the new release is committed)"
        )
    checked = OutFolder(out, _make_staging(out), earlier, created)
    staging = checked.staging
    try:
        for folder in (staging, out):
            export.write_atomic(folder / _PROBE, b"dpgui")
            (folder / _PROBE).unlink()
        free = shutil.disk_usage(staging).free
    except OSError as error:
        discard(checked)
        raise OutFolderError(f"--out {out}: cannot write there ({_reason(error)})") from error
    if free < needed_bytes + _SPARE_BYTES:
        discard(checked)
        raise OutFolderError(
            f"--out {out}: {free / 2**20:.0f} MiB free, the release needs about "
            f"{(needed_bytes + _SPARE_BYTES) / 2**20:.0f} MiB; free some space or choose another disk"
        )
    return checked


def _make_staging(out: Path) -> Path:
    """``.<out>.staging-<id>`` beside ``out``, or ``.staging-<id>`` inside it when its parent cannot be
    written (same file system either way, so the final moves are renames)."""
    suffix = uuid.uuid4().hex[:12]
    beside = out.parent / f".{out.name}.staging-{suffix}"
    try:
        beside.mkdir()
        return beside
    except PermissionError:
        inside = out / f".staging-{suffix}"
        try:
            inside.mkdir()
        except OSError as error:
            raise OutFolderError(f"--out {out}: cannot write there ({_reason(error)})") from error
        return inside
    except OSError as error:
        raise OutFolderError(f"--out {out}: cannot write there ({_reason(error)})") from error


def discard(out: OutFolder) -> None:
    """Remove the staging folder of a run that ended without a release (and ``--out`` if it was made for
    this run and is still empty)."""
    shutil.rmtree(out.staging, ignore_errors=True)
    if out.created:
        with contextlib.suppress(OSError):
            out.target.rmdir()


def publish(out: OutFolder, staged: ExportedFiles) -> ExportedFiles:
    """Move the staged files into ``out.target`` (the manifest last) after removing the earlier release
    (its manifest first: stopped part-way, no manifest is left beside only some of the files it lists).

    Raises :class:`PublishFailed` naming the staging folder when a file cannot be moved, or when another
    release was published into ``out.target`` since the pre-flight (two runs given the same ``--out``).
    """
    appeared = sorted(set(earlier_release(out.target)) - set(out.earlier))
    if appeared:
        raise PublishFailed(
            f"the release is committed, but {out.target} received another release meanwhile "
            f"({', '.join(path.name for path in appeared)}), which is kept; this release's files are in "
            f"{out.staging}",
            out.staging,
        )
    try:
        for stale in sorted(out.earlier, key=lambda path: path.name != MANIFEST_JSON):
            stale.unlink(missing_ok=True)
        moved = []
        for path in staged.files:
            destination = out.target / path.name
            _move(path, destination)
            moved.append(destination)
        out.staging.rmdir()
    except OSError as error:
        raise PublishFailed(
            f"the release is committed, but its files could not be moved into {out.target} "
            f"({_reason(error)}); they are in {out.staging}",
            out.staging,
        ) from error
    return ExportedFiles(out.target, tuple(moved))


def export_staged(
    release: Release,
    folder: Path,
    plots: Mapping[str, bytes] | None = None,
    *,
    overwrite: bool = False,
    private: Path | None = None,
) -> ExportedFiles:
    """Export an already committed release (the app's Export): check ``folder`` (:func:`prepare_out`), write
    every file into a staging folder beside it, then move them in, so a failed export leaves no
    half-written release."""
    out = prepare_out(folder, overwrite=overwrite, private=private)
    try:
        staged = export_release(release, out.staging, plots)
    except BaseException:
        discard(out)
        raise
    return publish(out, staged)


@contextlib.contextmanager
def claimed_plan_folder(out: Path) -> Iterator[None]:
    """Hold ``out`` for one plan from before its charge to its last file: a marker created exclusively in
    it, so a second plan given the same new ``--out`` at once is refused before its charge instead of
    mixing its files with this one's. ``out`` must be empty but for the marker. The marker goes when the
    plan ends (and ``out`` too if this made it and it is still empty); after a crash it stays, and the
    folder, not empty, is refused: the custodian names another."""
    out = Path(out)
    created = not out.exists()
    marker = out / PLAN_CLAIM
    try:
        out.mkdir(parents=True, exist_ok=True)
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT | os.O_EXCL, OWNER_ONLY_FILE))
    except FileExistsError:
        raise OutFolderError(f"--out {out}: another plan is writing into it; name another folder") from None
    except OSError as error:
        raise OutFolderError(f"--out {out}: cannot write there ({_reason(error)})") from error
    try:
        if any(path != marker for path in out.iterdir()):
            raise OutFolderError(f"--out {out} got other files meanwhile; name a new folder for the plan")
        yield
    finally:
        marker.unlink(missing_ok=True)
        if created:
            with contextlib.suppress(OSError):
                out.rmdir()  # only if still empty: a plan that wrote nothing leaves nothing
