"""The Budget page's "Error vs ε" plot: the planner's predicted error of every algorithm against ε.

Computed from the spec, the public row count n and the registry's a-priori bounds only (never the private
data), in a pool thread and only while the view is shown: some bounds (cdf-route's) take about a second the
first time. The curve does not depend on the spec's ε, so moving ε only moves the markers.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from dpgui.jobs.background import LatestCall
from dpgui.planner.plan import error_curve
from dpgui.tasks.registry import Guarantee, algorithms
from dpgui.tasks.spec import TaskSpec
from dpgui.ui.lazy_plot import MIN_PLOT_HEIGHT, LazyPlotView
from dpgui.ui.theme import ThemedPlotWidget, label_style, legend_style
from dpgui.ui.wrapping_label import WrappingLabel

EPSILON_POINTS = 25
EPSILON_SPAN = (0.01, 10.0)
"""The ε range plotted, widened to take in a current ε outside it."""
_MARKER_PEN = pg.mkPen("#d62728", width=1.5)
_BEST_PEN = pg.mkPen("#2ca02c", width=1.5, style=Qt.PenStyle.DashLine)
_PALETTE = ("#1f77b4", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22")
"""Curve colours: no red or green, which mark the current ε and the best error."""


@dataclass(frozen=True)
class CurveSeries:
    """One algorithm's finite predicted errors at the ε values where they are finite."""

    algorithm: str
    badge: str
    """"pure" or "approx"."""
    epsilons: tuple[float, ...]
    errors: tuple[float, ...]


def epsilon_grid(epsilon: float) -> tuple[float, ...]:
    """EPSILON_POINTS log-spaced ε values over EPSILON_SPAN, widened to include ``epsilon``."""
    low, high = min(EPSILON_SPAN[0], epsilon / 2), max(EPSILON_SPAN[1], epsilon * 2)
    return tuple(float(value) for value in np.geomspace(low, high, EPSILON_POINTS))


def curve_series(spec: TaskSpec, n: int, epsilons: tuple[float, ...]) -> tuple[CurveSeries, ...]:
    """``error_curve``'s finite values for each algorithm that can run at the spec's δ (approximate-DP ones
    need δ > 0) and has a finite value."""
    curve = error_curve(spec, n, list(epsilons))
    series = []
    for info in algorithms(spec.kind):
        if spec.delta == 0 and info.guarantee_for(spec.with_algorithm(info.name)) is not Guarantee.PURE:
            continue
        finite = [
            (eps, err) for eps, err in zip(epsilons, curve[info.name], strict=True) if math.isfinite(err)
        ]
        if finite:
            xs, ys = zip(*finite, strict=True)
            series.append(CurveSeries(info.name, info.guarantee.badge, xs, tuple(float(y) for y in ys)))
    return tuple(series)


LEGEND_ROOM = 60
"""The plot's height besides its legend: the legend's offset from the top, the bottom axis and its title. A
legend of six algorithms ran past the bottom of a plot of the least height (the last ones cut off)."""


class DecadeAxis(pg.AxisItem):
    """A log axis with text at the powers of ten only (0.01, 0.1, 1, 10); the other ticks stay bare."""

    def tickStrings(self, values: list[float], scale: float, spacing: float | None) -> list[str]:
        return [f"{10**value:g}" if abs(value - round(value)) < 1e-9 else "" for value in values]


def _curve_key(spec: TaskSpec, n: int) -> tuple[TaskSpec, int, tuple[float, ...]]:
    """What the curve depends on: the spec except its ε, n and the grid."""
    return dataclasses.replace(spec, epsilon=1.0), n, epsilon_grid(spec.epsilon)


class ErrorCurveView(LazyPlotView):
    """Predicted error against ε (log-log when every error is positive), the current ε and the best error.

    The curve is computed (in the pool) and drawn only while the view is shown.
    """

    subject = "Predicted error against ε"

    def __init__(self) -> None:
        super().__init__()
        self.status = WrappingLabel()  # in a tab: a plain wrapped QLabel lost its second line
        self.layout_.addWidget(self.status)
        self.epsilon_line = pg.InfiniteLine(angle=90, pen=_MARKER_PEN, label="ε", labelOpts=label_style(0.95))
        self.best_line = pg.InfiniteLine(  # its label starts at 5% of the width (centred there, it lost "b")
            angle=0, pen=_BEST_PEN, label="best", labelOpts={**label_style(0.05), "anchors": [(0, 0), (0, 1)]}
        )
        self.curves: dict[str, pg.PlotDataItem] = {}
        """The drawn curves by algorithm."""
        self.series: tuple[CurveSeries, ...] = ()
        self._drawn: tuple[CurveSeries, ...] | None = None
        """The series the plot shows (None before the first drawing)."""
        self.log_y = False
        self._key: tuple[TaskSpec, int, tuple[float, ...]] | None = None
        self._computed_key: tuple[TaskSpec, int, tuple[float, ...]] | None = None
        self._epsilon: float | None = None
        self._best: float | None = None
        self._call = LatestCall(self)
        self._call.done.connect(self._computed)
        self._call.failed.connect(self._failed)
        self.show_spec(None, None)

    @property
    def computing(self) -> bool:
        """Whether the curve for the current spec is being computed."""
        return self._call.busy

    def show_spec(self, spec: TaskSpec | None, n: int | None) -> None:
        """The curve for ``spec`` at n (recomputed only when more than ε changed)."""
        self._epsilon = None if spec is None else spec.epsilon
        key = None if spec is None or n is None else _curve_key(spec, n)
        if key != self._key:
            self._key = key
            self.series = ()
            self._call.drop()
            self.status.setText(
                "No curve yet: choose a task with its columns' bounds and open a dataset."
                if key is None
                else "Computing the predicted error against ε…"
            )
        self.refresh()

    def show_best(self, error: float | None) -> None:
        """The best predicted error at the current ε (the planner's best feasible row), or none."""
        self._best = error
        self.refresh()

    def make_plot(self) -> ThemedPlotWidget:
        plot = ThemedPlotWidget(axisItems={"bottom": DecadeAxis("bottom")})
        plot.showGrid(x=True, y=True, alpha=0.25)
        plot.setLabel("bottom", "ε (log)")
        plot.addLegend(offset=(-10, 10), **legend_style())
        return plot

    def render(self, plot: pg.PlotWidget) -> None:
        """Start the computation the shown spec needs, then draw the curves and the markers."""
        if self._key is not None and self._computed_key != self._key and not self._call.busy:
            spec, n, grid = self._key
            self._call.submit(functools.partial(curve_series, spec, n, grid))
        if self._drawn is not self.series:
            self._draw_curves(plot)
        for line in (self.epsilon_line, self.best_line):
            plot.removeItem(line)
        if self.series:
            _place(plot, self.epsilon_line, self._epsilon, True, "ε = {:g}")
            _place(plot, self.best_line, self._best, self.log_y, "best {:.3g}")

    def _draw_curves(self, plot: pg.PlotWidget) -> None:
        plot.clear()
        self.log_y = bool(self.series) and all(min(one.errors) > 0 for one in self.series)
        plot.setLogMode(x=True, y=self.log_y)
        plot.setLabel("left", "predicted error" + (" (log)" if self.log_y else ""))
        self.curves = {}
        for index, one in enumerate(self.series):
            style = Qt.PenStyle.SolidLine if one.badge == "pure" else Qt.PenStyle.DashLine
            pen = pg.mkPen(_PALETTE[index % len(_PALETTE)], width=2, style=style)
            name = f"{one.algorithm} [{one.badge}]"
            self.curves[one.algorithm] = plot.plot(one.epsilons, one.errors, pen=pen, name=name)
        self._drawn = self.series
        legend = plot.plotItem.legend.boundingRect().height() if self.series else 0.0
        self.min_plot_height = max(MIN_PLOT_HEIGHT, math.ceil(legend) + LEGEND_ROOM)
        plot.setMinimumHeight(self.min_plot_height)

    def _computed(self, series: tuple[CurveSeries, ...]) -> None:
        self._computed_key, self.series = self._key, series
        self.status.setText(
            "A-priori bounds from n and the declared domain, not the data. Dashed: approximate DP (shown "
            "when δ > 0); red: this release's ε; green: the best predicted error at it."
            if series
            else "No algorithm of this task has a finite predicted error in this ε range."
        )
        self.refresh()

    def _failed(self, error: Exception) -> None:
        self._computed_key, self.series = self._key, ()
        self.status.setText(f"The predicted error could not be computed: {error}")
        self.refresh()


def _place(plot: pg.PlotWidget, line: pg.InfiniteLine, value: float | None, log: bool, text: str) -> None:
    """Add ``line`` at ``value`` (in view coordinates: log10 on a log axis) unless there is none to show."""
    if value is None or not math.isfinite(value) or (log and value <= 0):
        return
    line.setValue(math.log10(value) if log else value)
    line.label.setFormat(text.format(value))
    plot.addItem(line, ignoreBounds=True)
