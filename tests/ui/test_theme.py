"""Plots and the budget bar follow the system palette, light or dark."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from dpgui.ui.budget_panel import DARK_SEGMENT_COLOURS, BudgetBar
from dpgui.ui.release_plots import _hypothesis_line, release_plot
from dpgui.ui.theme import ThemedPlotWidget, dark_palette, is_dark


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
    assert plot.backgroundBrush().color() == dark.color(QPalette.ColorRole.Base)
    assert plot.getPlotItem().getAxis("left").textPen().color() == dark.color(QPalette.ColorRole.Text)


def test_a_plot_recolours_itself_when_the_palette_changes_at_run_time(qtbot, qapp):
    original = QPalette(qapp.palette())
    plot = ThemedPlotWidget()
    qtbot.addWidget(plot)
    light_background = plot.backgroundBrush().color().name()
    assert not is_dark()
    try:
        qapp.setPalette(dark_palette())
        dark_base = qapp.palette().color(QPalette.ColorRole.Base)
        qtbot.waitUntil(lambda: plot.backgroundBrush().color() == dark_base, timeout=2000)
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


def _luminance(colour: QColor, under: QColor) -> float:
    """WCAG 2 relative luminance of ``colour`` drawn (with its alpha) over ``under``."""
    alpha = colour.alphaF()
    channels = []
    for top, bottom in (
        (colour.redF(), under.redF()),
        (colour.greenF(), under.greenF()),
        (colour.blueF(), under.blueF()),
    ):
        value = alpha * top + (1 - alpha) * bottom
        channels.append(value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4)
    red, green, blue = channels
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _contrast(
    colours: QPalette, group: QPalette.ColorGroup, text: QPalette.ColorRole, on: QPalette.ColorRole
) -> float:
    background = colours.color(group, on)
    darker, lighter = sorted(
        (_luminance(colours.color(group, text), background), _luminance(background, background))
    )
    return (lighter + 0.05) / (darker + 0.05)


def test_the_dark_palettes_links_placeholders_and_disabled_text_are_readable_on_their_backgrounds(qapp):
    """The screenshots' dark palette kept the light one's links (blue), placeholder text (half-black) and
    disabled text (as bright as the enabled text): unreadable, or a disabled button that looks enabled."""
    role, group = QPalette.ColorRole, QPalette.ColorGroup
    colours = dark_palette()
    pairs = [(role.Text, role.Base), (role.WindowText, role.Window), (role.ButtonText, role.Button)]
    pairs += [(role.Link, role.Base), (role.Link, role.Window), (role.LinkVisited, role.Base)]
    pairs += [(role.PlaceholderText, role.Base), (role.ToolTipText, role.ToolTipBase)]
    pairs += [(role.HighlightedText, role.Highlight)]
    for text, on in pairs:
        assert _contrast(colours, group.Active, text, on) >= 4.5, (text, on)  # WCAG AA for body text
    for text, on in ((role.WindowText, role.Window), (role.ButtonText, role.Button), (role.Text, role.Base)):
        disabled = _contrast(colours, group.Disabled, text, on)
        assert 3 <= disabled < _contrast(colours, group.Active, text, on) - 2, (text, on)


def test_a_learned_lines_label_sits_on_the_plots_own_background_in_a_dark_palette(qtbot, dark):
    """It was white whatever the palette: a bright box on a dark plot."""
    plot = release_plot()
    qtbot.addWidget(plot)
    line = _hypothesis_line(plot, 1.0, "released point: positive when x = 1")
    fill = line.label.fill.color()
    assert fill.rgb() == dark.color(QPalette.ColorRole.Base).rgb() and fill.lightness() < 128


def test_a_plots_ticks_are_the_values_not_values_scaled_by_a_factor_in_the_axis_title(qtbot):
    """A simulated error of 0.0035 read "3.5" on an axis whose "(x0.001)" was in its title, which a short
    plot cuts off."""
    plot = ThemedPlotWidget()
    qtbot.addWidget(plot)
    plot.setLabel("bottom", "error (max |CDF error|)")
    plot.plot([0.0000031, 0.0000055], [1, 2])
    plot.resize(400, 300)
    plot.show()
    qtbot.waitExposed(plot)
    qtbot.wait(50)  # the view range reaches the axis
    axis = plot.getPlotItem().getAxis("bottom")
    assert axis.range[1] < 1e-5
    assert axis.autoSIPrefixScale == 1.0 and "(x" not in axis.labelString()
