"""A read-only table model over a DataFrame that formats only the cells a view asks for."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

_Index = QModelIndex | QPersistentModelIndex


def format_cell(value: object) -> str:
    """A cell as text: floats compactly (up to 10 significant digits), missing values as empty."""
    if value is None or value is pd.NA or value is pd.NaT:
        return ""
    if isinstance(value, float | np.floating):
        return "" if math.isnan(value) else f"{value:.10g}"
    return str(value)


class DataFrameModel(QAbstractTableModel):
    """The frame's columns as numpy arrays; ``data`` formats one cell on demand (fast at 10^6 rows)."""

    def __init__(self, frame: pd.DataFrame | None = None) -> None:
        super().__init__()
        self._names: list[str] = []
        self._columns: list[np.ndarray] = []
        self._rows = 0
        if frame is not None:
            self.set_frame(frame)

    def set_frame(self, frame: pd.DataFrame) -> None:
        """Show another frame (the columns are referenced, not copied, where pandas allows)."""
        self.beginResetModel()
        self._names = [str(name) for name in frame.columns]
        self._columns = [frame[name].to_numpy() for name in frame.columns]
        self._rows = len(frame)
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008 (Qt's signature)
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid():
            return None
        column = self._columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return format_cell(column[index.row()])
        if role == Qt.ItemDataRole.TextAlignmentRole and column.dtype.kind in "iuf":
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> object:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal:
            return self._names[section]
        return f"{section + 1:,}"
