"""The Run page: Run and Cancel, a progress bar, and a live view of the run's partial (DP) results.

CDF runs (the tree engine's :class:`CdfSoFar` partials) draw the CDF as it forms, level by level; other
tasks show their progress messages as a log. Partials are DP outputs or public quantities only.
"""

from __future__ import annotations

import pyqtgraph as pg
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dpgui.algorithms.tree_cdf import CdfSoFar
from dpgui.data.domain import NumericDomain

PROGRESS_STEPS = 1000


def cdf_plot(title: str) -> pg.PlotWidget:
    """A white plot with a value axis and a CDF axis in [0, 1]."""
    plot = pg.PlotWidget(background="w")
    plot.setTitle(title, color="#333")
    plot.setLabel("bottom", "value")
    plot.setLabel("left", "P[X ≤ value]")
    plot.setYRange(0.0, 1.0)
    plot.showGrid(x=True, y=True, alpha=0.25)
    plot.setMinimumHeight(220)
    return plot


class RunPage(QWidget):
    """Run controls, progress and the live plot or log; the window connects the buttons to the job."""

    def __init__(self) -> None:
        super().__init__()
        self.summary = QLabel("Complete the Data, Task and Budget pages, then run.")
        self.summary.setWordWrap(True)
        summary_font = QFont(self.summary.font())
        summary_font.setBold(True)
        self.summary.setFont(summary_font)
        self.run_button = QPushButton("Run release")
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.progress = QProgressBar()
        self.progress.setRange(0, PROGRESS_STEPS)
        self.plot = cdf_plot("The CDF as the tree's levels are released")
        self.curve = self.plot.plot([], [], pen=pg.mkPen("#1f77b4", width=2))
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setPlaceholderText("Progress messages of the run appear here.")
        self._domain: NumericDomain | None = None

        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button, 1)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.plot, 3)
        layout.addWidget(self.log, 1)
        self.set_running(False)

    def prepare(self, summary: str, cdf_domain: NumericDomain | None) -> None:
        """A new run: the summary, an empty plot (shown for CDF runs over ``cdf_domain``) and log."""
        self.summary.setText(summary)
        self._domain = cdf_domain
        self.plot.setVisible(cdf_domain is not None)
        if cdf_domain is not None:
            self.plot.setXRange(cdf_domain.lower, cdf_domain.upper)
        self.curve.setData([], [])
        self.log.clear()
        self.progress.setValue(0)

    def set_running(self, running: bool) -> None:
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)

    def show_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(round(fraction * PROGRESS_STEPS))
        self.log.appendPlainText(f"{fraction:4.0%}  {message}")

    def show_partial(self, partial: object) -> None:
        """Draw a CDF partial (other partials are reported by their messages only)."""
        if isinstance(partial, CdfSoFar) and self._domain is not None:
            self.curve.setData(self._domain.from_grid(partial.indices), partial.cdf, stepMode="right")
