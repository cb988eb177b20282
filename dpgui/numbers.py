"""Numbers as a custodian reads them: about four significant digits, separators for large magnitudes.

One formatter for every released value, error and answer shown in the app and the report, so that a CDF
value, a predicted error and a distance answer read alike ("1,235", "0.01235", "12,346"), never "1.2346e+04"
for an ordinary value. Whole numbers (counts, grid values on whole steps) are exact facts and keep every
digit. Scientific notation stays for magnitudes no one reads digit by digit (>= 10^15 or < 10^-4).
"""

from __future__ import annotations

import math
import numbers

SIGNIFICANT = 4
"""Significant digits shown for a non-whole value."""
SEPARATED_FROM = 10_000
"""Magnitudes from which thousands are separated (years such as 1988 stay as they are)."""
PLAIN_RANGE = (1e-4, 1e15)
"""Magnitudes written out in full; outside them, scientific notation."""


def readable(value: object, digits: int = SIGNIFICANT) -> str:
    """``value`` with about ``digits`` significant digits (text and other objects as ``str``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        return str(value)
    if isinstance(value, numbers.Integral):
        return f"{int(value):,}" if abs(int(value)) >= SEPARATED_FROM else str(int(value))
    number = float(value)
    if not math.isfinite(number):
        return str(number)
    magnitude = abs(number)
    if magnitude == 0:
        return "0"
    if not PLAIN_RANGE[0] <= magnitude < PLAIN_RANGE[1]:
        return f"{number:.{digits}g}"
    decimals = max(digits - 1 - math.floor(math.log10(magnitude)), 0)
    rounded = round(number, decimals)
    text = f"{rounded:,.{decimals}f}" if abs(rounded) >= SEPARATED_FROM else f"{rounded:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
