"""A synthetic table's numeric cells are written without binary rounding noise (0.3, not
0.30000000000000004), and each still falls in its own cell of the declared grid."""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.data.domain import NumericDomain, Snap
from dpgui.data.missing import MissingPolicy
from dpgui.tasks.table import cell_values


@pytest.mark.parametrize(
    ("domain", "written"),
    [
        (NumericDomain(0, 1, 0.1), [f"{k / 10:.1f}" for k in range(11)]),
        (NumericDomain(-0.1, 1.1, 0.35), ["-0.1", "0.25", "0.6", "0.95"]),
        (NumericDomain(1e6, 1e6 + 1, 0.35), ["1000000.0", "1000000.35", "1000000.7"]),
        (NumericDomain(0, 1, 0.1, snap=Snap.UP), None),
        (NumericDomain(0, 1, 1 / 3, snap=Snap.UP), None),
        (NumericDomain(-5e-7, 5e-7, 1e-7), None),
    ],
)
def test_grid_points_are_written_plainly_and_stay_in_their_cells(domain: NumericDomain, written):
    indices = np.arange(domain.size)
    values = cell_values(domain, indices, MissingPolicy())
    assert np.array_equal(domain.to_grid(values.to_numpy(np.float64)).astype(np.int64), indices)
    assert values.between(domain.lower, domain.upper).all()
    assert all(len(str(value)) <= 16 for value in values)  # no 0.30000000000000004
    if written is not None:
        assert list(values.astype(str)) == written
