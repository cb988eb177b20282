"""The distance explorer: ask a released distance structure for the average distance from any point.

Everything shown is post-processing of the release: answers come from the released structure (no data, no
budget), the background is the PUBLIC sample's points (or just a grid) over the declared domains, and the heat
map is the structure's answers on a coarse grid of those domains. The private rows are never drawn.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyqtgraph as pg
from pyqtgraph.GraphicsScene.mouseEvents import MouseClickEvent
from PySide6.QtCore import QRectF, Qt
from PySide6.QtWidgets import QDoubleSpinBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from dpgui.algorithms.distance.cdf_route import STRUCTURE_FILE, DistanceStructure
from dpgui.data.public import PublicSample
from dpgui.numbers import readable
from dpgui.release.release import Release
from dpgui.ui.theme import ThemedPlotWidget, text_colour

HEAT_CELLS = 64
"""Grid cells per axis of the heat map (64^2 queries: milliseconds for the structure)."""
SHOWN_AXES = 2


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


def _format(point: tuple[float, ...]) -> str:
    return ", ".join(readable(x) for x in point)


class DistanceExplorer(QWidget):
    """A click on the plot (or :meth:`pick`) answers the average distance from that point."""

    def __init__(self) -> None:
        super().__init__()
        self.structure: DistanceStructure | None = None
        self.picked: tuple[float, ...] | None = None
        self.plot = ThemedPlotWidget()
        self.plot.setTitle("Explore the released structure: click a point", color=text_colour().name())
        self.plot.showGrid(x=True, y=True, alpha=0.3)
        self.plot.setMinimumHeight(260)
        self.heat = pg.ImageItem()
        self.heat.setColorMap(pg.colormap.get("viridis"))
        self.heat.setOpacity(0.45)
        self.plot.addItem(self.heat)
        self.profile = self.plot.plot([], [], pen=pg.mkPen("#1f77b4", width=2))
        self.background = pg.ScatterPlotItem(size=4, pen=None, brush=pg.mkBrush(40, 40, 40, 140))
        self.plot.addItem(self.background)
        self.marker = pg.ScatterPlotItem(size=16, symbol="+", pen=pg.mkPen("#d62728", width=3))
        self.plot.addItem(self.marker)
        self.plot.scene().sigMouseClicked.connect(self._clicked)
        self.answer_label = QLabel("Click the plot to ask for the average distance from a point.")
        self.answer_label.setWordWrap(True)
        self.answer_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.fixed_form = QFormLayout()
        self.fixed: dict[str, QDoubleSpinBox] = {}
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.plot, 1)
        layout.addLayout(self.fixed_form)
        layout.addWidget(self.answer_label)
        layout.addWidget(self.note)

    @property
    def shown_axes(self) -> int:
        """How many leading columns the plot shows (1 or 2); the rest are fixed by the spin boxes."""
        return 0 if self.structure is None else min(SHOWN_AXES, len(self.structure.columns))

    def show_release(self, release: Release) -> bool:
        """Explore ``release``'s structure (shown) or, for a release without one, hide; True when shown."""
        structure = structure_of(release)
        self.setVisible(structure is not None)
        if structure is None:
            return False
        self.structure = structure
        self.picked = None
        self.marker.clear()
        self.answer_label.setText("Click the plot to ask for the average distance from a point.")
        shown = structure.columns[: self.shown_axes]
        self._build_fixed(structure)
        self.plot.setLabel("bottom", shown[0])
        self.plot.setLabel("left", shown[1] if len(shown) > 1 else "average distance (normalised)")
        points = public_points(release.spec.public, shown) if len(shown) > 1 else np.zeros((0, 2))
        self.background.setData(pos=points)
        self.plot.setXRange(float(structure.lower[0]), float(structure.upper[0]), padding=0.02)
        if len(shown) > 1:
            self.plot.setYRange(float(structure.lower[1]), float(structure.upper[1]), padding=0.02)
        source = "the public sample's points" if len(points) else "a grid"
        drawn = (
            f"Background: {source} over the declared domains; shading: the structure's answers "
            "(darker = closer)."
            if len(shown) > 1
            else "The curve: the structure's answers over the declared domain."
        )
        self.note.setText(
            f"Answers are in normalised units (each column's declared range mapped to [0, 1]). {drawn}"
        )
        self._redraw()
        return True

    def query(self, point: tuple[float, ...]) -> float:
        """The released structure's average distance from ``point`` (the shown coordinates, or all of them;
        the others are the spin boxes' values). Post-processing: no data, no budget."""
        assert self.structure is not None
        full = self._full(np.atleast_2d(np.asarray(point, dtype=np.float64)))
        return float(self.structure.answer(full)[0])

    def pick(self, point: tuple[float, ...]) -> float:
        """Mark ``point`` (shown coordinates) and show its answer."""
        value = self.query(point)
        self.picked = tuple(float(x) for x in point)
        self.marker.setData([self.picked[0]], [self.picked[1] if len(self.picked) > 1 else value])
        full = tuple(float(x) for x in self._full(np.array([self.picked]))[0])
        self.answer_label.setText(
            f"average distance from ({_format(full)}) = {readable(value)} "
            "(answered from the released structure; no budget spent)"
        )
        return value

    def _full(self, shown: np.ndarray) -> np.ndarray:
        """Rows of shown coordinates completed with the fixed values (rows already complete pass through)."""
        assert self.structure is not None
        if shown.shape[1] == len(self.structure.columns):
            return shown
        if shown.shape[1] != self.shown_axes:
            raise ValueError(f"a point needs {self.shown_axes} or {len(self.structure.columns)} coordinates")
        fixed = np.array([spin.value() for spin in self.fixed.values()])
        return np.hstack([shown, np.broadcast_to(fixed, (len(shown), len(fixed)))])

    def _build_fixed(self, structure: DistanceStructure) -> None:
        while self.fixed_form.rowCount():
            self.fixed_form.removeRow(0)
        self.fixed = {}
        for j in range(self.shown_axes, len(structure.columns)):
            low, high = float(structure.lower[j]), float(structure.upper[j])
            spin = QDoubleSpinBox()
            spin.setDecimals(4)
            spin.setRange(low, high)
            spin.setSingleStep((high - low) / 100)
            spin.setValue((low + high) / 2)
            spin.setToolTip("The plot and the answers hold this coordinate fixed at this value.")
            spin.valueChanged.connect(self._redraw)
            self.fixed[structure.columns[j]] = spin
            self.fixed_form.addRow(f"{structure.columns[j]} fixed at:", spin)

    def _redraw(self) -> None:
        """The heat map (2-D) or the answer profile (1-D), and the picked point's answer again."""
        assert self.structure is not None
        low, high = self.structure.lower, self.structure.upper
        xs = np.linspace(low[0], high[0], HEAT_CELLS)
        if self.shown_axes == 1:
            self.heat.hide()
            self.profile.setData(xs, self.structure.answer(self._full(xs[:, None])))
        else:
            ys = np.linspace(low[1], high[1], HEAT_CELLS)
            grid = np.stack(np.meshgrid(xs, ys, indexing="ij"), axis=-1).reshape(-1, 2)
            self.heat.setImage(self.structure.answer(self._full(grid)).reshape(HEAT_CELLS, HEAT_CELLS))
            self.heat.setRect(QRectF(low[0], low[1], high[0] - low[0], high[1] - low[1]))
            self.heat.show()
            self.profile.setData([], [])
        if self.picked is not None:
            self.pick(self.picked)

    def _clicked(self, event: MouseClickEvent) -> None:
        if self.structure is None or event.button() != Qt.MouseButton.LeftButton:
            return
        view = self.plot.plotItem.vb
        if not view.sceneBoundingRect().contains(event.scenePos()):
            return
        position = view.mapSceneToView(event.scenePos())
        self.pick((position.x(), position.y())[: self.shown_axes])
