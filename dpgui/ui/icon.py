"""The application icon, drawn from ``resources/icon.svg``."""

from __future__ import annotations

from PySide6.QtGui import QIcon

from dpgui.paths import resources_dir

ICON_PATH = resources_dir() / "icon.svg"


def app_icon() -> QIcon:
    """The app icon; an empty icon (Qt's default) when the SVG or the SVG image plugin is missing."""
    icon = QIcon(str(ICON_PATH))
    return icon if not icon.pixmap(64, 64).isNull() else QIcon()
