"""The report's picture of the distance explorer never shows a point the custodian asked about.

Red team 18: the Review page exported the explorer's on-screen plot, with its marker at the last point
asked. A custodian who typed one person's record to see its average distance handed that record's
coordinates out in report.html: it is neither a DP output nor a public fact.
"""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import MainWindow
from tests.ui.conftest import WAGE_DOMAIN
from tests.ui.test_main_window import run_and_wait, set_total
from tests.ui.test_session import build

EXPLORER = "Average distance answered from the released structure"


def _released(qtbot, window: MainWindow, monkeypatch: pytest.MonkeyPatch, three_columns: bool = False):
    """A cdf-route distance release on the demo window (education and experience, plus wage with
    ``three_columns``), and the report's explorer picture right after it: (review page, picture)."""
    monkeypatch.setattr(QMessageBox, "critical", lambda *args: pytest.fail(f"unexpected dialog {args}"))
    window.resize(1200, 800)
    window.show()
    build(window, TaskKind.DISTANCE)
    set_total(window, 3.0)
    if three_columns:
        window.task_page.select_columns(["education", "experience", "wage"])
        window.task_page.declare("wage", WAGE_DOMAIN)
    window.task_page.select_algorithm("cdf-route")
    run_and_wait(qtbot, window)
    return window.review_page, window.review_page.plots()[EXPLORER]


def test_the_exported_explorer_is_the_same_before_and_after_a_point_is_asked(
    qtbot, demo_window: MainWindow, monkeypatch
):
    review, before = _released(qtbot, demo_window, monkeypatch)

    explorer = review.distance_explorer
    for spin, value in zip(explorer.coordinates.values(), (16, 33), strict=True):
        spin.setValue(value)  # one private record's education and experience
    explorer.ask_typed()
    assert explorer.marker.getData()[0].size == 1  # marked on screen

    assert review.plots()[EXPLORER] == before
    assert explorer.marker.getData()[0].size == 1  # and still marked on screen after the export


def test_the_exported_explorer_does_not_follow_a_typed_coordinate_of_an_unplotted_column(
    qtbot, demo_window: MainWindow, monkeypatch
):
    """With three columns the heat map is a slice at the typed value of the third: a picture at a typed
    value would let a reader of the report find that value from the released structure."""
    review, before = _released(qtbot, demo_window, monkeypatch, three_columns=True)

    explorer = review.distance_explorer
    (spin,) = explorer.fixed.values()
    spin.setValue(spin.minimum() + 0.37 * (spin.maximum() - spin.minimum()))  # one private record's value
    explorer.ask_typed()

    assert review.plots()[EXPLORER] == before


def test_the_exported_explorer_does_not_follow_a_zoom(qtbot, demo_window: MainWindow, monkeypatch):
    """Red team 18 L2: a zoom around a record the custodian looked at went into the report's picture;
    the picture spans the declared ranges, and the zoom stays on screen."""
    review, before = _released(qtbot, demo_window, monkeypatch)

    explorer = review.distance_explorer
    explorer.plot.getViewBox().setRange(xRange=(15, 17), yRange=(30, 35), padding=0)  # around one record
    zoomed = explorer.plot.getViewBox().viewRange()
    assert review.plots()[EXPLORER] == before
    assert explorer.plot.getViewBox().viewRange() == zoomed
