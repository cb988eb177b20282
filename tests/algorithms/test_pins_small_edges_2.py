"""Pins caps and guards at the small end of the paper algorithms' public inputs (mutation scan 19).

Survivors this pins: the rectangle learner's error-rate cap min(1, .) written min(0.5, .) or min(2, .),
and its n = 0 guard; the public cells' stride ceil(M / (max_cells - 1)) written ceil(M / max_cells) (one
cell too many); the SanThresholds CDF's guard max(m, 1) written max(m, 0) (an empty sample's CDF is then
NaN) or max(m, 2) (one record's CDF stops at 1/2); the IP reduction's solver bit-width
max(1, bit_length(cuts - 1)) with max(2, .) or bit_length(cuts - 2); the step CDF's cap at 1 (2 survived);
the EMPTY rectangle's shape; SanThresholds' window levels bit_length(last + first) for last - first.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.learners.ip_threshold import InteriorSolver, IPThresholdParameters
from dpgui.algorithms.public_assisted import PublicCells
from dpgui.algorithms.rectangles import BoxParameters, BoxRelease
from dpgui.algorithms.san_thresholds import StepCDF, _Data


def test_rectangle_error_rate_is_capped_at_1() -> None:
    """The bound (records the box may mislabel)/n is reported as it is up to 1 and capped at 1 above."""
    sizes, epsilon, beta = (50, 200), 2.0, 0.1
    mislabelled = BoxParameters(4000, sizes, epsilon, beta).error_rate * 4000
    assert BoxParameters(500, sizes, epsilon, beta).error_rate == pytest.approx(mislabelled / 500, rel=1e-12)
    assert 0.5 < mislabelled / 500 < 1
    assert BoxParameters(300, sizes, epsilon, beta).error_rate == 1.0
    assert BoxParameters(0, sizes, epsilon, beta).error_rate == 1.0  # no records: guarded, not 1/0


@pytest.mark.parametrize(("distinct", "max_cells"), [(10, 10), (9, 10), (4096, 4096), (100, 2)])
def test_public_cells_keep_at_most_max_cells(distinct: int, max_cells: int) -> None:
    """Module doc: cuts at every r-th distinct public value from the top, r = ceil(M / (max_cells - 1)), so
    at most max_cells - 1 cuts and max_cells cells."""
    cells = PublicCells.from_public(np.arange(distinct, dtype=np.uint64) * 3, 3 * distinct, max_cells)
    stride = math.ceil(distinct / (max_cells - 1))
    assert cells.stride == stride
    assert cells.n_cells == len(range(distinct - 1, -1, -stride)) + 1 <= max_cells


def test_an_empty_samples_step_cdf_is_zero() -> None:
    """F(v) = sum_{b <= v} w_b / max(m, 1): an empty release of an empty sample is 0, not NaN."""
    cdf = StepCDF((), (), 0).cdf(np.array([0, 5], dtype=np.uint64))
    assert cdf.tolist() == [0.0, 0.0]
    one = StepCDF((3,), (1.0,), 1).cdf(np.array([2, 3, 9], dtype=np.uint64))  # one record: F reaches 1
    assert one.tolist() == [0.0, 1.0, 1.0]
    two = StepCDF((3, 7), (1.0, 3.0), 4).cdf(np.array([3, 7], dtype=np.uint64))  # weights / m
    assert two.tolist() == [0.25, 1.0]


@pytest.mark.parametrize(("size", "bits"), [(0, 1), (1, 1), (2, 2), (4, 3), (7, 3), (8, 4), (99, 7)])
def test_ip_reduction_solver_width_holds_every_cut(size: int, bits: int) -> None:
    """The solver's domain is the cuts 0..size: bit_length(size) bits, at least 1 (a one-point grid too)."""
    params = IPThresholdParameters(10**4, size, 1.0, 1e-6, 0.05, InteriorSolver.TREELOG)
    assert params.cut_count == size + 1
    assert params.bits == bits
    assert 2**params.bits >= params.cut_count


def test_step_cdf_is_capped_at_1() -> None:
    """Noisy released weights may sum above m; F is clipped to [0, 1] (spec 000 s5.3, post-processing)."""
    cdf = StepCDF((3, 7), (3.0, 3.0), 4).cdf(np.array([3, 7], dtype=np.uint64))
    assert cdf.tolist() == [0.75, 1.0]


def test_empty_rectangle_predicts_negative_for_every_row() -> None:
    """The EMPTY release labels each of the m rows of an (m, d) grid array negative."""
    grid = np.array([[1, 2], [3, 4], [5, 6]])
    assert BoxRelease(None).contains(grid).tolist() == [False, False, False]


@pytest.mark.parametrize(("first", "last"), [(0, 15), (5, 15), (17, 1023), (600, 700), (9, 9), (0, 9)])
def test_window_maxima_cover_each_level_of_the_range(first: int, last: int) -> None:
    """SanThresholds' I(j), j = 0..bit_length(last - first): the largest count in a window of 2^j grid
    points inside [first, last] (spec 000 s5.3, Fig. 11 step 3), by brute force."""
    values = np.array([2, 5, 6, 9, 10, 15, 17, 40, 600, 650, 651, 700, 1000], dtype=np.uint64)
    counts = np.array([1, 2, 1, 3, 20, 1, 2, 1, 4, 1, 1, 2, 5], dtype=np.int64)  # 20 just outside [0, 9]
    maxima = _Data(values, counts).window_maxima(first, last)
    assert maxima.size == (last - first).bit_length() + 1
    inside = [(int(v), int(c)) for v, c in zip(values, counts, strict=True) if first <= v <= last]
    for j, got in enumerate(maxima.tolist()):
        width = min(1 << j, last - first + 1)
        best = max(
            (sum(c for v, c in inside if a <= v < a + width) for a in range(first, last - width + 2)),
            default=0,
        )
        assert got == best, j
