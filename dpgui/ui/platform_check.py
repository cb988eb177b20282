"""Before the first window: name the system libraries Qt's xcb platform plugin needs when they are missing.

On a bare Debian or Ubuntu, PySide6's xcb plugin cannot load without libxcb-cursor0, libxcb-icccm4 and
libxcb-keysyms1, and Qt then aborts with a generic "could not load the Qt platform plugin" message. The
app checks first and says which packages to install.
"""

from __future__ import annotations

import ctypes.util
import os
import sys

XCB_LIBRARIES = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
}


def uses_xcb(environment: dict[str, str] | None = None, platform: str = sys.platform) -> bool:
    """Whether Qt will pick its xcb plugin: Linux, no other platform forced, an X display and no Wayland."""
    env = os.environ if environment is None else environment
    forced = env.get("QT_QPA_PLATFORM", "")
    if not platform.startswith("linux") or forced not in ("", "xcb"):
        return False
    return forced == "xcb" or ("DISPLAY" in env and "WAYLAND_DISPLAY" not in env)


def missing_xcb_packages(find_library=ctypes.util.find_library) -> list[str]:
    """The Debian packages whose libraries the xcb plugin needs and the system lacks."""
    return [package for library, package in XCB_LIBRARIES.items() if find_library(library) is None]


def no_display(environment: dict[str, str] | None = None, platform: str = sys.platform) -> bool:
    """Whether Qt has no screen to open a window on: Linux, no platform forced, no X or Wayland display
    (a CLI fuzz without DISPLAY: Qt aborted, exit 134 and a core dump)."""
    env = os.environ if environment is None else environment
    return (
        platform.startswith("linux")
        and not env.get("QT_QPA_PLATFORM")
        and not env.get("DISPLAY")
        and not env.get("WAYLAND_DISPLAY")
    )


def xcb_problem(
    environment: dict[str, str] | None = None, find_library=ctypes.util.find_library
) -> str | None:
    """A message naming the packages to install (or saying there is no display), or None when the xcb
    plugin can load (or is not used)."""
    if no_display(environment):
        return (
            "dpgui cannot open a window: no display (DISPLAY and WAYLAND_DISPLAY are unset). Run it in a "
            "desktop session, or use the command line (dpgui --help)"
        )
    if not uses_xcb(environment):
        return None
    missing = missing_xcb_packages(find_library)
    if not missing:
        return None
    return (
        "dpgui cannot open a window: Qt's xcb platform plugin needs system libraries that are missing. "
        f"Install them with:  sudo apt-get install {' '.join(missing)}"
    )
