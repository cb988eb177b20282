"""Plots of a committed release's DP outputs, one drawer per kind of release table.

Everything drawn here comes from the release table, the spec and the algorithm's a-priori error bound: DP
outputs, post-processing of them and public quantities only, so these plots may be exported. Custodian-only
layers (drawn from the private data) live in :mod:`dpgui.ui.custodian_layers` and are never drawn here.
Distance releases are not plotted here: the Review page hands them to its distance explorer.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QFontMetrics, QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsRectItem

from dpgui.algorithms.learners.thresholds import Direction
from dpgui.data.domain import NumericDomain, axis_title
from dpgui.release.release import Release
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.sanitize_papers import CDF_UNIT
from dpgui.tasks.spec import TaskKind, TaskSpec
from dpgui.ui.inside_label import inside_line
from dpgui.ui.step_display import display_points, rising_range
from dpgui.ui.theme import ThemedPlotWidget, legend_style, text_colour, translucent_background

RED = (214, 39, 40)
RELEASED = "#d62728"
BAND = (*RED, 45)
SYNTHETIC_BINS = 40
"""The most bins of the synthetic records' histogram (fewer when the declared grid is smaller)."""
QUANTILE_OF = {"median": 0.5}
"""The quantile a one-value statistic estimates, where it has one (an interior point has none)."""
_NO_VALUE = "no value released"


@dataclass(frozen=True)
class Drawing:
    """What a drawer put on a plot: its title and its items by role (what tests and the export read)."""

    title: str
    items: Mapping[str, object]


Drawer = Callable[[pg.PlotWidget, Release], Drawing]


class BandSample(pg.ItemSample):
    """A legend entry drawn as a filled square (for a band between two curves, which has no sample)."""

    def __init__(self, edge: pg.PlotDataItem, brush: QBrush) -> None:
        super().__init__(edge)
        self._brush = brush

    def paint(self, painter: QPainter, *args: object) -> None:
        painter.setPen(pg.mkPen(self.item.opts["pen"]))
        painter.setBrush(self._brush)
        painter.drawRect(QRectF(2, 2, 18, 18))


def release_plot() -> pg.PlotWidget:
    """An empty white plot with a legend, ready for :func:`draw_release`."""
    plot = ThemedPlotWidget()
    plot.set_subject("Plot of the release")  # until a release titles it
    plot.showGrid(x=True, y=True, alpha=0.25)
    plot.setMinimumHeight(220)
    plot.addLegend(offset=(10, 10), **legend_style())
    return plot


def whole_width(plot: pg.PlotWidget) -> int:
    """The least width at which ``plot`` shows its title, its left axis and its bottom axis's title whole.

    pyqtgraph lays a plot out at least as wide as its title, and no narrower than that when its widget is
    narrower: the rest is cut off on the right (the table Review's plots lost the end of their titles and
    of the bottom axis title at 1024 x 700); the bottom axis's title it does not count at all.
    """
    item = plot.plotItem
    bottom = item.getAxis("bottom")
    bottom.setMinimumWidth(bottom.label.boundingRect().width() if bottom.label.isVisible() else 0.0)
    least = item.effectiveSizeHint(Qt.SizeHint.MinimumSize).width()
    return math.ceil(least) + 2 * plot.frameWidth()


def reset(plot: pg.PlotWidget, title: str, bottom: str, left: str) -> None:
    """Remove every item, legend entry and custom tick, and set the title and the axis labels."""
    plot.clear()
    plot.plotItem.legend.clear()
    plot.plotItem.legend.anchor(itemPos=(1, 0), parentPos=(1, 0), offset=(-10, 10))  # top right
    plot.getAxis("bottom").setTicks(None)
    plot.getAxis("left").setTicks(None)
    plot.getAxis("left").setWidth(None)  # automatic again after a table's names
    plot.getViewBox().invertY(False)
    plot.setTitle(title, color=text_colour().name())
    plot.setLabel("bottom", bottom)
    plot.setLabel("left", left)
    plot.enableAutoRange()


def x_title(spec: TaskSpec) -> str:
    """The x axis's title: the first column with its declared unit ("wage (USD)")."""
    return axis_title(spec.columns[0], spec.domains[0])


def _number(value: object) -> float | None:
    """A released cell as a float, or None for a textual one ('none', 'empty', 'hash bucket 3')."""
    return float(value) if isinstance(value, int | float) else None


def _show_domain(plot: pg.PlotWidget, domain: object, axis: str = "x") -> None:
    if isinstance(domain, NumericDomain):
        (plot.setXRange if axis == "x" else plot.setYRange)(float(domain.lower), float(domain.upper))


def _message(plot: pg.PlotWidget, text: str) -> pg.TextItem:
    """A text item in the middle of the view (a release with nothing to draw says so)."""
    item = pg.TextItem(text, color="#a00", anchor=(0.5, 0.5))
    plot.addItem(item)
    x_range, y_range = plot.viewRange()
    item.setPos(sum(x_range) / 2, sum(y_range) / 2)
    return item


def cdf_error(release: Release) -> float | None:
    """The algorithm's a-priori max |CDF error| at this spec and n, when it states one in those units."""
    if release.algorithm.error_unit != CDF_UNIT:
        return None
    error = release.algorithm.predicted_error(release.spec, release.dataset.n_rows)
    return error if math.isfinite(error) else None


def band_path(x: np.ndarray, lower: np.ndarray, upper: np.ndarray) -> QPainterPath:
    """The region between two right-continuous step curves over ``x``, as one polygon (a FillBetweenItem
    takes about a second on a 65,536-point grid, stalling the GUI thread; this takes milliseconds)."""
    xs = np.repeat(x, 2)[1:]
    ups, lows = np.repeat(upper, 2)[:-1], np.repeat(lower, 2)[:-1]
    return pg.arrayToQPath(np.concatenate([xs, xs[::-1]]), np.concatenate([ups, lows[::-1]]), connect="all")


def draw_cdf(plot: pg.PlotWidget, release: Release) -> Drawing:
    """The released CDF as a step plot, inside its a-priori error band (clipped to [0, 1])."""
    column = release.spec.columns[0]
    reset(plot, f"Released CDF of {column}", x_title(release.spec), f"share of records with {column} ≤ value")
    x, y = display_points(
        np.array(release.table.column("value"), dtype=float),
        np.array(release.table.column("cdf"), dtype=float),
    )
    items: dict[str, object] = {}
    error = cdf_error(release)
    if error is not None:
        band_pen = pg.mkPen((*RED, 90), width=1)
        lower = plot.plot(x, np.clip(y - error, 0.0, 1.0), stepMode="right", pen=band_pen)
        upper = plot.plot(x, np.clip(y + error, 0.0, 1.0), stepMode="right", pen=band_pen)
        band = QGraphicsPathItem(band_path(x, lower.getData()[1], upper.getData()[1]))
        band.setBrush(pg.mkBrush(BAND))
        band.setPen(pg.mkPen(None))
        plot.addItem(band)
        plot.plotItem.legend.addItem(BandSample(upper, pg.mkBrush(BAND)), "a-priori error band (1 − β)")
        items.update(band_lower=lower, band_upper=upper, band=band)
    items["curve"] = plot.plot(x, y, stepMode="right", pen=pg.mkPen(RELEASED, width=2), name="released CDF")
    plot.plotItem.legend.anchor(itemPos=(1, 1), parentPos=(1, 1), offset=(-10, -10))  # a CDF leaves it empty
    plot.setYRange(0.0, 1.0)
    plot.setXRange(*rising_range(x, y), padding=0.05)
    return Drawing(plot.plotItem.titleLabel.text, items)


def draw_histogram(plot: pg.PlotWidget, release: Release) -> Drawing:
    """Released counts (or frequencies) as bars; categories on a string axis."""
    table, spec = release.table, release.spec
    heights_name = "count" if "count" in table.columns else "frequency"
    reset(plot, f"Released histogram of {spec.columns[0]}", x_title(spec), f"released {heights_name}")
    heights = np.array(table.column(heights_name), dtype=float)
    labels = table.column(table.columns[0])
    domain = spec.domains[0]
    if isinstance(domain, NumericDomain):
        x, width = np.array(labels, dtype=float), 0.8 * float(domain.granularity)
    else:
        x, width = np.arange(len(labels), dtype=float), 0.8
        plot.getAxis("bottom").setTicks([[(float(i), str(label)) for i, label in enumerate(labels)]])
    bars = pg.BarGraphItem(x=x, height=heights, width=width, brush=pg.mkBrush(RELEASED), pen=RELEASED)
    plot.addItem(bars)
    plot.plotItem.legend.addItem(bars, f"released {heights_name}")
    return Drawing(plot.plotItem.titleLabel.text, {"bars": bars})


def _quantile_rows(release: Release) -> list[tuple[str, float | None, float | None]]:
    """(label, q or None, value or None) for each released quantile, median or interior point."""
    table = release.table
    if "q" in table.columns:
        return [
            (f"q = {q:g}", float(q), _number(value))
            for q, value in zip(table.column("q"), table.column("value"), strict=True)
        ]
    return [
        (str(statistic), QUANTILE_OF.get(str(statistic)), _number(value))
        for statistic, value in zip(table.column("statistic"), table.column("value"), strict=True)
    ]


def _label_height(q: float | None) -> float:
    """Where a quantile's label sits along its line: beside its marker, so near quantiles' labels part."""
    return 0.5 if q is None else min(max(q, 0.1), 0.9)


ZOOM_BELOW_SHARE = 0.2
"""Released values spread over less than this share of the declared range are shown zoomed in on."""


def _zoom_to_values(plot: pg.PlotWidget, values: list[float], domain: object) -> None:
    """Show the released values' span (half again either side) when on the declared range they would be a
    single thick line (incomes declared up to 10,000,000 whose quantiles lie within a few thousand); the
    plot's auto-range button shows the whole range again."""
    if len(set(values)) < 2 or not isinstance(domain, NumericDomain):
        return
    low, high = min(values), max(values)
    if high - low < ZOOM_BELOW_SHARE * (float(domain.upper) - float(domain.lower)):
        plot.setXRange(low - (high - low) / 2, high + (high - low) / 2, padding=0)


def draw_quantiles(plot: pg.PlotWidget, release: Release) -> Drawing:
    """Released quantiles (a median, an interior point) as labelled vertical lines on the declared domain,
    with a marker at (value, q) where the value estimates a quantile."""
    reset(plot, f"Released {release.spec.subject}", x_title(release.spec), "q")
    plot.setYRange(0.0, 1.0)
    _show_domain(plot, release.spec.domains[0])
    rows = _quantile_rows(release)
    lines = []
    for label, q, value in rows:
        if value is not None:
            line = inside_line(
                value,
                f"{label}: {value:,.6g}",
                pg.mkPen(RELEASED, width=2),
                position=_label_height(q),
                color=RELEASED,
                fill=translucent_background(200),
            )
            plot.addItem(line)
            lines.append(line)
    _zoom_to_values(plot, [line.value() for line in lines], release.spec.domains[0])
    points = [(value, q) for _, q, value in rows if value is not None and q is not None]
    items: dict[str, object] = {"lines": tuple(lines)}
    if points:
        xs, qs = zip(*points, strict=True)
        items["markers"] = plot.plot(
            list(xs), list(qs), pen=None, symbol="o", symbolBrush=RELEASED, name="released values"
        )
    if not lines:
        items["message"] = _message(plot, _NO_VALUE)
    return Drawing(plot.plotItem.titleLabel.text, items)


def synthetic_edges(release: Release) -> np.ndarray:
    """Bin edges for the synthetic records: from the declared grid (public), at most SYNTHETIC_BINS bins."""
    domain = release.spec.domain
    half = float(domain.granularity) / 2
    last = float(domain.value_of(domain.size - 1))
    return np.linspace(float(domain.lower) - half, last + half, min(domain.size, SYNTHETIC_BINS) + 1)


def draw_synthetic(plot: pg.PlotWidget, release: Release) -> Drawing:
    """A histogram of the synthetic records (post-processing of a DP output)."""
    column = release.spec.columns[0]
    reset(plot, f"Synthetic records of {column}", x_title(release.spec), "synthetic records")
    values = np.array(release.table.column(column), dtype=float)
    edges = synthetic_edges(release)
    counts, _ = np.histogram(values, edges)
    curve = plot.plot(
        edges,
        counts,
        stepMode="center",
        fillLevel=0,
        brush=pg.mkBrush((*RED, 110)),
        pen=pg.mkPen(RELEASED, width=1.5),
        name=f"{len(values):,} synthetic records",
    )
    return Drawing(plot.plotItem.titleLabel.text, {"histogram": curve})


def _hypothesis_line(plot: pg.PlotWidget, value: float, label: str) -> pg.InfiniteLine:
    line = inside_line(
        value,
        label,
        pg.mkPen(RELEASED, width=2.5),
        position=0.75,
        color=RELEASED,
        fill=translucent_background(),
    )
    line.setZValue(10)  # above any custodian-only bars
    plot.addItem(line)
    return line


def _learned(plot: pg.PlotWidget, release: Release, cell: object, label: str) -> Drawing:
    """A learned hypothesis on the feature's declared domain: a line at a value, or a message."""
    spec = release.spec
    reset(plot, f"{spec.kind.title}: {spec.columns[0]} → {spec.label}", x_title(spec), "rows")
    plot.plotItem.hideAxis("left")  # its rows are the custodian-only layer's (a GUI audit: an empty 0-1 axis)
    _show_domain(plot, spec.domains[0])
    value = _number(cell)
    if value is None:
        notes = release.table.notes
        message = notes[0] if cell == "none" and notes else f"{cell}: no value to draw (see the notes)"
        return Drawing(plot.plotItem.titleLabel.text, {"message": _message(plot, message)})
    shown = label.format(feature=spec.columns[0], value=f"{value:,.6g}")
    return Drawing(plot.plotItem.titleLabel.text, {"hypothesis": _hypothesis_line(plot, value, shown)})


def draw_threshold(plot: pg.PlotWidget, release: Release) -> Drawing:
    """The learned threshold as a vertical line, its direction (≥ or ≤) in its label."""
    (threshold, direction), *_ = release.table.rows
    sign = "≥" if Direction(direction) is Direction.GE else "≤"
    return _learned(
        plot, release, threshold, f"released threshold: positive when {{feature}} {sign} {{value}}"
    )


def draw_point(plot: pg.PlotWidget, release: Release) -> Drawing:
    """The learned point as a vertical line (an improper or empty hypothesis as a message)."""
    ((point,), *_) = release.table.rows
    return _learned(plot, release, point, "released point: positive when {feature} = {value}")


def draw_rectangle(plot: pg.PlotWidget, release: Release) -> Drawing:
    """The learned box on the first two features' declared domains (one feature: an interval)."""
    spec, table = release.spec, release.table
    y_label = axis_title(spec.columns[1], spec.domains[1]) if len(spec.columns) > 1 else ""
    more = f" (first 2 of {len(spec.columns)} features)" if len(spec.columns) > 2 else ""
    reset(
        plot,
        f"Released rectangle: {' × '.join(spec.columns[:2])} → {spec.label}{more}",
        x_title(spec),
        y_label,
    )
    _show_domain(plot, spec.domains[0])
    if len(spec.columns) > 1:
        _show_domain(plot, spec.domains[1], axis="y")
    else:
        plot.setYRange(0.0, 1.0)
    bounds = [
        (_number(lo), _number(hi))
        for lo, hi in zip(table.column("lower"), table.column("upper"), strict=True)
    ]
    if any(None in pair for pair in bounds):
        return Drawing(plot.plotItem.titleLabel.text, {"message": _message(plot, table.notes[0])})
    (x0, x1), (y0, y1) = bounds[0], bounds[1] if len(bounds) > 1 else (0.0, 1.0)
    box = QGraphicsRectItem(x0, y0, x1 - x0, y1 - y0)
    box.setPen(pg.mkPen(RELEASED, width=2, cosmetic=True))
    box.setBrush(pg.mkBrush((*RED, 60)))
    plot.addItem(box)
    return Drawing(plot.plotItem.titleLabel.text, {"box": box})


def measured_marginals(table: ReleaseTable) -> list[tuple[str, float, float]]:
    """Each measured marginal once, in the order first measured: its name, its summed share of the budget
    and the TV from its last (most precise, AIM anneals) measurement. AIM may measure a marginal again."""
    merged: dict[str, tuple[float, float]] = {}
    for row in table.rows:
        if row[1] == "measured":
            name = str(row[0])
            merged[name] = (merged.get(name, (0.0, 0.0))[0] + float(row[4]), float(row[5]))
    return [(name, share, fit) for name, (share, fit) in merged.items()]


MAX_MARGINAL_BARS = 24
"""Bars the table plot draws before it folds the marginals with the smallest budget shares into one: at 80
marginals (AIM on 25 columns) their names overlapped into an unreadable column."""


def shown_marginals(
    measured: list[tuple[str, float, float]], limit: int = MAX_MARGINAL_BARS
) -> list[tuple[str, float, float]]:
    """At most ``limit`` bars: the ``limit - 1`` largest shares in the order first measured, then one bar
    for the rest (their summed share, and the largest of their TVs: the worst fit among them)."""
    if len(measured) <= limit:
        return measured
    kept = set(sorted(range(len(measured)), key=lambda i: -measured[i][1])[: limit - 1])
    rest = [measured[i] for i in range(len(measured)) if i not in kept]
    folded = (f"{len(rest)} more marginals", sum(r[1] for r in rest), max(r[2] for r in rest))
    return [measured[i] for i in sorted(kept)] + [folded]


def draw_table(plot: pg.PlotWidget, release: Release) -> Drawing:
    """A synthetic table's measured marginals, one row each from the top in the order first measured
    (``measured_marginals``, at most MAX_MARGINAL_BARS: ``shown_marginals``): its share of the budget and
    how far the synthetic table is from the noisy measurement (total variation), both in percent.
    Horizontal bars, so every marginal's name stays readable; the axis label says which bar is which (a
    legend would cover the bars, which fill the width). DP outputs only."""
    every = measured_marginals(release.table)
    measured = shown_marginals(every)
    bottom = "% of the budget (dark) · TV vs noisy, % (light)"
    title = "Synthetic table: measured marginals"
    if len(measured) < len(every):
        title += f" (the {len(measured) - 1} largest shares of {len(every)})"
    reset(plot, title, bottom, "")
    y = np.arange(len(measured), dtype=float)
    shares = 100 * np.array([share for _, share, _ in measured])
    fits = 100 * np.array([fit for _, _, fit in measured])
    bars = pg.BarGraphItem(
        x0=0, y=y - 0.2, width=shares, height=0.4, brush=pg.mkBrush(RELEASED), pen=RELEASED
    )
    fit = pg.BarGraphItem(x0=0, y=y + 0.2, width=fits, height=0.4, brush=pg.mkBrush((*RED, 80)), pen=RELEASED)
    plot.addItem(bars)
    plot.addItem(fit)
    names = [name for name, _, _ in measured]
    left = plot.getAxis("left")
    left.setTicks([list(enumerate(names))])
    left.setWidth(max((QFontMetrics(left.font()).horizontalAdvance(name) for name in names), default=0) + 12)
    plot.getViewBox().invertY(True)
    return Drawing(plot.plotItem.titleLabel.text, {"shares": bars, "fit": fit})


_BY_KIND: dict[TaskKind, Drawer] = {
    TaskKind.CDF: draw_cdf,
    TaskKind.HISTOGRAM: draw_histogram,
    TaskKind.QUANTILES: draw_quantiles,
    TaskKind.MEDIAN: draw_quantiles,
    TaskKind.INTERIOR_POINT: draw_quantiles,
    TaskKind.SYNTHETIC: draw_synthetic,
    TaskKind.THRESHOLD: draw_threshold,
    TaskKind.POINT: draw_point,
    TaskKind.RECTANGLE: draw_rectangle,
    TaskKind.TABLE: draw_table,
}


def drawer_for(release: Release) -> Drawer | None:
    """The drawer of a release: any value/cdf table is a CDF; otherwise by task kind (None: no plot here)."""
    if tuple(release.table.columns[:2]) == ("value", "cdf"):
        return draw_cdf
    return _BY_KIND.get(release.spec.kind)


def draw_release(plot: pg.PlotWidget, release: Release) -> Drawing | None:
    """Draw a release's DP outputs on ``plot``; None (and an empty plot) when it has no plot here."""
    drawer = drawer_for(release)
    if drawer is None:
        reset(plot, "", "", "")
        return None
    return drawer(plot, release)
