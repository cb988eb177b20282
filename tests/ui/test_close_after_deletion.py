"""A close the window schedules for itself (after a cancel settles, or once the custodian agreed to drop
unexported releases) is tied to the window: if the window is deleted first, the close is dropped, not
called on a deleted C++ object (which pytest-qt reports as an exception in the Qt event loop)."""

from __future__ import annotations

import shiboken6

from dpgui.ui.main_window import MainWindow


def test_a_close_scheduled_by_a_window_deleted_before_it_runs_is_dropped(qtbot) -> None:
    window = MainWindow()
    window._closing = True
    window._close_if_asked()  # nothing runs: schedules self.close for the next event-loop turn
    shiboken6.delete(window)
    qtbot.wait(20)  # the scheduled close would run here
