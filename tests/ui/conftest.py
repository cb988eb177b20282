"""Qt test fixtures: offscreen rendering, settings in a temporary folder, and a drained thread pool."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QSettings, QThreadPool  # imported after the platform is chosen


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Recent files and window state go to a temporary INI file, never to the user's settings."""
    folder = tmp_path_factory.mktemp("qsettings")
    QSettings.setDefaultFormat(QSettings.Format.IniFormat)
    QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, str(folder))
    return folder


@pytest.fixture(autouse=True)
def drained_thread_pool() -> Iterator[None]:
    yield
    QThreadPool.globalInstance().waitForDone()


@pytest.fixture
def demo_window(qtbot):
    """A main window on the demo files: cps1988 as the private dataset, cps1985 as the public sample."""
    from dpgui.paths import demo_private_path, demo_public_path
    from dpgui.ui.main_window import MainWindow

    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(demo_private_path())
    window.load_public(demo_public_path())
    return window
