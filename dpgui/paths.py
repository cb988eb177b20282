"""Where dpgui keeps its state (ledger, audit log) and where its bundled resources live."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

HOME_ENV = "DPGUI_HOME"


def dpgui_home() -> Path:
    """The folder for the ledger and other persistent state.

    ``$DPGUI_HOME`` overrides the platform's user data directory (tests set it). Readable by the owner only
    (0700, an existing folder tightened too): the ledger names the private files and their budgets.
    """
    override = os.environ.get(HOME_ENV)
    if override:
        home = Path(override)
    else:
        from platformdirs import user_data_dir  # imported only when needed, so commands start fast

        home = Path(user_data_dir("dpgui", appauthor=False))
    try:
        home.mkdir(parents=True, exist_ok=True, mode=OWNER_ONLY_FOLDER)
    except (FileExistsError, NotADirectoryError):  # an audit's "File exists" named neither the variable
        raise NotADirectoryError(
            f"dpgui's folder {home} is a file, not a folder"
            + (f" (set by {HOME_ENV}); point {HOME_ENV} at a folder" if override else "; move the file away")
        ) from None
    restrict_to_owner(home, OWNER_ONLY_FOLDER)
    return home


OWNER_ONLY_FOLDER = 0o700
OWNER_ONLY_FILE = 0o600


def restrict_to_owner(path: Path, mode: int) -> None:
    """Drop group and other permissions from an existing file or folder of dpgui's state (POSIX; a folder
    that cannot be changed, e.g. read-only or someone else's, is left as it is)."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError):
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            path.chmod(mode)


def resources_dir() -> Path:
    """The bundled resources: inside the installed package, or the repository's ``resources/``."""
    installed = Path(__file__).with_name("resources")
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parent.parent / "resources"


def demo_private_path() -> Path:
    return resources_dir() / "cps1988.csv"


def demo_public_path() -> Path:
    return resources_dir() / "cps1985.csv"
