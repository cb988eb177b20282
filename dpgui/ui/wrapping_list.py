"""A list of word-wrapped entries, each as tall as its text at the list's width.

QListView measures a wrapped entry at a width wider than the one it paints it in, so an entry whose text
wraps once more there loses its last line: the Task page's distance algorithms showed "very large n…." and
no "✓ preconditions met" at 1024 x 700. Here each entry's height is measured at the painted width, again
whenever the list is resized or an entry's text changes.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QListView, QListWidget, QStyle

SAFETY_PIXELS = 4
"""Measured this much narrower than painted: an entry may be a little tall, never clipped."""


class WrappingList(QListWidget):
    """A QListWidget of wrapped, multi-line entries; call :meth:`fit_entries` after changing texts."""

    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)  # a width that stays put

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.fit_entries()

    def fit_entries(self) -> None:
        """Each entry's height: its text wrapped at the width the delegate paints it in."""
        margin = self.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self) + 1
        width = self.viewport().width() - 2 * self.spacing() - 2 * margin - SAFETY_PIXELS
        if width <= 0:
            return
        metrics = self.fontMetrics()
        for row in range(self.count()):
            item = self.item(row)
            text = metrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt.TextFlag.TextWordWrap, item.text())
            height = text.height() + 2 * margin
            if item.sizeHint().height() != height:
                item.setSizeHint(QSize(width, height))
