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
