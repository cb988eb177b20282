"""The main flow works from the keyboard: Tab goes through each page and out of its tables."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from dpgui.ui.main_window import RUN, MainWindow
from tests.ui.test_main_window import charge_from_the_review, pick_cdf, set_total


def release_by_the_window(qtbot, window: MainWindow) -> None:
    """A CDF of wage released as the Run button asks for it."""
    set_total(window, 20.0)
    pick_cdf(window)
    window.go_to(RUN)
    window.run_page.run_button.click()
    charge_from_the_review(qtbot, window)
    job = window.current_job
    assert job is not None
    with qtbot.waitSignal(job.released, timeout=30_000):
        pass


def test_tab_leaves_the_review_pages_table_of_released_values(qtbot, window):
    """Tab went from cell to cell of the released values (1,001 rows for a CDF), and past the last one to a
    tab widget whose tab bar is hidden, which kept the focus where it was."""
    window.show()
    release_by_the_window(qtbot, window)
    window.activateWindow()
    QTest.qWaitForWindowActive(window)
    table = window.review_page.table
    table.setFocus()
    table.setCurrentIndex(table.model().index(table.model().rowCount() - 1, 1))  # the last cell
    qtbot.keyClick(table, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not table
    assert QApplication.focusWidget() is window.review_page.plot
