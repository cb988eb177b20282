"""A copy of every release the app commits, kept in dpgui's own folder until it is exported.

The app commits a release when its run ends, before the custodian chooses where to export it. Without a
copy, a crash, or closing the window before Export, lost a result whose cost stays spent. :func:`keep` is
the ``stage`` callback of ``dpgui.tasks.runner.finish``: the release's files, as an export writes them
(without the plot images), go into ``<DPGUI_HOME>/releases/<release id>`` before the commit, whose line
names the folder (``dpgui budget show`` points at it while it holds files). An export from the app removes
the copy (:func:`forget`). Like any export, the files hold DP outputs and public facts only.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from dpgui.paths import OWNER_ONLY_FOLDER, dpgui_home, restrict_to_owner
from dpgui.release.export import export_release
from dpgui.release.release import Release
from dpgui.release.staging import kept_description

RELEASES_FOLDER = "releases"


def kept_root() -> Path:
    """The folder holding every kept release, one subfolder each."""
    return dpgui_home() / RELEASES_FOLDER


def kept_folder(release_id: str) -> Path:
    """Where the app keeps the release ``release_id`` until it is exported."""
    return kept_root() / release_id


def keep(release: Release) -> str:
    """Write ``release``'s files into its kept folder; the ledger's commit line says where.

    The copy is a safeguard: when it cannot be written (a full disk, or any error of a writer), the
    release is still committed and shown, and the commit line says no copy was kept."""
    folder = kept_folder(release.release_id)
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=OWNER_ONLY_FOLDER)
        restrict_to_owner(folder.parent, OWNER_ONLY_FOLDER)
        export_release(release, folder)
    except Exception as error:  # a failed safeguard must not cost the release it guards
        forget(release.release_id)
        return f"shown in the app; no copy kept ({error})"
    return kept_description(folder)


def forget(release_id: str) -> None:
    """Remove the kept copy of an exported release (nothing when there is none)."""
    shutil.rmtree(kept_folder(release_id), ignore_errors=True)
