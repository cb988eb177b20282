"""The distance explorer: ask a released distance structure for the average distance from any point.

Everything shown is post-processing of the release: answers come from the released structure (no data, no
budget), the background is the PUBLIC sample's points (or just a grid) over the declared domains, and the heat
map is the structure's answers on a coarse grid of those domains. The private rows are never drawn.

Answers are in the columns' own units whenever the structure can give them exactly
(``DistanceStructure.in_data_units``), else in normalised units, and the explorer says which. The custodian
chooses the two plotted columns, types any point's coordinates (in the columns' units), and keeps a history
of the points asked, which can be copied.
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Iterator

import numpy as np
import pandas as pd
import pyqtgraph as pg
from pyqtgraph.GraphicsScene.mouseEvents import MouseClickEvent
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpgui.algorithms.distance.cdf_route import STRUCTURE_FILE, DistanceStructure
from dpgui.data.domain import NumericDomain, axis_title, common_unit
from dpgui.data.public import PublicSample
from dpgui.numbers import readable
from dpgui.release.release import Release
from dpgui.tasks.review import SampleFit, column_fit
from dpgui.ui.theme import ThemedPlotWidget, muted_colour, text_colour
from dpgui.ui.wrapping_label import WrappingLabel

HEAT_CELLS = 64
"""Grid cells per axis of the heat map (64^2 queries: milliseconds for the structure)."""
SHOWN_AXES = 2
TITLE = "Explore the released structure: click a point"


def structure_of(release: Release) -> DistanceStructure | None:
    """The release's distance structure, parsed from its attachment; None for other releases."""
    for attachment in release.table.attachments:
        if attachment.file_name == STRUCTURE_FILE:
            return DistanceStructure.from_bytes(attachment.content)
    return None


def public_points(sample: PublicSample | None, columns: tuple[str, ...]) -> np.ndarray:
    """The public sample's complete rows in ``columns`` (one point per row), empty when it lacks a column."""
    if sample is None or not set(columns) <= set(sample.frame.columns):
        return np.zeros((0, len(columns)))
    values = sample.frame[list(columns)].apply(pd.to_numeric, errors="coerce").dropna()
    return values.to_numpy(dtype=np.float64)


def misfit_columns(
    points: np.ndarray, names: list[str], domains: list[object]
) -> list[tuple[str, SampleFit]]:
    """The plotted columns whose public ``points`` (one column each) do not describe their declared range
    (``review.column_fit``), with their fit: another unit or scale, such as the demo's hourly public wages
    under a weekly range, which put every point in a sliver of the plot at wage ≈ 0."""
    if not len(points):
        return []
    fits = [
        (name, column_fit(points[:, k], domain))
        for k, (name, domain) in enumerate(zip(names, domains, strict=True))
        if isinstance(domain, NumericDomain)
    ]
    return [(name, fit) for name, fit in fits if not fit.passed]


def background_note(misfits: list[tuple[str, SampleFit]]) -> str:
    """The plot's words for a public sample not drawn (empty when it is drawn)."""
    return "; ".join(
        f"public sample not drawn: its {name} does not fit the declared range (its central 98% fills "
        f"{fit.coverage:.1%} of it, {fit.outside:.1%} of it lies outside): in other units?"
        for name, fit in misfits
    )


def _format(point: tuple[float, ...]) -> str:
    return ", ".join(readable(x) for x in point)


def units_of(structure: DistanceStructure) -> str:
    """What the explorer's answers measure, in words."""
    if structure.in_data_units:
        return f"in the columns' units ({structure.metric} over {', '.join(structure.columns)})"
    return (
        f"in normalised units: {structure.metric} with each column's declared range mapped to [0, 1] (the "
        "columns' ranges differ, so this metric has no single unit of its own)"
    )


class DistanceExplorer(QWidget):
    """A click on the plot, typed coordinates or :meth:`pick` answer the average distance from a point."""

    def __init__(self) -> None:
        super().__init__()
        self.structure: DistanceStructure | None = None
        self.domains: tuple[object, ...] = ()
        self.public: PublicSample | None = None
        self.picked: tuple[float, ...] | None = None
        """The last point asked (the plotted coordinates)."""
        self.plot = ThemedPlotWidget()
        self._set_title("")
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.setMinimumHeight(260)
        self.heat = pg.ImageItem()
        colours = pg.colormap.get("viridis")
        self.heat.setColorMap(colours)
        self.heat.setOpacity(0.45)
        self.plot.addItem(self.heat)
        self.colour_bar = pg.ColorBarItem(colorMap=colours, interactive=False, width=15)
        self.colour_bar.setImageItem(self.heat, insert_in=self.plot.plotItem)
        # pyqtgraph fixes the bar's axis at 45 px, which leaves no room for its title beside ticks such as
        # "3000": the title was drawn over them. Sized from its ticks, the axis adds the title's height.
        self.colour_bar.axis.setWidth(None)
        self.profile = self.plot.plot([], [], pen=pg.mkPen("#1f77b4", width=2))
        self.background = pg.ScatterPlotItem(size=4, pen=None, brush=pg.mkBrush(40, 40, 40, 140))
        self.plot.addItem(self.background)
        self.marker = pg.ScatterPlotItem(size=16, symbol="+", pen=pg.mkPen("#d62728", width=3))
        self.plot.addItem(self.marker)
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.x_axis, self.y_axis = QComboBox(), QComboBox()
        for box, tip in ((self.x_axis, "horizontal"), (self.y_axis, "vertical")):
            box.setToolTip(f"The column along the plot's {tip} axis; the others stay at their typed values.")
            box.activated.connect(self._axes_chosen)
        axes = QHBoxLayout()
        for text, box in (("Horizontal axis:", self.x_axis), ("Vertical axis:", self.y_axis)):
            label = QLabel(text)
            label.setBuddy(box)
            box.setAccessibleName(f"Column on the {text.rstrip(':').lower()}")
            axes.addWidget(label)
            axes.addWidget(box, 1)
        self.answer_label = WrappingLabel("Click the plot to ask for the average distance from a point.")
        self.answer_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = WrappingLabel()  # in a tab, which does not pass height-for-width down
        self.coordinate_form = QFormLayout()
        self.coordinates: dict[str, QDoubleSpinBox] = {}
        self.ask_button = QPushButton("Ask at these coordinates")
        self.ask_button.setToolTip("The average distance from the typed point (no budget spent).")
        self.ask_button.clicked.connect(self.ask_typed)
        self.history = QTableWidget(0, 2)
        self.history.setHorizontalHeaderLabels(["point asked", "average distance"])
        self.history.horizontalHeader().setStretchLastSection(True)
        self.history.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.history.setTabKeyNavigation(False)
        self.history.setToolTip("Every point asked in this session, newest first (select and copy).")
        self.history.setAccessibleName("Points asked and their average distances")
        self.history.setMaximumHeight(120)
        asking = QVBoxLayout()
        asking.addLayout(self.coordinate_form)
        asking.addWidget(self.ask_button)
        asking.addStretch(1)
        below = QHBoxLayout()
        below.addLayout(asking, 1)
        below.addWidget(self.history, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(axes)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.answer_label)
        layout.addLayout(below)
        layout.addWidget(self.note)

    @property
    def shown_axes(self) -> int:
        """How many columns the plot shows (1 or 2); the rest are held at their typed values."""
        return 0 if self.structure is None else min(SHOWN_AXES, len(self.structure.columns))

    @property
    def axes(self) -> tuple[int, ...]:
        """The plotted columns' positions (horizontal, then vertical)."""
        chosen = (self.x_axis.currentIndex(), self.y_axis.currentIndex())
        return chosen[: self.shown_axes]

    @property
    def fixed(self) -> dict[str, QDoubleSpinBox]:
        """The typed coordinates of the columns not plotted (the plot and the answers hold them fixed)."""
        assert self.structure is not None
        return {name: spin for j, (name, spin) in enumerate(self.coordinates.items()) if j not in self.axes}

    def show_release(self, release: Release) -> bool:
        """Explore ``release``'s structure (shown) or, for a release without one, hide; True when shown."""
        structure = structure_of(release)
        self.setVisible(structure is not None)
        if structure is None:
            return False
        self.structure, self.public, self.domains = structure, release.spec.public, release.spec.domains
        self.picked = None
        self.marker.clear()
        self.history.setRowCount(0)
        self.answer_label.setText("Click the plot to ask for the average distance from a point.")
        for box in (self.x_axis, self.y_axis):
            box.clear()
            box.addItems(list(structure.columns))
        self.y_axis.setCurrentIndex(min(1, len(structure.columns) - 1))
        self.y_axis.setEnabled(self.shown_axes > 1)
        self._build_coordinates(structure)
        self.colour_bar.setVisible(self.shown_axes > 1)
        self.colour_bar.axis.setLabel(f"average distance {self._unit_suffix()}")
        self.note.setText(
            f"Answers are {units_of(structure)}. Background: the public sample's points (or nothing) over "
            "the declared domains; shading: the structure's answers (darker = closer)."
        )
        self._axes_chosen()
        return True

    def _unit_suffix(self) -> str:
        """The answers' unit: the declared one when every column declares the same, else in words."""
        assert self.structure is not None
        if not self.structure.in_data_units:
            return "(normalised)"
        unit = common_unit(self.domains) or "columns' units"
        return f"({unit})"

    def _answers(self, full: np.ndarray) -> np.ndarray:
        assert self.structure is not None
        if self.structure.in_data_units:
            return self.structure.answer_in_data_units(full)
        return self.structure.answer(full)

    def query(self, point: tuple[float, ...]) -> float:
        """The released structure's average distance from ``point`` (the plotted coordinates, or all of
        them; the others are the typed values), in :func:`units_of` units. Post-processing: no budget."""
        return float(self._answers(self._full(np.atleast_2d(np.asarray(point, dtype=np.float64))))[0])

    def pick(self, point: tuple[float, ...]) -> float:
        """Mark ``point`` (plotted coordinates), type it into the coordinates, answer it and log it."""
        value = self._mark(point)
        assert self.picked is not None
        self.history.insertRow(0)
        full = self._full(np.array([self.picked]))[0]
        for column, text in enumerate((_format(tuple(full)), readable(value))):
            self.history.setItem(0, column, QTableWidgetItem(text))
        return value

    def _mark(self, point: tuple[float, ...]) -> float:
        """Mark ``point``, type it into the plotted columns' coordinates and show its answer."""
        value = self.query(point)
        self.picked = tuple(float(x) for x in point)
        full = tuple(float(x) for x in self._full(np.array([self.picked]))[0])
        for j, spin in enumerate(self.coordinates.values()):
            if j in self.axes:
                spin.blockSignals(True)
                spin.setValue(full[j])
                spin.blockSignals(False)
        self.marker.setData([self.picked[0]], [self.picked[1] if len(self.picked) > 1 else value])
        self.answer_label.setText(
            f"average distance from ({_format(full)}) = {readable(value)} {self._unit_suffix()} "
            "(answered from the released structure; no budget spent)"
        )
        return value

    def ask_typed(self) -> float:
        """Answer the typed coordinates (all columns)."""
        typed = [spin.value() for spin in self.coordinates.values()]
        return self.pick(tuple(typed[j] for j in self.axes))

    def _full(self, shown: np.ndarray) -> np.ndarray:
        """Rows of plotted coordinates completed with the typed values (complete rows pass through)."""
        assert self.structure is not None
        if shown.shape[1] == len(self.structure.columns):
            return shown
        if shown.shape[1] != self.shown_axes:
            raise ValueError(f"a point needs {self.shown_axes} or {len(self.structure.columns)} coordinates")
        typed = np.array([spin.value() for spin in self.coordinates.values()])
        full = np.array(np.broadcast_to(typed, (len(shown), len(typed))))
        full[:, list(self.axes)] = shown
        return full

    def _build_coordinates(self, structure: DistanceStructure) -> None:
        while self.coordinate_form.rowCount():
            self.coordinate_form.removeRow(0)
        self.coordinates = {}
        for j, column in enumerate(structure.columns):
            low, high = float(structure.lower[j]), float(structure.upper[j])
            spin = QDoubleSpinBox()
            spin.setDecimals(4)
            spin.setRange(low, high)
            spin.setSingleStep((high - low) / 100)
            spin.setValue((low + high) / 2)
            spin.setToolTip(
                f"{column} of the point to ask, in the column's units (declared range {readable(low)} to "
                f"{readable(high)}). A plotted column takes the clicked value; the others hold the plot."
            )
            spin.valueChanged.connect(lambda _value, j=j: self._typed(j))
            self.coordinates[column] = spin
            self.coordinate_form.addRow(f"{column}:", spin)

    @contextlib.contextmanager
    def as_reported(self) -> Iterator[None]:
        """The plot as the report shows it: no marker, the unplotted columns at mid-range, the plotted ones
        over their declared ranges. A point the custodian typed or clicked (perhaps one person's record),
        or a zoom around it, stays on screen only."""
        typed = {name: spin.value() for name, spin in self.fixed.items()}
        x_range, y_range = self.plot.getViewBox().viewRange()
        self.marker.setVisible(False)
        try:
            for spin in self.fixed.values():
                spin.setValue((spin.minimum() + spin.maximum()) / 2)
            self._show_declared_ranges()
            yield
        finally:
            for name, value in typed.items():
                self.coordinates[name].setValue(value)
            self.plot.getViewBox().setRange(xRange=x_range, yRange=y_range, padding=0)
            self.marker.setVisible(True)

    def _show_declared_ranges(self) -> None:
        """The plotted columns over their declared ranges (the answer axis of a 1-D plot left free)."""
        assert self.structure is not None
        low, high = self.structure.lower, self.structure.upper
        self.plot.setXRange(float(low[self.axes[0]]), float(high[self.axes[0]]), padding=0.02)
        if len(self.axes) > 1:
            self.plot.setYRange(float(low[self.axes[1]]), float(high[self.axes[1]]), padding=0.02)

    def _typed(self, column: int) -> None:
        """A typed coordinate of a column that is not plotted moves the plot's slice."""
        if column not in self.axes:
            self._redraw()

    def _axes_chosen(self) -> None:
        """Label, range and background of the chosen axes, then the answers on them."""
        assert self.structure is not None
        if self.shown_axes > 1 and self.x_axis.currentIndex() == self.y_axis.currentIndex():
            x = self.x_axis.currentIndex()
            self.y_axis.setCurrentIndex(next(j for j in range(len(self.structure.columns)) if j != x))
        names = [self.structure.columns[j] for j in self.axes]
        titles = [axis_title(self.structure.columns[j], self.domains[j]) for j in self.axes]
        self.plot.setLabel("bottom", titles[0])
        self.plot.setLabel("left", titles[1] if len(names) > 1 else f"average distance {self._unit_suffix()}")
        points = public_points(self.public, tuple(names)) if len(names) > 1 else np.zeros((0, 2))
        misfits = misfit_columns(points, names, [self.domains[j] for j in self.axes])
        self.background.setData(pos=np.zeros((0, 2)) if misfits else points)
        self._set_title(background_note(misfits))
        self._show_declared_ranges()
        self.picked = None
        self.marker.clear()
        self._redraw()

    def _set_title(self, note: str) -> None:
        """The plot's title, and ``note`` under it when there is one."""
        style = f"color:{muted_colour().name()}; font-size:9pt"
        below = f"<br><span style='{style}'>{html.escape(note)}</span>" if note else ""
        self.plot.setTitle(TITLE + below, color=text_colour().name())

    def _redraw(self) -> None:
        """The heat map (2-D) or the answer profile (1-D), and the picked point's answer again."""
        assert self.structure is not None
        low, high = self.structure.lower, self.structure.upper
        x = self.axes[0]
        xs = np.linspace(low[x], high[x], HEAT_CELLS)
        if self.shown_axes == 1:
            self.heat.hide()
            self.profile.setData(xs, self._answers(self._full(xs[:, None])))
        else:
            y = self.axes[1]
            ys = np.linspace(low[y], high[y], HEAT_CELLS)
            grid = np.stack(np.meshgrid(xs, ys, indexing="ij"), axis=-1).reshape(-1, 2)
            answers = self._answers(self._full(grid))
            self.heat.setImage(answers.reshape(HEAT_CELLS, HEAT_CELLS))
            self.heat.setRect(QRectF(low[x], low[y], high[x] - low[x], high[y] - low[y]))
            self.colour_bar.setLevels((float(answers.min()), float(answers.max())))
            self.heat.show()
            self.profile.setData([], [])
        if self.picked is not None:
            self._mark(self.picked)

    def _clicked(self, event: MouseClickEvent) -> None:
        if self.structure is None or event.button() != Qt.MouseButton.LeftButton:
            return
        view = self.plot.plotItem.vb
        if not view.sceneBoundingRect().contains(event.scenePos()):
            return
        position = view.mapSceneToView(event.scenePos())
        self.pick((position.x(), position.y())[: self.shown_axes])
