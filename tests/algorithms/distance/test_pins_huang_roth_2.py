"""More Huang-Roth pins (spec 004 s2.1 prefix-sum oracle, s8), from the session-20 mutation scan."""

from __future__ import annotations

import numpy as np

from dpgui.algorithms.distance import huang_roth as hr


def test_the_oracle_grid_has_resolution_2_to_the_20_leaving_int64_headroom() -> None:
    """The exact oracle works in int64 units of 1/R with R = 2^20: a value sum over n records is at most
    n R, which fits in int64 for n below 2^43. A finer grid (R = 2^40) would overflow from n = 2^23 (8.4
    million records) without any test at small n noticing; a coarser one adds rounding to every answer."""
    assert hr.snap(np.array([0.0, 0.25, 0.75, 1.0, 1.5])).tolist() == [0, 1 << 18, 3 << 18, 1 << 20, 1 << 20]
    assert np.iinfo(np.int64).max >= hr.RESOLUTION * ((1 << 43) - 1)
