"""Starting the GUI: the application object, the main window, and the offscreen screenshot mode."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from dpgui import APP_NAME, __version__
from dpgui.data.domain import NumericDomain
from dpgui.privacy.accountant import preload_in_background
from dpgui.privacy.cost import PrivacyCost
from dpgui.ui.icon import app_icon
from dpgui.ui.main_window import MainWindow
from dpgui.ui.platform_check import no_display, xcb_problem

SCREENSHOT_SIZE = (1200, 800)

DEMO_COLUMN = "wage"
DEMO_DOMAIN = NumericDomain(0, 20000, 1, unit="USD per week")
"""The demo's declared wage domain (weekly US dollars): public knowledge about the demo, not read off it."""
DEMO_BUDGET = PrivacyCost(10.0, 1e-6)


def application() -> QApplication:
    """The running QApplication, created (high-DPI pass-through, name, icon) if there is none yet."""
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    QGuiApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
    app = QApplication(sys.argv[:1])
    app.setApplicationName(APP_NAME)
    app.setApplicationDisplayName(APP_NAME)
    app.setApplicationVersion(__version__)
    app.setWindowIcon(app_icon())
    return app


def prepare_demo(window: MainWindow) -> None:
    """Declare the demo's wage domain and, if the demo dataset has no total yet, give it a demo budget."""
    window.task_page.select_columns([DEMO_COLUMN])
    window.task_page.declare(DEMO_COLUMN, DEMO_DOMAIN)
    if window.record is not None and window.ledger.state(window.record.id).total is None:
        window.ledger.set_total(window.record.id, DEMO_BUDGET, note="demo default")
        window.refresh_budget()


def run_gui(
    private: Path | None, public: Path | None, screenshot: Path | None = None, *, demo: bool = False
) -> int:
    """Show the main window on the given files; with ``screenshot``, save a PNG of it and return at once.

    ``demo`` pre-fills the Task page (median of wage) with the demo's declared wage domain and sets a demo
    budget (ε = 10, δ = 1e-6) on a dataset that has none. Loading errors (DataError) propagate to the caller.
    Without the system libraries Qt's xcb plugin needs, it names them and returns 2 instead of letting Qt
    abort.
    """
    if screenshot is not None and no_display():  # a screenshot needs no screen: Qt aborted without one
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    problem = None if screenshot is not None else xcb_problem()
    if problem is not None:
        print(problem, file=sys.stderr)
        return 2
    app = application()
    preload_in_background()  # the ledger's accountant needs dp-accounting once a total has δ > 0
    window = MainWindow()
    if private is not None:
        window.load_private(private)
    if public is not None:
        window.load_public(public)
    if demo:
        prepare_demo(window)
    if screenshot is None:
        window.show()
        return app.exec()
    window.resize(*SCREENSHOT_SIZE)
    window.show()
    app.processEvents()
    screenshot.parent.mkdir(parents=True, exist_ok=True)
    saved = window.grab().save(str(screenshot), "PNG")
    window.close()
    return 0 if saved else 1
