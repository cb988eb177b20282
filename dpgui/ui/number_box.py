"""A spin box that reads a number as people type it: 0.0001, 1e-5, 2.5E+1, in the locale's decimal mark.

QDoubleSpinBox's validator keeps the characters it expects and drops the others, and rounds to its fixed
number of decimals: a GUI audit typed ``1e-5`` into the release's ε and got ε = 15, and ``0.0001`` snapped
back to the previous value because three decimals read it as 0. Here a text is read whole or not at all
(:func:`read_number`), the value keeps its significant digits, and a number outside the range ends the
edit on the nearest end of the range, in view (``1e-7`` for an ε of at least 1e-6 reads 1e-06).
"""

from __future__ import annotations

import math
import re

from PySide6.QtGui import QValidator
from PySide6.QtWidgets import QDoubleSpinBox, QWidget

SIGNIFICANT_DIGITS = 10
"""Digits shown for a value: 0.05, 1e-06, 12.5 (not 0.050000000)."""
STORED_DECIMALS = 15
"""Decimals the spin box keeps: enough for ε = 1e-6 with nine significant digits."""

_PARTIAL = re.compile(r"[+-]?(\d+\.?\d*|\.\d*)?([eE][+-]?\d*)?")
"""A text on its way to a number (``1e``, ``-``, ``.``): kept while typing, never read as one."""


def _partial(text: str, decimal_point: str) -> str | None:
    """``text`` stripped, with a point for the decimal mark, when it is a number or on its way to one."""
    cleaned = text.strip().replace(decimal_point, ".")
    return cleaned if _PARTIAL.fullmatch(cleaned) else None


def read_number(text: str, decimal_point: str = ".") -> float | None:
    """The finite number ``text`` writes (scientific notation too; the locale's decimal mark or a point),
    or None when the whole text is not one."""
    cleaned = _partial(text, decimal_point)
    if not cleaned:  # float() would also read 'inf', 'nan', '1_000'
        return None
    try:
        number = float(cleaned)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


class NumberBox(QDoubleSpinBox):
    """A QDoubleSpinBox over ``[minimum, maximum]`` that reads scientific notation and keeps small values."""

    def __init__(self, minimum: float, maximum: float, value: float, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setDecimals(STORED_DECIMALS)
        self.setRange(minimum, maximum)
        self.setValue(value)

    def textFromValue(self, value: float) -> str:
        return self.locale().toString(value, "g", SIGNIFICANT_DIGITS)

    def valueFromText(self, text: str) -> float:
        number = read_number(text, self.locale().decimalPoint())
        return self.value() if number is None else number

    def fixup(self, text: str) -> str:
        """An edit that ends on a number outside the range: the nearest end of the range; on no number:
        the value before the edit."""
        number = read_number(text, self.locale().decimalPoint())
        if number is None:
            return self.textFromValue(self.value())
        return self.textFromValue(min(max(number, self.minimum()), self.maximum()))

    def validate(self, text: str, position: int) -> tuple[QValidator.State, str, int]:
        number = read_number(text, self.locale().decimalPoint())
        if number is not None and self.minimum() <= number <= self.maximum():
            return QValidator.State.Acceptable, text, position
        partial = _partial(text, self.locale().decimalPoint()) is not None
        return (QValidator.State.Intermediate if partial else QValidator.State.Invalid), text, position
