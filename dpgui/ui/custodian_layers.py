"""Custodian-only layers: what the private data itself looks like, drawn beside a release on the Review page.

These are NOT DP outputs. They are drawn only on request (the Review page's check box, off by default), each
labelled "custodian only — not released", and never reach an export: ``ReviewPage.plots()`` renders the DP
drawers of :mod:`dpgui.ui.release_plots` alone. The private data is read through an ``Aggregator`` (the
window's custodian source), so the values are gridded, clipped and missing-filled exactly as the release's.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt

from dpgui.data.aggregate import Aggregator
from dpgui.release.release import Release
from dpgui.tasks.spec import TaskKind, TaskSpec
from dpgui.ui.release_plots import draw_cdf, draw_quantiles, drawer_for
from dpgui.ui.step_display import display_points
from dpgui.ui.theme import muted_colour, text_colour

CUSTODIAN_ONLY = "custodian only — not released"

POSITIVES = (80, 80, 80, 170)
NEGATIVES = (175, 175, 175, 150)


def remove_export_action(plot: pg.PlotWidget) -> None:
    """Drop pyqtgraph's right-click "Export..." from a plot that can show custodian-only layers: it writes
    every item on the plot, the true data included, to a file. The report draws its own DP-only plots."""
    plot.scene().contextMenu = []


@dataclass(frozen=True)
class CustodianSource:
    """The private data held in memory (set by the main window): an aggregator over it, and its file's
    SHA-256, so that a layer is drawn only beside a release of that very file."""

    sha256: str
    aggregator: Aggregator


@dataclass(frozen=True)
class CustodianLayer:
    """A custodian-only layer a release can show: the check box's text and how to draw it."""

    checkbox: str
    draw: Callable[[pg.PlotWidget, Release, Aggregator], Mapping[str, object]]


def true_cdf(data: Aggregator, spec: TaskSpec) -> tuple[np.ndarray, np.ndarray]:
    """The private column's empirical CDF at its distinct grid values (values, P[X ≤ value]), after the
    spec's missing-value policy, clipping and snapping (the same aggregate the release read)."""
    indices, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    return spec.domain.from_grid(indices), np.cumsum(counts) / data.count()


def _mark_title(plot: pg.PlotWidget, what: str) -> None:
    note = f"<span style='color:{muted_colour().name()}; font-size:9pt'>{what}: {CUSTODIAN_ONLY}</span>"
    plot.setTitle(f"{plot.plotItem.titleLabel.text}<br>{note}", color=text_colour().name())


def draw_true_cdf(plot: pg.PlotWidget, release: Release, data: Aggregator) -> Mapping[str, object]:
    """The true CDF as a grey dashed step curve from the declared lower bound."""
    values, cdf = true_cdf(data, release.spec)
    x, y = display_points(
        np.concatenate([[float(release.spec.domain.lower)], values]), np.concatenate([[0.0], cdf])
    )
    curve = plot.plot(
        x,
        y,
        stepMode="right",
        pen=pg.mkPen(muted_colour(), width=2, style=Qt.PenStyle.DashLine),
        name="true CDF — not released",
    )
    _mark_title(plot, "grey dashed")
    return {"true_cdf": curve}


def draw_label_histograms(plot: pg.PlotWidget, release: Release, data: Aggregator) -> Mapping[str, object]:
    """The feature's histogram among positives and among negatives, side by side, in greys."""
    spec = release.spec
    if spec.label is None:
        raise ValueError("a learning release has a label column")
    domain = spec.domain
    indices, positives, negatives = data.labelled_distinct_counts(
        spec.columns[0], domain, spec.missing, spec.label, spec.positive
    )
    x = domain.from_grid(indices)
    width = 0.4 * float(domain.granularity)
    items: dict[str, object] = {}
    for name, offset, heights, brush, legend in (
        ("positives", -width / 2, positives, POSITIVES, f"positives of {spec.label}"),
        ("negatives", width / 2, negatives, NEGATIVES, "negatives"),
    ):
        bars = pg.BarGraphItem(x=x + offset, height=heights, width=width, brush=pg.mkBrush(brush), pen=None)
        plot.addItem(bars)
        plot.plotItem.legend.addItem(bars, f"{legend} — not released")
        items[name] = bars
    plot.plotItem.showAxis("left")  # the rows axis, hidden while the hypothesis is drawn alone
    _mark_title(plot, "grey bars")
    return items


def custodian_layer_for(release: Release) -> CustodianLayer | None:
    """The custodian-only layer that fits a release's plot, if any."""
    if drawer_for(release) in (draw_cdf, draw_quantiles):
        return CustodianLayer(f"Show the true CDF ({CUSTODIAN_ONLY})", draw_true_cdf)
    if release.spec.kind in (TaskKind.THRESHOLD, TaskKind.POINT):
        return CustodianLayer(
            f"Show the feature's histogram by label ({CUSTODIAN_ONLY})", draw_label_histograms
        )
    return None
