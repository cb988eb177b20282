"""The live view of an online Huang-Roth session: each released answer drawn as it arrives.

Every point is an :class:`OnlineAnswer` the worker has already released (a DP output; the session's whole cost
was charged before it read the data): answer against query index, coloured by whether the query fired an
update, with the public update count and cap.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from dpgui.algorithms.distance.cdf_route import uniform_scale
from dpgui.algorithms.distance.huang_roth import OnlineAnswer
from dpgui.data.domain import NumericDomain, common_unit
from dpgui.tasks.spec import Domain
from dpgui.ui.theme import ThemedPlotWidget, text_colour

QUIET_BRUSH = pg.mkBrush("#1f77b4")
UPDATE_BRUSH = pg.mkBrush("#d62728")
_SIZE = 7


def _legend_sample(brush: pg.QtGui.QBrush) -> pg.ScatterPlotItem:
    return pg.ScatterPlotItem(size=_SIZE, pen=None, brush=brush)


class OnlineView(QWidget):
    """Answer vs query index (``points``), the updates used of the cap (``status``) and a halt note;
    hidden until a run's first answer."""

    def __init__(self) -> None:
        super().__init__()
        self.plot = ThemedPlotWidget()
        self.plot.setTitle("Online answers as they are released", color=text_colour().name())
        self.plot.setLabel("bottom", "query index")
        self.plot.showGrid(x=True, y=True, alpha=0.25)
        self.plot.setMinimumHeight(220)
        legend = self.plot.addLegend(offset=(-10, 10), brush=pg.mkBrush(255, 255, 255, 220))
        legend.addItem(_legend_sample(QUIET_BRUSH), "answered by the hypothesis")
        legend.addItem(_legend_sample(UPDATE_BRUSH), "fired an update")
        self.points = pg.ScatterPlotItem(size=_SIZE, pen=None)
        self.plot.addItem(self.points)
        self.status = QLabel()
        self.status.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.status)
        layout.addWidget(self.plot, 1)
        self.scale = 1.0
        self.reset(())

    def reset(self, domains: tuple[Domain, ...]) -> None:
        """A new run over ``domains``: no points, no status, hidden until the first answer arrives.

        An answer is an l1 distance on the box with each declared range mapped to [0, 1]; when every
        column has the same range it is drawn in the columns' own units (``uniform_scale``)."""
        numeric = [d for d in domains if isinstance(d, NumericDomain)]
        scale = uniform_scale(
            np.array([float(d.lower) for d in numeric]), np.array([float(d.upper) for d in numeric]), "l1"
        )
        self.scale = 1.0 if scale is None else scale
        unit = "normalised" if scale is None else common_unit(domains) or "columns' units"
        self.plot.setLabel("left", f"average distance ({unit})")
        self.points.clear()
        self.status.setText("")
        self.hide()

    def add(self, answer: OnlineAnswer) -> None:
        """Draw one released answer (showing the view) and update the counts."""
        self.show()
        brush = UPDATE_BRUSH if answer.updated else QUIET_BRUSH
        self.points.addPoints(x=[float(answer.index)], y=[answer.answer * self.scale], brush=[brush])
        text = f"{answer.index + 1:,} queries answered; updates used {answer.updates_used} of {answer.cap}"
        if answer.halted:
            text += (
                " — the session halted at its cap: later answers come from the final hypothesis "
                "without reading the data"
            )
        self.status.setText(text)

    def answers(self) -> tuple[np.ndarray, np.ndarray]:
        """The drawn (query index, answer) arrays, in arrival order (answers in the label's units)."""
        x, y = self.points.getData()
        return np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
