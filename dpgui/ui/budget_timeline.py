"""The Budget page's timeline: cumulative ε spent on the dataset over time, from its ledger entries.

What counts as spent is what ``Ledger.state`` counts: committed and unresolved reservations (open in another
process, or in one that crashed). Refunded ones never count; this process's open ones (pending, touched) are
drawn but not yet counted, as in the budget bar. The height after each entry is the ledger's accountant's
figure for the entries counted so far (tight composition at the total's δ, never above basic composition).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel

from dpgui.jobs.background import LatestCall
from dpgui.privacy.accountant import BookedRelease, compose
from dpgui.privacy.budget_words import entry_status
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import LedgerEntry, ReservationStatus
from dpgui.ui.budget_panel import format_cost
from dpgui.ui.lazy_plot import MIN_PLOT_HEIGHT, LazyPlotView
from dpgui.ui.theme import ThemedPlotWidget, background_colour

SPENT = frozenset({ReservationStatus.COMMITTED, ReservationStatus.UNRESOLVED})
"""The statuses ``Ledger.state`` adds into ``spent``."""
_STEP_PEN = pg.mkPen("#1f77b4", width=2)
_TOTAL_PEN = pg.mkPen("#d62728", width=1.5, style=Qt.PenStyle.DashLine)


@dataclass(frozen=True)
class TimelinePoint:
    """One reservation: when (POSIX seconds), cumulative ε spent after it, its label, whether it counts."""

    time: float
    epsilon: float
    label: str
    counted: bool


def spend_timeline(
    entries: Sequence[LedgerEntry], total: PrivacyCost | None = None
) -> tuple[TimelinePoint, ...]:
    """The entries in time order with the ε spent up to and including each one (composed at the total's δ)."""
    points = []
    spent = 0.0
    counted_so_far: list[BookedRelease] = []
    delta = total.delta if total is not None else 0.0
    for entry in sorted(entries, key=lambda e: e.time):
        counted = entry.status in SPENT
        if counted:
            counted_so_far.append(BookedRelease(entry.cost, entry.curve))
            spent = compose(counted_so_far, delta).spent.epsilon
        label = f"{entry.description}\n{format_cost(entry.cost)}, {entry_status(entry)[0]}"
        points.append(TimelinePoint(entry.time.timestamp(), spent, label, counted))
    return tuple(points)


def step_xy(points: Sequence[TimelinePoint], end: float) -> tuple[np.ndarray, np.ndarray]:
    """The cumulative-ε staircase from 0 at the first entry to ``end`` (rising at each counted entry)."""
    if not points:
        return np.array([]), np.array([])
    xs, ys = [points[0].time], [0.0]
    for point in points:
        if point.counted:
            xs += [point.time, point.time]
            ys += [ys[-1], point.epsilon]
    xs.append(max(end, points[-1].time))
    ys.append(ys[-1])
    return np.array(xs), np.array(ys)


class BudgetTimeline(LazyPlotView):
    """Step plot of cumulative ε over time (date axis), one point per reservation, and the total ε.

    The spend after each entry is composed off the GUI thread (``LatestCall``): on thousands of entries the
    accountant takes seconds to minutes, during which the page says so and stays usable."""

    min_plot_height = MIN_PLOT_HEIGHT - 20  # no axis title below the dates
    subject = "Cumulative ε spent over time, against the total"
    composed = Signal()
    """The shown entries' spend is composed and drawn."""

    def __init__(self) -> None:
        super().__init__()
        self.steps = pg.PlotDataItem([], [], pen=_STEP_PEN)
        self.points = pg.ScatterPlotItem(hoverable=True, tip=lambda x, y, data: data, size=9)
        self.total_line = pg.InfiniteLine(
            angle=0, pen=_TOTAL_PEN, label="total", labelOpts={"position": 0.05, "color": "#d62728"}
        )
        self.composing = QLabel()
        self.composing.hide()
        self.layout_.addWidget(self.composing)
        self._composer = LatestCall(self)
        self._composer.done.connect(self._composed)
        self._composer.failed.connect(self._composing_failed)
        self.entries: Sequence[LedgerEntry] = ()
        self.total: PrivacyCost | None = None
        self._timeline: tuple[TimelinePoint, ...] | None = ()

    def show_timeline(self, entries: Sequence[LedgerEntry], total: PrivacyCost | None) -> None:
        """The dataset's entries (hover a point for its release) and its total ε, if set. Their cumulative
        spend is composed when first needed (the timeline shown, or read): one composition per entry takes
        seconds on thousands of entries, which the Ledger table's refresh must not wait for."""
        self.entries = entries
        self.total = total
        self._timeline = None
        self._composer.drop()
        self.refresh()

    @property
    def timeline(self) -> tuple[TimelinePoint, ...]:
        """The shown entries with the ε spent up to each (``spend_timeline``), composed once per show (here,
        in the calling thread, if the background composition has not delivered it yet)."""
        if self._timeline is None:
            self._timeline = spend_timeline(self.entries, self.total)
        return self._timeline

    def _composed(self, timeline: tuple[TimelinePoint, ...]) -> None:
        self._timeline = timeline
        self.refresh()

    def _composing_failed(self, error: Exception) -> None:
        self.composing.setText(f"The spend could not be composed: {error}")

    def make_plot(self) -> ThemedPlotWidget:
        plot = ThemedPlotWidget(axisItems={"bottom": pg.DateAxisItem(orientation="bottom")})
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setLabel("left", "ε spent")
        return plot

    def render(self, plot: pg.PlotWidget) -> None:
        plot.clear()
        if self._timeline is None:
            if not self._composer.busy:
                entries, total = tuple(self.entries), self.total
                self._composer.submit(lambda: spend_timeline(entries, total))
            self.composing.setText(f"Composing the spend of {len(self.entries):,} ledger entries…")
            self.composing.show()
            return
        self.composing.hide()
        self.steps.setData(*step_xy(self.timeline, time.time()))
        self.points.setData(
            [
                {
                    "pos": (point.time, point.epsilon),
                    "data": point.label,
                    "brush": pg.mkBrush("#1f77b4" if point.counted else background_colour()),
                    "pen": pg.mkPen("#1f77b4"),
                }
                for point in self.timeline
            ]
        )
        plot.addItem(self.steps)
        plot.addItem(self.points)
        if self.total is not None:
            self.total_line.setValue(self.total.epsilon)
            self.total_line.label.setFormat(f"total ε = {self.total.epsilon:g}")
            plot.addItem(self.total_line)
        self.composed.emit()
