"""Fewer points for a monotone step curve than a screen could show (a CDF over a 2^16-point grid).

Drawing 65,536 steps, and building the band around them, takes the GUI thread over 100 ms, past the 50 ms
it may stall. Keeping every k-th point (and the last) changes a non-decreasing step curve only inside
blocks of k grid points, far below a pixel at the sizes the app draws. Display only: the released table
and the export's CSV keep every value.
"""

from __future__ import annotations

import numpy as np

DISPLAY_POINTS = 4096
"""At most this many points of a step curve are drawn (about four per pixel of a wide screen)."""


def display_points(
    x: np.ndarray, y: np.ndarray, limit: int = DISPLAY_POINTS
) -> tuple[np.ndarray, np.ndarray]:
    """``(x, y)`` thinned to at most ``limit`` + 1 points: every k-th point and the last one."""
    size = len(x)
    if size <= limit:
        return x, y
    step = -(-size // limit)
    keep = np.unique(np.append(np.arange(0, size, step), size - 1))
    return x[keep], y[keep]


VIEW_TAIL = 0.005
"""Share of the released mass left outside each side of a CDF plot's first view."""


def rising_range(x: np.ndarray, cdf: np.ndarray, tail: float = VIEW_TAIL) -> tuple[float, float]:
    """Where a released CDF rises: from the first ``x`` where it exceeds ``tail`` to the first where it
    reaches 1 - ``tail`` (the whole ``x`` when it never does). Post-processing of the DP output only: a CDF
    over a wide declared domain (wages up to 20,000 with most below 2,000) opens on its data, not on a flat
    line; the custodian can still zoom out."""
    if len(x) < 2:
        return (float(x[0]) - 0.5, float(x[0]) + 0.5) if len(x) else (0.0, 1.0)
    first = min(int(np.searchsorted(cdf, tail, side="right")), len(x) - 1)
    last = min(int(np.searchsorted(cdf, 1 - tail, side="left")), len(x) - 1)
    if last <= first:
        return float(x[0]), float(x[-1])
    return float(x[max(first - 1, 0)]), float(x[last])
