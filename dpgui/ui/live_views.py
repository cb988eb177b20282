"""Live views of a run's partial results: one drawing function per partial type, picked by ``draw_partial``.

Partials hold only DP outputs already released by the run or public quantities (dpgui/algorithms/progress.py);
each view draws exactly what its partial carries, placed on the spec's declared (public) domains.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pyqtgraph as pg

from dpgui.algorithms.approximate_quantiles import QuantilesSoFar
from dpgui.algorithms.heavypaths import HeavyPathsStep
from dpgui.algorithms.marginal_table import AimRound
from dpgui.algorithms.recconcave import RecConcaveStep
from dpgui.algorithms.rectangles import BoxStep
from dpgui.algorithms.san_points import PointFrequencies
from dpgui.algorithms.tree_cdf import CdfSoFar
from dpgui.algorithms.treelog import TreeLogStep
from dpgui.data.domain import NumericDomain, axis_title
from dpgui.tasks.spec import Domain
from dpgui.ui.step_display import display_points
from dpgui.ui.theme import ThemedPlotWidget, label_style, text_colour

_PEN = pg.mkPen("#1f77b4", width=2)
_MARKER_PEN = pg.mkPen("#d62728", width=2)
_LABEL_ROWS = 9
"""Marker labels are staggered over this many heights so that close lines stay readable."""
LABELLED_ROUNDS = 8
"""AIM's latest rounds that keep a marker naming their marginal: a wide table's AIM runs 80 rounds and
more, whose markers covered the plot and whose labels overlapped."""
MAX_WHOLE_TICKS = 10


class LivePlot(ThemedPlotWidget):
    """The Run page's plot: one curve and vertical markers over the run's declared domains.

    ``show_view`` sets the title and axis labels of the view in use (an axis with no label is hidden).
    ``steps`` accumulates the (x, y) points drawn across the partials of one run (recursion steps, box
    edges).
    """

    def __init__(self) -> None:
        super().__init__()
        self.showGrid(x=True, y=True, alpha=0.25)
        self.setMinimumHeight(220)
        self.curve = self.plot([], [], pen=_PEN)
        self.markers: list[pg.InfiniteLine] = []
        self.domains: tuple[Domain, ...] = ()
        self.steps: list[tuple[float, float]] = []
        self._view: tuple[object, ...] | None = None
        """The view last set up: a partial of the same view only redraws its curve (a relayout of title and
        axes costs the GUI thread tens of milliseconds per partial)."""

    def reset(self, domains: tuple[Domain, ...]) -> None:
        """A new run over ``domains``: nothing drawn, hidden until a partial with a view arrives."""
        self.domains = domains
        self.steps = []
        self._view = None
        self.removeItem(self.curve)  # a fresh curve: no step mode, symbols or connection left from a run
        self.curve = self.plot([], [], pen=_PEN)
        self.set_markers([], [])
        self.hide()

    def show_view(
        self,
        title: str,
        bottom: str,
        left: str | None,
        y_range: tuple[float, float] | None = None,
        *,
        whole_x: bool = False,
    ) -> None:
        """Title and axes of the view (``whole_x``: ticks at whole numbers only); the x range is the first
        numeric domain's for a "value" axis."""
        view = (title, bottom, left, y_range, whole_x)
        if view == self._view:
            return
        self._view = view
        self.getAxis("bottom").setTickSpacing(*((1, 1) if whole_x else ()))
        self.setTitle(title, color=text_colour().name())
        domain = self.numeric_domain(0)
        value_axis = domain is not None and bottom == "value"
        self.setLabel("bottom", axis_title(bottom, domain) if value_axis else bottom)
        self.setLabel("left", left or "")
        self.showAxis("left", left is not None)  # after setLabel, which shows the axis again
        if y_range is None:
            self.enableAutoRange(axis="y")
        else:
            self.setYRange(*y_range)
        if value_axis:
            self.setXRange(domain.lower, domain.upper)
        else:
            self.enableAutoRange(axis="x")
        self.show()

    def spread_whole_ticks(self, span: float) -> None:
        """Ticks at whole numbers, at most MAX_WHOLE_TICKS over ``span`` (a step of 1, 2, 5, 10, 20, ...)."""
        steps = (m * 10**e for e in range(12) for m in (1, 2, 5))
        step = next(s for s in steps if span / s <= MAX_WHOLE_TICKS)
        self.getAxis("bottom").setTickSpacing(step, step)

    def numeric_domain(self, axis: int) -> NumericDomain | None:
        domain = self.domains[axis] if axis < len(self.domains) else None
        return domain if isinstance(domain, NumericDomain) else None

    def set_markers(self, positions: Sequence[float], labels: Sequence[str]) -> None:
        """Vertical lines at ``positions`` (replacing earlier ones), each labelled."""
        for line in self.markers:
            self.removeItem(line)
        self.markers = [
            pg.InfiniteLine(
                position,
                angle=90,
                pen=_MARKER_PEN,
                label=label,
                labelOpts=label_style(0.95 - 0.1 * (i % _LABEL_ROWS)),  # staggered
            )
            for i, (position, label) in enumerate(zip(positions, labels, strict=True))
        ]
        for line in self.markers:
            self.addItem(line)

    def marker_positions(self) -> list[float]:
        return [float(line.value()) for line in self.markers]


def draw_cdf(plot: LivePlot, partial: CdfSoFar) -> None:
    """The CDF as the tree's levels are released (a step curve over the grid)."""
    domain = plot.numeric_domain(0)
    if domain is None:
        return
    plot.show_view("The CDF as the tree's levels are released", "value", "P[X ≤ value]", (0.0, 1.0))
    plot.curve.setData(*display_points(domain.from_grid(partial.indices), partial.cdf), stepMode="right")


def draw_quantiles(plot: LivePlot, partial: QuantilesSoFar) -> None:
    """The quantiles released so far, as vertical lines on the declared domain."""
    domain = plot.numeric_domain(0)
    if domain is None:
        return
    plot.show_view("Quantiles released so far", "value", None, (0.0, 1.0))
    plot.curve.setData([], [])
    values = domain.from_grid(np.array(partial.indices, dtype=np.uint64))
    plot.set_markers(values.tolist(), [f"q={q:g}" for q in partial.qs])


def _draw_recursion(plot: LivePlot, level: int, size_bits: float) -> None:
    plot.show_view(
        "Recursion: the domain left at each level", "recursion level", "log₂ of the domain size", whole_x=True
    )
    plot.steps.append((float(level), size_bits))
    x, y = zip(*plot.steps, strict=True)
    plot.curve.setData(list(x), list(y), symbol="o", symbolBrush="#1f77b4")


def draw_recconcave(plot: LivePlot, partial: RecConcaveStep) -> None:
    """RecConcave's level and the size of its range [0, range_top] (public facts)."""
    _draw_recursion(plot, partial.level, math.log2(partial.range_top + 1))


def draw_treelog(plot: LivePlot, partial: TreeLogStep) -> None:
    """TreeLog's recursion level and the bit-width of its domain (public facts)."""
    _draw_recursion(plot, partial.level, float(partial.bits))


def draw_heavypaths(plot: LivePlot, partial: HeavyPathsStep) -> None:
    """HeavyPaths' database index and its bit-width (public facts)."""
    _draw_recursion(plot, partial.database, float(partial.bits))


def draw_box_edges(plot: LivePlot, partial: BoxStep) -> None:
    """A released axis interval of the box, one horizontal line per axis, as a fraction of its domain."""
    domain = plot.numeric_domain(partial.axis)
    if domain is None:
        return
    plot.show_view(
        "Box edges released so far", "position in the declared domain (0 = lower, 1 = upper)", "axis"
    )
    span = domain.upper - domain.lower
    ends = [edge * domain.granularity / span for edge in partial.edges]  # an empty box may leave the grid
    plot.steps = [point for point in plot.steps if point[1] != partial.axis + 1]
    plot.steps += [(end, float(partial.axis + 1)) for end in ends]
    x, y = zip(*plot.steps, strict=True)
    plot.curve.setData(list(x), list(y), connect="pairs")


def draw_point_frequencies(plot: LivePlot, partial: PointFrequencies) -> None:
    """The released (value, frequency) pairs as stems on the declared domain."""
    domain = plot.numeric_domain(0)
    if domain is None:
        return
    plot.show_view("Frequent values released so far", "value", "frequency", (0.0, 1.0))
    values = domain.from_grid(list(partial.values)).tolist()
    x = [value for value in values for _ in range(2)]
    y = [height for frequency in partial.frequencies for height in (0.0, frequency)]
    plot.curve.setData(x, y, connect="pairs")


def draw_aim_rounds(plot: LivePlot, partial: AimRound) -> None:
    """AIM round by round: the noise σ of each measurement (falls as the budget anneals), and a marker for
    each of the latest LABELLED_ROUNDS rounds naming the marginal chosen and the model's TV from that noisy
    measurement."""
    plot.show_view("AIM rounds: the marginal chosen and its noise", "round", "noise σ", whole_x=True)
    plot.steps.append((float(partial.round), partial.sigma))
    x, y = zip(*plot.steps, strict=True)
    plot.curve.setData(list(x), list(y), symbol="o")
    labels = [line.label.format for line in plot.markers] if plot.markers else []
    labels.append(f"{partial.name or partial.clique}: TV {partial.fit:.2g}")
    plot.set_markers(list(x)[-LABELLED_ROUNDS:], labels[-LABELLED_ROUNDS:])
    plot.spread_whole_ticks(max(x) - min(x))


VIEWS: dict[type, Callable[[LivePlot, Any], None]] = {
    AimRound: draw_aim_rounds,
    CdfSoFar: draw_cdf,
    QuantilesSoFar: draw_quantiles,
    RecConcaveStep: draw_recconcave,
    TreeLogStep: draw_treelog,
    HeavyPathsStep: draw_heavypaths,
    BoxStep: draw_box_edges,
    PointFrequencies: draw_point_frequencies,
}
"""Partial type -> its drawing function; partials of other types are reported by their messages only."""


def draw_partial(plot: LivePlot, partial: object) -> None:
    """Draw ``partial`` with the view of its type (nothing when its type has none)."""
    view = VIEWS.get(type(partial))
    if view is not None:
        view(plot, partial)
