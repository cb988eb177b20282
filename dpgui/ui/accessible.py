"""What a screen reader speaks and where the keyboard goes, for the widgets that need help with either.

Qt reads a widget's accessible name from its own ``accessibleName``, from a QLabel whose buddy it is, or from
a button's text; a widget without any is spoken as an unnamed "edit" or "table" by Orca and NVDA. Plots are
described in words from their title and axis titles (what the plot itself shows, nothing more). Widgets
added after a page was built go to the end of the window's tab chain unless they are put back in order, and
a page shown from the keyboard puts the focus on its first field.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget

UNTITLED_PLOT = "Plot"
"""A plot's accessible name while it has neither a title nor a subject."""


def plain_text(rich: str) -> str:
    """``rich`` (a title or axis label that may hold HTML) as the words a reader speaks."""
    return " ".join(QTextDocumentFragment.fromHtml(rich).toPlainText().split())


def plot_description(title: str, bottom: str, left: str) -> str:
    """A plot in words: its title, then what its horizontal and vertical axes show (those it titles)."""
    parts = [plain_text(title)] if plain_text(title) else []
    for side, text in (("Horizontal axis", bottom), ("Vertical axis", left)):
        if plain_text(text):
            parts.append(f"{side}: {plain_text(text)}")
    return ". ".join(parts) + "." if parts else ""


def in_tab_order(widgets: Iterable[QWidget]) -> None:
    """Put ``widgets`` one after the other in the tab chain (widgets added later sit at its end otherwise).
    Those that take no focus (a plain label) are left out: Qt ignores a tab order with one of them."""
    previous: QWidget | None = None
    for widget in widgets:
        if widget.focusPolicy() == Qt.FocusPolicy.NoFocus:
            continue
        if previous is not None:
            QWidget.setTabOrder(previous, widget)
        previous = widget


def focusable_before(widget: QWidget) -> QWidget:
    """The widget that takes focus and comes before ``widget`` in the tab chain (``widget`` if none does)."""
    previous = widget.previousInFocusChain()
    while previous is not widget and previous.focusPolicy() == Qt.FocusPolicy.NoFocus:
        previous = previous.previousInFocusChain()
    return previous


def keyboard_focusable(widget: QWidget) -> bool:
    """Whether Tab can reach ``widget`` now: shown, enabled and taking focus from the keyboard."""
    return (
        widget.isVisible()
        and widget.isEnabled()
        and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)
        and widget.focusProxy() is None
    )


def _help_link(widget: QWidget) -> bool:
    """Whether ``widget`` is a label with a link (a field's "?" help), not text to read."""
    links = Qt.TextInteractionFlag.LinksAccessibleByKeyboard
    return isinstance(widget, QLabel) and bool(widget.textInteractionFlags() & links)


def first_field(page: QWidget) -> QWidget | None:
    """The first field of ``page`` in tab order: the first focusable widget that is neither a field's "?"
    help link nor the scroll area around the page's fields."""
    widget = page.nextInFocusChain()
    while widget is not page:
        if (
            page.isAncestorOf(widget)
            and keyboard_focusable(widget)
            and not _help_link(widget)
            and not isinstance(widget, QScrollArea)
        ):
            return widget
        widget = widget.nextInFocusChain()
    return None
