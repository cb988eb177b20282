"""A view whose plot is built and drawn only while the view is shown.

The Budget page keeps its plots in tabs; a hidden tab should cost nothing when the spec or the ledger
changes. A subclass keeps its state in attributes, calls :meth:`LazyPlotView.refresh` after changing it, and
draws the whole state in :meth:`LazyPlotView.render`, which runs on each show and on refreshes while shown.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QHideEvent, QShowEvent
from PySide6.QtWidgets import QVBoxLayout, QWidget

from dpgui.ui.theme import ThemedPlotWidget

MIN_PLOT_HEIGHT = 240
"""A plot's least height: its axes and their titles, and a plot area of about 200 px between them, as the
Review page's plots (220 px). The Budget page gave the error curve 69 px and the simulation's histogram 40 px
at 1024 x 700, and each plot about 150 px (a 120 px plot area) at 1280 x 720, too little for four curves and
their legend; the page scrolls instead."""


class LazyPlotView(QWidget):
    """Widgets added to :attr:`layout_` (a caption, buttons), then the plot, made on the first show."""

    min_plot_height = MIN_PLOT_HEIGHT
    """The plot's minimum height (less for a plot without an axis title below it)."""
    subject = "Plot"
    """What the plot shows, in words: its accessible name (the views' plots have no title)."""

    def __init__(self) -> None:
        super().__init__()
        self.layout_ = QVBoxLayout(self)
        self.layout_.setContentsMargins(0, 0, 0, 0)
        self._plot: ThemedPlotWidget | None = None

    @property
    def plot(self) -> ThemedPlotWidget | None:
        """The plot, once the view has been shown."""
        return self._plot

    def make_plot(self) -> ThemedPlotWidget:
        """The plot widget, built once (override for other axes)."""
        plot = ThemedPlotWidget()
        plot.showGrid(x=True, y=True, alpha=0.25)
        return plot

    def render(self, plot: pg.PlotWidget) -> None:
        """Draw the current state on ``plot`` (called only while the view is shown)."""
        raise NotImplementedError

    def refresh(self) -> None:
        """Redraw now if the view is shown; otherwise the next show will."""
        if self.isVisible():
            self._render_now()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._render_now()
        if self._plot is not None:
            self._plot.setMinimumHeight(self.min_plot_height)

    def hideEvent(self, event: QHideEvent) -> None:
        """A hidden tab's plot asks for no height: only the shown tab's makes the page scroll."""
        super().hideEvent(event)
        if self._plot is not None:
            self._plot.setMinimumHeight(0)

    def _render_now(self) -> None:
        if self._plot is None:
            self._plot = self.make_plot()
            self._plot.set_subject(self.subject)
            self.layout_.addWidget(self._plot, 1)
        self.render(self._plot)
