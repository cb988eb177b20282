"""The Export refuses a folder that holds the release's private file, even after another file was opened.

Red team 18: the guard checked only the private file open now, so a release of A, exported after B was
opened, could be written into the folder holding A (the folder the custodian then hands out).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from PySide6.QtWidgets import QFileDialog

from dpgui.data import NumericDomain
from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import RUN, MainWindow
from tests.conftest import CANARY
from tests.ui.test_main_window import export_and_wait, run_and_wait, set_total


def _private_file(folder: Path, seed: int) -> Path:
    """A small private CSV with the canary in its own folder."""
    folder.mkdir()
    values = np.append(np.random.default_rng(seed).integers(0, 100, 300), CANARY)
    path = folder / "private.csv"
    pd.DataFrame({"x": values}).to_csv(path, index=False)
    return path


def _window_on_the_first_of_two_files(qtbot, tmp_path: Path) -> tuple[MainWindow, Path, Path]:
    """A window on private file a/private.csv with a median of x declared; b/private.csv beside it."""
    first = _private_file(tmp_path / "a", 1)
    second = _private_file(tmp_path / "b", 2)
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(first)
    set_total(window, 3.0)
    window.task_page.select_task(TaskKind.MEDIAN)
    window.task_page.select_columns(["x"])
    window.task_page.declare("x", NumericDomain(0, 100, 1))
    return window, first, second


def test_a_release_is_not_exported_into_its_data_folder_after_another_file_was_opened(
    qtbot, tmp_path: Path, errors, monkeypatch
):
    window, first, second = _window_on_the_first_of_two_files(qtbot, tmp_path)
    window.go_to(RUN)
    run_and_wait(qtbot, window)
    window.load_private(second)  # the release shown is still the one of the first file

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(first.parent), ""))
    export_and_wait(qtbot, window)

    assert sorted(path.name for path in first.parent.iterdir()) == ["private.csv"]
    assert len(errors) == 1 and "holds the private data private.csv" in errors[0]


def test_the_guard_follows_the_file_the_run_read_when_another_was_opened_during_the_run(
    qtbot, tmp_path: Path, errors, monkeypatch
):
    window, first, second = _window_on_the_first_of_two_files(qtbot, tmp_path)
    window.start_release()
    job = window.current_job
    assert job is not None
    window.load_private(second)  # Open project… or an opening begun earlier lands while the run runs
    with qtbot.waitSignal(job.released, timeout=15_000):
        pass

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(first.parent), ""))
    export_and_wait(qtbot, window)

    assert sorted(path.name for path in first.parent.iterdir()) == ["private.csv"]
    assert len(errors) == 1 and "holds the private data private.csv" in errors[0]
