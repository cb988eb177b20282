"""A vertical line's label that stays inside its plot: pyqtgraph puts it beside the line, on the side of the
view's centre, and cuts it off at the plot's edge when it is wider than that side (at 1024 x 700 the point
learner's "released point: positive when … = 12" lost its first letters)."""

from __future__ import annotations

import pyqtgraph as pg


class InsideLabel(pg.InfLineLabel):
    """An ``InfLineLabel`` of a vertical line, slid along its row to stay within the view box.

    Beside the line where that side has room; otherwise as near it as the view box allows (the text then
    crosses the line); a text wider than the view box starts at its left edge.
    """

    def updatePosition(self) -> None:
        super().updatePosition()
        view = self.getViewBox()
        width = self.textItem.boundingRect().width()  # pixels: the text is drawn unscaled
        if not isinstance(view, pg.ViewBox) or self.scene() is None or width <= 0:
            return
        # from the line's and the view's geometry, not this item's transform (updated after this call)
        x = self.line.mapToScene(self.pos()).x()
        area = view.sceneBoundingRect()
        left = x - self.anchor[0] * width
        inside = max(area.left(), min(left, area.right() - width))
        if inside != left:
            self.setAnchor(((x - inside) / width, self.anchor[1]))


def inside_line(value: float, text: str, pen: object, **label_options: object) -> pg.InfiniteLine:
    """A vertical line at ``value`` labelled ``text`` (an :class:`InsideLabel` with ``label_options``)."""
    line = pg.InfiniteLine(value, angle=90, pen=pen)
    line.label = InsideLabel(line, text=text, **label_options)
    return line
