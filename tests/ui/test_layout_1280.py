"""At 1280x800 (a common laptop screen) legends and colour bars never cover the plotted data or ticks."""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtGui import QImage, QPainter

from dpgui.tasks.spec import TaskKind
from dpgui.ui.distance_explorer import DistanceExplorer
from dpgui.ui.main_window import MainWindow
from tests.ui.test_review_plots import run
from tests.ui.test_review_plots import window as window  # the Review tests' fixture

SCREEN = (1280, 800)


def shown_at_laptop_size(qtbot, window: MainWindow) -> None:
    window.resize(*SCREEN)
    window.show()
    qtbot.waitExposed(window)
    qtbot.wait(50)


def curve_points_in_scene(plot: pg.PlotWidget, curve: pg.PlotDataItem) -> list[QPointF]:
    x, y = curve.getData()
    if len(x) == len(y) + 1:  # a histogram's bin edges: its bars' tops sit at the centres
        x = (x[:-1] + x[1:]) / 2
    view = plot.plotItem.vb
    (left, right), (bottom, top) = view.viewRange()
    inside = (x >= left) & (x <= right) & (y >= bottom) & (y <= top)
    pairs = zip(x[inside], y[inside], strict=True)
    return [view.mapViewToScene(QPointF(float(a), float(b))) for a, b in pairs]


@pytest.mark.parametrize("kind", [TaskKind.CDF, TaskKind.SYNTHETIC])
def test_the_review_legend_covers_no_plotted_point(qtbot, window: MainWindow, kind: TaskKind):
    run(qtbot, window, kind, wage=True)
    shown_at_laptop_size(qtbot, window)
    plot = window.review_page.plot
    legend = plot.plotItem.legend.sceneBoundingRect()
    curves = [item for item in plot.plotItem.listDataItems() if item.isVisible()]
    points = [point for curve in curves for point in curve_points_in_scene(plot, curve)]
    assert points and not any(legend.contains(point) for point in points)
    view = plot.plotItem.vb.sceneBoundingRect()
    for side in ("left", "bottom"):  # the axis titles sit outside the data area, beside their ticks
        title = plot.plotItem.getAxis(side).label
        assert title.isVisible() and not title.sceneBoundingRect().intersects(view)


def test_the_distance_colour_bar_sits_beside_the_data(qtbot, window: MainWindow):
    from tests.ui.test_session import build

    build(window, TaskKind.DISTANCE)
    window.task_page.select_algorithm("cdf-route")
    window.start_release()
    with qtbot.waitSignal(window.current_job.released, timeout=15000):
        pass
    shown_at_laptop_size(qtbot, window)
    explorer = window.review_page.distance_explorer
    bar = explorer.colour_bar.sceneBoundingRect()
    view = explorer.plot.plotItem.vb.sceneBoundingRect()
    assert explorer.plot.isVisible() and view.height() > 150
    assert not bar.intersects(view)
    assert explorer.history.isVisible() and explorer.ask_button.isVisible()
    assert not explorer.plot.geometry().intersects(explorer.history.geometry())
    assert np.isfinite(explorer.query((12, 20)))


def ticks_under_the_title(axis: pg.AxisItem) -> list[str]:
    """The tick labels of ``axis`` that its title's text covers (its bounding rectangle less the text
    item's margin, the title being drawn turned a quarter)."""
    image = QImage(axis.size().toSize(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    _, _, texts = axis.generateDrawSpecs(painter)
    painter.end()
    margin = axis.label.document().documentMargin()
    title = axis.mapRectFromItem(
        axis.label, axis.label.boundingRect().adjusted(margin, margin, -margin, -margin)
    )
    assert texts and axis.label.isVisible()
    return [text for rect, _, text in texts if title.intersects(rect)]


def test_the_distance_colour_bars_title_clears_its_four_digit_ticks(qtbot):
    """A distance over weekly wages (300 to 3,400 dollars): the colour bar's title ran over its ticks."""
    explorer = DistanceExplorer()
    qtbot.addWidget(explorer)
    explorer.colour_bar.axis.setLabel("average distance (USD per week)")
    explorer.colour_bar.setLevels((300.0, 3400.0))
    explorer.resize(1000, 420)
    explorer.show()
    qtbot.waitExposed(explorer)
    qtbot.wait(50)
    assert ticks_under_the_title(explorer.colour_bar.axis) == []
