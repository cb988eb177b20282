"""Review of a synthetic table (issue 16): each column's 1-way distribution as bars and a 2-way heatmap of a
chosen pair, both counted from the released synthetic rows (DP outputs) on the declared (public) cells."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pyqtgraph as pg
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from dpgui.data.domain import CategoricalDomain
from dpgui.numbers import readable
from dpgui.release.release import Release
from dpgui.tasks.spec import Domain
from dpgui.tasks.table import SYNTHETIC_CSV, synthetic_csv
from dpgui.ui.release_plots import whole_width
from dpgui.ui.theme import ThemedPlotWidget

MISSING_LABEL = "missing"


def cell_labels(domain: Domain, kept: bool = False) -> list[str]:
    """The declared cells' labels: categories (and "other"), or the numeric grid points; then "missing" when
    the release kept missing values as a cell of their own."""
    if isinstance(domain, CategoricalDomain):
        labels = list(domain.labels)
    else:
        labels = [_grid_label(value) for value in domain.from_grid(np.arange(domain.size, dtype=np.uint64))]
    return [*labels, *([MISSING_LABEL] if kept else [])]


def cells_of(values: pd.Series, domain: Domain) -> np.ndarray:
    """The declared cell of every synthetic value; a blank (a kept missing value) is cell ``domain.size``."""
    text = values.astype(str)
    blank = text.str.strip().eq("").to_numpy()
    if isinstance(domain, CategoricalDomain):
        present = text.where(~blank, domain.categories[0])
        cells = np.asarray(domain.to_indices(present, file_name=SYNTHETIC_CSV), dtype=np.intp)
    else:
        numbers = pd.to_numeric(values.where(~blank, domain.lower)).to_numpy(np.float64)
        cells = domain.to_grid(numbers).astype(np.intp)
    cells[blank] = domain.size
    return cells


def one_way(frame: pd.DataFrame, column: str, domain: Domain, kept: bool = False) -> np.ndarray:
    """A column's share of synthetic rows in each declared cell (and the "missing" one when ``kept``)."""
    counts = np.bincount(cells_of(frame[column], domain), minlength=int(domain.size) + kept)
    return counts / max(len(frame), 1)


def two_way(
    frame: pd.DataFrame, columns: tuple[str, str], domains: tuple[Domain, Domain], kept: bool = False
) -> np.ndarray:
    """The pair's share of synthetic rows in each (first cell, second cell)."""
    shape = (int(domains[0].size) + kept, int(domains[1].size) + kept)
    flat = np.ravel_multi_index(
        tuple(cells_of(frame[c], d) for c, d in zip(columns, domains, strict=True)), shape
    )
    return np.bincount(flat, minlength=shape[0] * shape[1]).reshape(shape) / max(len(frame), 1)


def _grid_label(value: float) -> str:
    """A grid point as the app writes numbers (``readable``), exact when whole: never "1.667e+06"."""
    return readable(int(value)) if float(value).is_integer() else readable(float(value))


def _round_step(cells: float) -> int:
    """The smallest step of 1, 2 or 5 times a power of ten cells that is at least ``cells``."""
    step = 1
    while step < cells:
        step = step * 5 // 2 if str(step)[0] == "2" else step * 2
    return step


def _ticks(labels: list[str], kept: bool = False, most: int = 6) -> list[list[tuple[float, str]]]:
    """Two tick levels for an axis of cells: at most three labels at a round step (always drawn) and up to
    ``most`` between them, which pyqtgraph leaves out when they would overlap on a narrow plot; the
    "missing" cell (when ``kept``) is always named and no grid label is crowded against it."""
    cells = len(labels) - kept
    step = _round_step(cells / most)
    major_step = step * _round_step(cells / (3 * step))  # a multiple of the finer step: evenly spaced labels
    major, finer = list(range(0, cells, major_step)), list(range(0, cells, step))
    if kept:
        major, finer = ([i for i in level if cells - i >= cells / 6 or cells < 6] for level in (major, finer))
        major.append(cells)
    minor = [i for i in finer if i not in major]
    return [[(float(i), labels[i]) for i in level] for level in (major, minor)]


class SyntheticTableView(QWidget):
    """Bars of a chosen column and the heatmap of a chosen pair, from a synthetic-table release."""

    def __init__(self) -> None:
        super().__init__()
        self.frame = pd.DataFrame()
        self.domains: dict[str, Domain] = {}
        self.kept = False
        self.column = QComboBox()
        self.first = QComboBox()
        self.second = QComboBox()
        self.bars_plot = ThemedPlotWidget()
        self.bars = pg.BarGraphItem(x=[], height=[], width=0.8)
        self.bars_plot.addItem(self.bars)
        self.heat_plot = ThemedPlotWidget()
        self.heatmap = pg.ImageItem()
        self.heat_plot.addItem(self.heatmap)
        colours = pg.colormap.get("viridis")
        self.heatmap.setColorMap(colours)
        self.colour_bar = pg.ColorBarItem(
            colorMap=colours, interactive=False, width=12, orientation="horizontal"
        )  # below the plot: beside it, it took the width a narrow plot's tick labels need
        self.colour_bar.setImageItem(self.heatmap, insert_in=self.heat_plot.plotItem)
        self.colour_bar.axis.setLabel("% of synthetic rows in the cell")
        self.colour_bar.axis.enableAutoSIPrefix(False)  # "(x0.001)" beside percents read as a unit
        choices = QHBoxLayout()
        for text, name, box in (
            ("1-way of", "Synthetic rows by column", self.column),
            ("2-way of", "Synthetic rows by pair: first column", self.first),
            ("×", "Synthetic rows by pair: second column", self.second),
        ):
            label = QLabel(text)
            label.setBuddy(box)
            box.setAccessibleName(name)
            choices.addWidget(label)
            choices.addWidget(box, 1)
        plots = QHBoxLayout()
        plots.addWidget(self.bars_plot, 1)
        plots.addWidget(self.heat_plot, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(choices)
        layout.addLayout(plots, 1)
        self.column.currentTextChanged.connect(self._draw_bars)
        self.first.currentTextChanged.connect(self._draw_heatmap)
        self.second.currentTextChanged.connect(self._draw_heatmap)
        self.hide()

    def whole_width(self) -> int:
        """The least width showing both plots whole (their titles name the chosen columns); they share the
        width equally."""
        spacing = self.layout().spacing()
        return 2 * max(whole_width(self.bars_plot), whole_width(self.heat_plot)) + max(spacing, 0)

    def show_release(self, release: Release) -> None:
        """The synthetic rows of a table release (shown), or nothing (hidden) for other releases."""
        synthetic = synthetic_csv(release.table)
        if synthetic is None:
            self.hide()
            return
        self.frame = pd.read_csv(io.BytesIO(synthetic.content), keep_default_na=False)
        self.domains = dict(zip(release.spec.columns, release.spec.domains, strict=True))
        self.kept = bool(release.spec.missing.extra_cells)
        columns = list(release.spec.columns)
        for box, chosen in ((self.column, 0), (self.first, 0), (self.second, min(1, len(columns) - 1))):
            box.blockSignals(True)
            box.clear()
            box.addItems(columns)
            box.setCurrentIndex(chosen)
            box.blockSignals(False)
        self._draw_bars()
        self._draw_heatmap()
        self.show()

    def _draw_bars(self) -> None:
        column = self.column.currentText()
        if column not in self.domains:
            return
        percent = 100 * one_way(self.frame, column, self.domains[column], self.kept)
        self.bars.setOpts(x=np.arange(percent.size), height=percent, width=0.8)
        self.bars_plot.setTitle(f"Synthetic rows by {column}")
        self.bars_plot.setLabel("left", "% of rows")
        self.bars_plot.getAxis("bottom").setTicks(
            _ticks(cell_labels(self.domains[column], self.kept), self.kept)
        )

    def _draw_heatmap(self) -> None:
        pair = (self.first.currentText(), self.second.currentText())
        if not all(c in self.domains for c in pair):
            return
        domains = (self.domains[pair[0]], self.domains[pair[1]])
        percent = 100 * two_way(self.frame, pair, domains, self.kept)
        self.heatmap.setImage(percent)
        self.colour_bar.setLevels((0.0, max(float(percent.max()), 1e-10)))  # the scale a colour reads as
        self.heat_plot.setTitle(f"{pair[0]} × {pair[1]}")
        self.heat_plot.setLabel("bottom", pair[0])
        self.heat_plot.setLabel("left", pair[1])
        self.heat_plot.getAxis("bottom").setTicks(_ticks(cell_labels(domains[0], self.kept), self.kept))
        self.heat_plot.getAxis("left").setTicks(_ticks(cell_labels(domains[1], self.kept), self.kept))
