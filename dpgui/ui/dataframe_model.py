"""A read-only table model over a DataFrame that formats only the cells a view asks for."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtWidgets import QTableView

_Index = QModelIndex | QPersistentModelIndex


def format_cell(value: object) -> str:
    """A cell as text: floats compactly (up to 10 significant digits), missing values as empty."""
    if value is None or value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, float | np.floating):
        return "" if math.isnan(value) else f"{value:.10g}"
    return str(value)


def _no_cell(row: int, column: int) -> object:
    return None


def _is_number(value: object) -> bool:
    return isinstance(value, int | float | np.number) and not isinstance(value, bool | np.bool_)


class DataFrameModel(QAbstractTableModel):
    """A frame's columns (as numpy arrays) or a released table's rows, formatted one cell at a time on
    demand: nothing is converted up front, so 10^6 preview rows or a 2^16-row CDF show at once."""

    def __init__(
        self, frame: pd.DataFrame | None = None, formatter: Callable[[object], str] = format_cell
    ) -> None:
        """``formatter`` writes each cell: :func:`format_cell` (10 significant digits) for data previews,
        ``dpgui.numbers.readable`` (about 4) for released values."""
        super().__init__()
        self._format = formatter
        self._names: list[str] = []
        self._rows = 0
        self._cell: Callable[[int, int], object] = _no_cell
        if frame is not None:
            self.set_frame(frame)

    def set_frame(self, frame: pd.DataFrame) -> None:
        """Show another frame (the columns are referenced, not copied, where pandas allows)."""
        columns = [frame[name].to_numpy() for name in frame.columns]
        self._show(frame.columns, len(frame), lambda row, column: columns[column][row])

    def set_table(self, names: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
        """Show rows of values as they are (a released table), without building a frame."""
        self._show(names, len(rows), lambda row, column: rows[row][column])

    def _show(self, names: Iterable[object], rows: int, cell: Callable[[int, int], object]) -> None:
        self.beginResetModel()
        self._names = [str(name) for name in names]
        self._rows = rows
        self._cell = cell
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._names)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        value = self._cell(index.row(), index.column())
        if role == Qt.ItemDataRole.DisplayRole:
            return self._format(value)
        if role == Qt.ItemDataRole.TextAlignmentRole and _is_number(value):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if role == Qt.ItemDataRole.ToolTipRole and orientation == Qt.Orientation.Horizontal:
            return self._names[section]  # the whole name of a header the view elides (``fit_columns``)
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._names[section]
        return f"{section + 1:,}"


HEADER_WIDTH = 150
"""The widest a column grows for its header alone (px): a longer name is elided, whole in its tooltip."""


def fit_columns(table: QTableView) -> None:
    """Columns as wide as their values, and their headers up to HEADER_WIDTH: a table release's "noise scale
    (σ or Laplace scale; ε for a selection)" took 334 px of a 417 px view, its values out of sight."""
    table.resizeColumnsToContents()
    for column in range(table.model().columnCount()):
        wide = max(table.sizeHintForColumn(column), HEADER_WIDTH)
        if table.columnWidth(column) > wide:
            table.setColumnWidth(column, wide)
