"""Plots and the budget bar follow the system palette, light or dark."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from dpgui.ui.budget_panel import DARK_SEGMENT_COLOURS, BudgetBar
from dpgui.ui.theme import ThemedPlotWidget, is_dark, palette_with


def dark_palette() -> QPalette:
    role = QPalette.ColorRole
    return palette_with(
        {
            role.Window: "#2b2b2b",
            role.WindowText: "#eeeeee",
            role.Base: "#1e1e1e",
            role.Text: "#f0f0f0",
            role.Button: "#3a3a3a",
            role.ButtonText: "#eeeeee",
        }
    )


@pytest.fixture
def dark(qapp: QApplication) -> Iterator[QPalette]:
    """The application in a dark palette for the test, the original one restored after."""
    original = QPalette(qapp.palette())
    qapp.setPalette(dark_palette())
    yield qapp.palette()
    qapp.setPalette(original)


def test_a_plot_takes_the_dark_palettes_base_and_text_colours(qtbot, dark):
    plot = ThemedPlotWidget()
    qtbot.addWidget(plot)
    assert is_dark()
    assert plot.backgroundBrush().color().name() == "#1e1e1e"
    assert plot.getPlotItem().getAxis("left").textPen().color().name() == "#f0f0f0"


def test_a_plot_recolours_itself_when_the_palette_changes_at_run_time(qtbot, qapp):
    original = QPalette(qapp.palette())
    plot = ThemedPlotWidget()
    qtbot.addWidget(plot)
    light_background = plot.backgroundBrush().color().name()
    assert not is_dark()
    try:
        qapp.setPalette(dark_palette())
        qtbot.waitUntil(lambda: plot.backgroundBrush().color().name() == "#1e1e1e", timeout=2000)
    finally:
        qapp.setPalette(original)
    qtbot.waitUntil(lambda: plot.backgroundBrush().color().name() == light_background, timeout=2000)


def test_the_budget_bar_uses_dark_segments_under_a_dark_palette(qtbot, dark):
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.resize(300, 30)
    bar.show_budget(10.0, 0.0, 0.0)  # all of the bar is "remaining"
    image = bar.grab().toImage()
    assert image.pixelColor(150, 5).name() == DARK_SEGMENT_COLOURS[2].name()
