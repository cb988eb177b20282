"""The declared domains, shared by the Data and Task pages: typed by the custodian or suggested publicly.

A column's entry is the tuple of texts its row shows (``DomainRow.texts()``: lower, upper, granularity,
bins, unit; ``CategoryRow.texts()``: categories, and ``'other'`` or ``''``). The texts become a domain
only when the Task page builds the spec, so invalid text may sit here. Nothing here reads the private data.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

CATEGORY_TEXTS = 2
"""A categorical declaration's number of texts (categories, 'other'); a numeric one has five."""


class DeclaredDomains(QObject):
    """Each column's declared texts; ``changed(column)`` whenever a column's texts change."""

    changed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self._texts: dict[str, tuple[str, ...]] = {}

    def texts(self, column: str) -> tuple[str, ...]:
        """The column's texts; an empty tuple when nothing is declared."""
        return self._texts.get(column, ())

    def numeric(self, column: str) -> bool | None:
        """Whether the column is declared numeric (bounds) or categorical (categories), None when nothing
        is declared: a declaration's kind is the custodian's, whatever the private cells look like."""
        texts = self.texts(column)
        return None if not texts else len(texts) != CATEGORY_TEXTS

    def set_texts(self, column: str, texts: tuple[str, ...]) -> None:
        """Store the column's texts, emitting ``changed`` only when they differ from the stored ones."""
        if self.texts(column) != tuple(texts):
            self._texts[column] = tuple(texts)
            self.changed.emit(column)

    def clear(self) -> None:
        """Forget every declaration (a new private file), emitting ``changed`` for each column forgotten."""
        columns = list(self._texts)
        self._texts.clear()
        for column in columns:
            self.changed.emit(column)
