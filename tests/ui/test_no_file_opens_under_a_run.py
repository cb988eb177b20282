"""No other private file can replace the open one under a running release.

Red team 18 L1: Open project and Open Recent stayed enabled during a run (both open a private file), and
a file being opened when Run was pressed could finish mid-run; either switched the data the window shows
under the running release.
"""

from __future__ import annotations

from dpgui.ui.main_window import MainWindow


def test_project_and_recent_files_cannot_be_opened_while_a_release_runs(window: MainWindow) -> None:
    window.remember_recent(window.dataset.path)
    window._set_running(True)
    assert not window.open_project_action.isEnabled() and not window.recent_menu.isEnabled()
    assert not window.open_private_action.isEnabled()
    window._set_running(False)
    assert window.open_project_action.isEnabled() and window.recent_menu.isEnabled()


def test_run_waits_for_a_file_being_opened(window: MainWindow, errors: list[str]) -> None:
    window.open_job = object()  # a file is being opened in the worker
    window.review_release()
    assert errors == ["Wait until it is open (or cancel it), then run."]
    assert window.current_job is None and window.review_sheet is None
    window.open_job = None


def test_a_file_dropped_while_a_release_runs_is_not_opened(window: MainWindow) -> None:
    """The open actions are disabled during a run, but a drop (or a recent file) calls open_private directly:
    it must not replace the data under the run (planted error ui-file-opens-under-a-run)."""
    window.current_job = object()  # a release is running in the worker
    window.open_private(window.data_page.request(str(window.dataset.path)))
    assert window.open_job is None
    window.current_job = None
