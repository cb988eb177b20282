"""The Run page: Run and Cancel, a progress bar, and a live view of the run's partial (DP) results.

Each partial type with a view in :mod:`dpgui.ui.live_views` is drawn as it arrives (the CDF level by level,
quantiles as lines, recursion steps, box edges, …); every run shows its progress messages as a log. Partials
are DP outputs or public quantities only.
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

from dpgui.algorithms.distance.huang_roth import OnlineAnswer
from dpgui.tasks.spec import Domain
from dpgui.ui.live_views import LivePlot, draw_partial
from dpgui.ui.online_view import OnlineView

PROGRESS_STEPS = 1000


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
        self.finish_button = QPushButton("Finish now")
        self.finish_button.setToolTip(
            "AIM: stop choosing marginals, spend what is left of the budget in one last round, cut the final "
            "fit short and release the table. Cancel ends the run without a result and keeps the charge."
        )
        self.progress = QProgressBar()
        self.progress.setRange(0, PROGRESS_STEPS)
        self.plot = LivePlot()
        self.online_view = OnlineView()
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setPlaceholderText("Progress messages of the run appear here.")
        self.log.setAccessibleName("Progress messages of the run")

        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button, 1)
        buttons.addWidget(self.finish_button)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)
        layout.addWidget(self.plot, 3)
        layout.addWidget(self.online_view, 3)
        layout.addWidget(self.log, 1)
        self.set_running(False)

    @property
    def curve(self) -> pg.PlotDataItem:
        """The live plot's curve (the CDF, the recursion steps, the box edges, …)."""
        return self.plot.curve

    def prepare(self, summary: str, domains: tuple[Domain, ...]) -> None:
        """A new run over the spec's declared ``domains``: the summary, an empty hidden plot and log."""
        self.summary.setText(summary)
        self.plot.reset(domains)
        self.online_view.reset(domains)
        self.log.clear()
        self.progress.setValue(0)

    def set_running(self, running: bool, finishable: bool = False) -> None:
        """Buttons for a run starting or ended; ``finishable``: the run can end early with its result
        (AIM), so Finish now is shown beside Cancel."""
        self.run_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.finish_button.setVisible(running and finishable)
        self.finish_button.setEnabled(running and finishable)

    def show_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(round(fraction * PROGRESS_STEPS))
        self.log.appendPlainText(f"{fraction:4.0%}  {message}")

    def show_partial(self, partial: object) -> None:
        """Draw a partial with the view of its type (the plot appears with the first one drawn)."""
        if isinstance(partial, OnlineAnswer):
            self.online_view.add(partial)
        else:
            draw_partial(self.plot, partial)
