"""Colours that follow the system palette (light or dark) for plots and custom-painted widgets.

Qt's own widgets follow the platform's palette by themselves; pyqtgraph plots and the budget bar paint
their own colours, so they take them from here: the plot background is the palette's Base colour, axes
and text its Text colour. A :class:`ThemedPlotWidget` re-applies them when the palette changes at run
time; :func:`export_colours` draws a report's plots light whatever the screen shows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

import pyqtgraph as pg
from PySide6.QtCore import QEvent
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from dpgui.ui.accessible import UNTITLED_PLOT, plain_text, plot_description

_export_palette: QPalette | None = None
"""Set while a plot is drawn for a report: exports are light whatever the screen's palette."""


def palette() -> QPalette:
    """The palette plots are drawn in: the application's, or the light one while exporting."""
    return _export_palette if _export_palette is not None else QGuiApplication.palette()


def palette_with(colours: Mapping[QPalette.ColorRole, str]) -> QPalette:
    """The application's palette with the given roles recoloured."""
    result = QPalette(QGuiApplication.palette())
    for role, colour in colours.items():
        result.setColor(role, QColor(colour))
    return result


def light_palette() -> QPalette:
    """Dark text on white: the colours of an exported (printed, e-mailed) plot."""
    role = QPalette.ColorRole
    return palette_with(
        {role.Window: "#ffffff", role.Base: "#ffffff", role.Text: "#222222", role.WindowText: "#222222"}
    )


_ROLE = QPalette.ColorRole
DARK_COLOURS = {
    _ROLE.Window: "#2b2b2b",
    _ROLE.WindowText: "#e8e8e8",
    _ROLE.Base: "#1f1f1f",
    _ROLE.AlternateBase: "#292929",
    _ROLE.Text: "#ececec",
    _ROLE.PlaceholderText: "#9a9a9a",
    _ROLE.Button: "#3a3a3a",
    _ROLE.ButtonText: "#e8e8e8",
    _ROLE.BrightText: "#ffffff",
    _ROLE.Highlight: "#3d6fb4",
    _ROLE.HighlightedText: "#ffffff",
    _ROLE.Accent: "#3d6fb4",
    _ROLE.Link: "#8ab4f8",
    _ROLE.LinkVisited: "#c58af9",
    _ROLE.ToolTipBase: "#2b2b2b",
    _ROLE.ToolTipText: "#e8e8e8",
    _ROLE.Light: "#4a4a4a",
    _ROLE.Midlight: "#3f3f3f",
    _ROLE.Mid: "#242424",
    _ROLE.Dark: "#1d1d1d",
    _ROLE.Shadow: "#121212",
}
"""Every role of :func:`dark_palette`: a light palette's links (blue, magenta), placeholder text (half-black)
and bevels (white to grey) left in a dark one are unreadable or glaring."""
DARK_DISABLED_COLOURS = {
    _ROLE.WindowText: "#8c8c8c",
    _ROLE.Text: "#8c8c8c",
    _ROLE.ButtonText: "#8c8c8c",
    _ROLE.PlaceholderText: "#6a6a6a",
    _ROLE.Base: "#2b2b2b",
    _ROLE.Highlight: "#555555",
    _ROLE.HighlightedText: "#b0b0b0",
}
"""The disabled widgets' colours of :func:`dark_palette` (dimmed, as a disabled button's text)."""


def dark_palette() -> QPalette:
    """Light text on dark grey: the README's dark screenshot and the dark-palette tests. Every role is set
    (links and placeholder text included) and disabled text is dimmed."""
    result = palette_with(DARK_COLOURS)
    for role, colour in DARK_DISABLED_COLOURS.items():
        result.setColor(QPalette.ColorGroup.Disabled, role, QColor(colour))
    return result


@contextmanager
def export_colours() -> Iterator[None]:
    """Within the block, plots are created and drawn in :func:`light_palette`'s colours."""
    global _export_palette
    _export_palette = light_palette()
    try:
        yield
    finally:
        _export_palette = None


def is_dark(colours: QPalette | None = None) -> bool:
    """Whether the palette's window colour is dark (the system's dark mode, or a dark theme)."""
    return (colours or palette()).color(QPalette.ColorRole.Window).lightness() < 128


def muted_colour(colours: QPalette | None = None) -> QColor:
    """A grey for reference layers (true values, grids) that is visible on the background."""
    return QColor("#a0a0a0") if is_dark(colours) else QColor("#707070")


def text_colour(colours: QPalette | None = None) -> QColor:
    return (colours or palette()).color(QPalette.ColorRole.Text)


def background_colour(colours: QPalette | None = None) -> QColor:
    return (colours or palette()).color(QPalette.ColorRole.Base)


SIDES = ("bottom", "left")
"""The axes a plot's accessible description names, horizontal first."""


class ThemedPlotWidget(pg.PlotWidget):
    """A ``pg.PlotWidget`` in the palette's Base and Text colours, re-coloured on a palette change, and named
    and described for a screen reader by its title and axis titles (:mod:`dpgui.ui.accessible`)."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.pop("background", None)
        super().__init__(*args, **kwargs)
        for side in ("left", "bottom", "right", "top"):
            # ticks in the values' own terms: a simulated error of 0.0035 read "3.5" on an axis whose
            # "(x0.001)" sat in its title, cut off on a short plot (a GUI audit at 1280 x 720)
            self.getPlotItem().getAxis(side).enableAutoSIPrefix(False)
        self.apply_palette()
        self.subject = UNTITLED_PLOT
        """What the plot shows, its accessible name while it has no title."""
        self._describe()

    def set_subject(self, subject: str) -> None:
        """Name the plot ``subject`` for a screen reader while it has no title (a plot under a caption)."""
        self.subject = subject
        self._describe()

    def setTitle(self, title: str | None = None, **args: object) -> None:
        """Set the plot's title, and name the plot after it for a screen reader."""
        self.getPlotItem().setTitle(title, **args)
        self._describe()

    def setLabel(self, axis: str, text: str | None = None, *args: object, **kwargs: object) -> None:
        """Set an axis title, and say in the plot's accessible description what the axes show."""
        self.getPlotItem().setLabel(axis, text, *args, **kwargs)
        self._describe()

    def _describe(self) -> None:
        """The accessible name (the title) and description (title and axis titles) of what is shown."""
        item = self.getPlotItem()
        title = plain_text(item.titleLabel.text or "")
        self.setAccessibleName(title or self.subject)
        axes = (item.getAxis(side).labelText if item.getAxis(side).isVisible() else "" for side in SIDES)
        self.setAccessibleDescription(plot_description(title or self.subject, *axes))

    def apply_palette(self) -> None:
        self.setBackground(background_colour())
        text = text_colour()
        item = self.getPlotItem()
        for name in ("left", "bottom", "right", "top"):
            axis = item.getAxis(name)
            axis.setPen(pg.mkPen(text))
            axis.setTextPen(pg.mkPen(text))
        if item.legend is not None:
            item.legend.setBrush(translucent_background())
            item.legend.setLabelTextColor(text)
            for _, label in item.legend.items:  # the labels already there keep their colour otherwise
                label.setText(label.text, color=text.name())
        item.titleLabel.setAttr("color", text.name())
        if item.titleLabel.text:
            item.setTitle(item.titleLabel.text, color=text.name())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.PaletteChange and getattr(self, "plotItem", None) is not None:
            self.apply_palette()
        super().changeEvent(event)


def translucent_background(alpha: int = 220) -> tuple[int, int, int, int]:
    """The plot background with ``alpha``: behind legends and labels drawn over data."""
    colour = background_colour()
    return colour.red(), colour.green(), colour.blue(), alpha


def legend_style() -> dict[str, object]:
    """Keyword arguments of ``PlotItem.addLegend`` for the current palette."""
    return {"labelTextColor": text_colour().name(), "brush": translucent_background()}


def label_style(position: float, colour: str | None = None) -> dict[str, object]:
    """``labelOpts`` of a ``pg.InfiniteLine``: text in ``colour`` (default: the palette's) on the plot."""
    return {"position": position, "color": colour or text_colour().name(), "fill": translucent_background()}
