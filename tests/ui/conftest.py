"""Qt test fixtures: offscreen rendering and a drained thread pool (settings live in DPGUI_HOME)."""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QThreadPool  # imported after the platform is chosen
from PySide6.QtWidgets import QInputDialog, QMessageBox

from dpgui.data import NumericDomain
from dpgui.ui.garbage import collect_garbage_in_the_gui_thread


@pytest.fixture(autouse=True)
def drained_thread_pool(qapp) -> Iterator[None]:
    """Each test starts with the app's GUI-thread garbage collector and leaves no run or garbage behind."""
    collect_garbage_in_the_gui_thread()
    yield
    QThreadPool.globalInstance().waitForDone()
    gc.collect()  # between tests no Qt call is under way: a safe point for a full collection


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


WAGE_DOMAIN = NumericDomain(0, 20000, 1)
"""The demo wage's declared domain in the window tests (weekly dollars, whole steps)."""


@pytest.fixture
def window(demo_window):
    """The demo window with the wage column chosen and declared on the Task page."""
    demo_window.task_page.select_columns(["wage"])
    demo_window.task_page.declare("wage", WAGE_DOMAIN)
    return demo_window


@pytest.fixture
def errors(monkeypatch) -> list[str]:
    """Messages the window would show in a critical message box."""
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text: shown.append(text))
    return shown


def answer_total_dialog(monkeypatch: pytest.MonkeyPatch, epsilon: str, delta: str) -> None:
    """Type ``epsilon`` and ``delta`` into the Set total budget dialog's two questions."""

    def typed(parent, title, label, *args, **kwargs):
        return (epsilon if "ε" in label else delta), True

    monkeypatch.setattr(QInputDialog, "getText", typed)
