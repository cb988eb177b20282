"""Synthetic records drawn from a released CDF: post-processing only, no privacy cost.

Inverse-CDF sampling on the grid: for U uniform on (0, 1) the record is the smallest grid index whose
released CDF reaches U, so the records follow the released distribution exactly. The number of records is a
public parameter. Nothing private is read here: only the DP release and public randomness.
"""

from __future__ import annotations

import numpy as np

from dpgui.privacy.random import PrivateRandom

SAMPLE_BATCH = 1 << 18
"""Records drawn per batch (2 MiB of uniforms), so the memory of a draw does not grow with the row count."""


def sample_from_cdf(cdf: np.ndarray, rows: int, rng: PrivateRandom) -> np.ndarray:
    """``rows`` grid indices (int64) drawn from the distribution whose CDF over the grid is ``cdf``.

    ``cdf`` must be non-decreasing with last value 1 (as ``tree_cdf`` releases it).
    """
    cdf = np.asarray(cdf, dtype=np.float64)
    if cdf.size == 0 or cdf[-1] != 1.0 or np.any(np.diff(cdf) < 0):
        raise ValueError("a CDF to sample from must be non-decreasing and end at 1")
    if rows < 0:
        raise ValueError("the number of records must be >= 0")
    draws = np.empty(rows, dtype=np.int64)
    for start in range(0, rows, SAMPLE_BATCH):  # bounded temporaries whatever the number of records
        stop = min(rows, start + SAMPLE_BATCH)
        uniforms = rng.uniform01(stop - start)
        draws[start:stop] = np.searchsorted(cdf, uniforms, side="left")  # U < 1 = cdf[-1]: always in range
    return draws
