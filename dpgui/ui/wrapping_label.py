"""A word-wrapped label that keeps the height its text needs at its width.

A wrapped QLabel reports its height for one guessed width; inside a page of a QStackedWidget (which does not
pass height-for-width down) the layout then gives it that height at a narrower width and cuts the last
lines off: the Budget page's accounting line lost its second line at 1024 x 700.
"""

from __future__ import annotations

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel


class WrappingLabel(QLabel):
    """A QLabel with word wrap on whose minimum height follows its width."""

    def __init__(self, text: str = "") -> None:
        super().__init__(text)
        self.setWordWrap(True)

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        kept = self.minimumHeight()
        self.setMinimumHeight(0)  # QLabel's height for a width never reports less than the minimum height
        needed = self.heightForWidth(self.width())
        self.setMinimumHeight(needed if needed > 0 else kept)
