"""A page whose contents scroll when the window is too short for their minimum height.

A page of the window's QStackedWidget squeezed below what its plots and wrapped lines need cut them (the
Budget page's plots had 40 to 70 px at 1024 x 700), or made the whole window taller than the screen. In a
scroll area the contents are as tall as the page, or their minimum height if that is more, and scroll.
"""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QLayout, QScrollArea, QVBoxLayout, QWidget


class ScrollContents(QWidget):
    """A scroll area's widget as tall as the viewport, or its minimum height if that is more.

    QScrollArea gives a widget whose layout has height-for-width its preferred height (the tables' and
    plots' size hints), not the viewport's, and the page would scroll at every size. Wrapped lines in the
    contents should be WrappingLabels, whose minimum height follows their width.
    """

    def heightForWidth(self, width: int) -> int:
        return self.minimumSizeHint().height()


def scroll_page(page: QWidget, layout: QLayout, name: str) -> QScrollArea:
    """Put ``layout`` (the page's contents) in a frameless vertical scroll area filling ``page``, which a
    screen reader calls ``name``."""
    contents = ScrollContents()
    contents.setLayout(layout)
    scroll = QScrollArea()
    scroll.setAccessibleName(name)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setWidget(contents)
    outer = QVBoxLayout(page)
    outer.setContentsMargins(0, 0, 0, 0)
    outer.addWidget(scroll)
    return scroll
