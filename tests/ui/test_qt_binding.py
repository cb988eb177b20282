"""The installed Qt binding keeps Python's reference counts intact (PySide6 6.12.0 did not)."""

from __future__ import annotations

import sys

from PySide6.QtCore import QLineF
from PySide6.QtGui import QImage, QPainter
from PySide6.QtWidgets import QLabel

CALLS = 1000


def test_void_qt_calls_do_not_drain_the_reference_count_of_none(qapp):
    """PySide6 6.12.0 lost one reference to None per call here and aborted long sessions on Python 3.11
    ("Fatal Python error: none_dealloc"); pyproject.toml bounds the version below it."""
    image = QImage(16, 16, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    label = QLabel()
    before = sys.getrefcount(None)
    for _ in range(CALLS):
        painter.drawLine(QLineF(0, 0, 8, 8))
        label.setText("x")
    drift = before - sys.getrefcount(None)
    painter.end()
    assert abs(drift) < CALLS // 10, f"{drift} references to None lost in {2 * CALLS} calls"
