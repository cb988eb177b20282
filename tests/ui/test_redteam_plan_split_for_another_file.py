"""A release plan split at one file's row count never runs on a file with another n.

Red team 18: the plan tab kept the split it made for the file open before, since the row count reached it
only with a complete Task page spec (and opening a file clears the declared domains). Its Run then charged
and ran every release on the new file with the preconditions, the auto choices and the predicted errors of
the old n: an interior point whose guarantee needs 33 records was released on 8, stating "33 records".
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from dpgui.data import NumericDomain
from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import BUDGET, MainWindow
from tests.ui.test_main_window import set_total

SPLIT_TIMEOUT = 60_000


def _private_file(folder: Path, n: int, seed: int) -> Path:
    folder.mkdir()
    path = folder / "private.csv"
    pd.DataFrame({"x": np.random.default_rng(seed).integers(0, 100, n)}).to_csv(path, index=False)
    return path


def test_a_plan_split_for_one_file_is_split_again_for_the_next_and_refused_at_the_old_n(
    qtbot, tmp_path: Path, errors
):
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(_private_file(tmp_path / "a", 400, 1))
    page = window.task_page
    page.select_task(TaskKind.INTERIOR_POINT)
    page.select_columns(["x"])
    page.declare("x", NumericDomain(0, 100, 1))
    page.select_algorithm("em-interior")
    window.go_to(BUDGET)
    view = window.budget_page.plan_view
    view.add_current()
    qtbot.waitUntil(lambda: view.batch is not None, timeout=SPLIT_TIMEOUT)
    stale = view.batch

    window.load_private(_private_file(tmp_path / "b", 8, 2))
    set_total(window, 10.0)
    assert view.n == 8  # the split follows the open file's row count
    qtbot.waitUntil(lambda: "Splitting" not in view.status.text(), timeout=SPLIT_TIMEOUT)
    assert view.batch is None  # em-interior needs 33 records at this ε: no plan to run

    window.start_plan(stale)  # a split made at n = 400, run anyway
    assert window.current_job is None
    assert len(errors) == 1 and "n = 400" in errors[0]
    assert window.record is not None and window.ledger.entries(window.record.id) == []
