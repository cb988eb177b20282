"""Colours that follow the system palette (light or dark) for plots and custom-painted widgets.

Qt's own widgets follow the platform's palette by themselves; pyqtgraph plots and the budget bar paint
their own colours, so they take them from here: the plot background is the palette's Base colour, axes
and text its Text colour, and the data series a qualitative palette chosen for the background's lightness.
A :class:`ThemedPlotWidget` re-applies its colours when the palette changes at run time.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QGuiApplication, QPalette

LIGHT_SERIES = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf")
"""Tableau-10 colours, readable on white."""
DARK_SERIES = ("#6cb4f0", "#ff7b7b", "#7bd88f", "#ffb05c", "#c5a3ff", "#d9a58a", "#ff9ee0", "#5fe0ef")
"""The same hues lightened, readable on a dark background."""


def palette() -> QPalette:
    return QGuiApplication.palette()


def is_dark(colours: QPalette | None = None) -> bool:
    """Whether the palette's window colour is dark (the system's dark mode, or a dark theme)."""
    return (colours or palette()).color(QPalette.ColorRole.Window).lightness() < 128


def series_colour(index: int, colours: QPalette | None = None) -> QColor:
    """The ``index``-th data colour for the current palette (cycles after eight)."""
    series = DARK_SERIES if is_dark(colours) else LIGHT_SERIES
    return QColor(series[index % len(series)])


def muted_colour(colours: QPalette | None = None) -> QColor:
    """A grey for reference layers (true values, grids) that is visible on the background."""
    return QColor("#a0a0a0") if is_dark(colours) else QColor("#707070")


def text_colour(colours: QPalette | None = None) -> QColor:
    return (colours or palette()).color(QPalette.ColorRole.Text)


def background_colour(colours: QPalette | None = None) -> QColor:
    return (colours or palette()).color(QPalette.ColorRole.Base)


class ThemedPlotWidget(pg.PlotWidget):
    """A ``pg.PlotWidget`` in the palette's Base and Text colours, re-coloured on a palette change."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.pop("background", None)
        super().__init__(*args, **kwargs)
        self.apply_palette()

    def apply_palette(self) -> None:
        self.setBackground(background_colour())
        text = text_colour()
        item = self.getPlotItem()
        for name in ("left", "bottom", "right", "top"):
            axis = item.getAxis(name)
            axis.setPen(pg.mkPen(text))
            axis.setTextPen(pg.mkPen(text))
        item.titleLabel.setAttr("color", text.name())
        if item.titleLabel.text:
            item.setTitle(item.titleLabel.text, color=text.name())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and getattr(self, "plotItem", None) is not None:
            self.apply_palette()
        super().changeEvent(event)


def translucent_background(alpha: int = 220) -> tuple[int, int, int, int]:
    """The plot background with ``alpha``: behind legends and labels drawn over data."""
    colour = background_colour()
    return colour.red(), colour.green(), colour.blue(), alpha


def legend_style() -> dict[str, object]:
    """Keyword arguments of ``PlotItem.addLegend`` for the current palette."""
    return {"labelTextColor": text_colour().name(), "brush": translucent_background()}


def label_style(position: float, colour: str | None = None) -> dict[str, object]:
    """``labelOpts`` of a ``pg.InfiniteLine``: text in ``colour`` (default: the palette's) on the plot."""
    return {"position": position, "color": colour or text_colour().name(), "fill": translucent_background()}
