"""A disclosure button: an arrow and a title that show or hide a section (collapsed at first)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QToolButton, QWidget


def disclosure_button(text: str, tip: str, section: QWidget) -> QToolButton:
    """A checkable button that shows ``section`` when checked (arrow down) and hides it otherwise."""
    button = QToolButton()
    button.setText(text)
    button.setCheckable(True)
    button.setArrowType(Qt.ArrowType.RightArrow)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    button.setToolTip(tip)
    section.hide()

    def show(shown: bool) -> None:
        section.setVisible(shown)
        button.setArrowType(Qt.ArrowType.DownArrow if shown else Qt.ArrowType.RightArrow)

    button.toggled.connect(show)
    return button
