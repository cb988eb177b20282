"""Pins SanThresholds' "small range" test and the public-data CDF's shift tolerance (mutation scan 19).

Survivors this pins: SanThresholds releasing a range whose noisy count is <= alpha m/8 (not < alpha m/8),
or comparing with alpha/(8m); the shift diagnostic's tolerance with beta/2, beta/4 or beta/6 per term
instead of beta/3; DKW's guard max(n, 1) written max(n, 0) (an empty private sample divides by zero) or
max(n, 2) (a one-point public sample gets a tolerance for two); the histogram/tree switch at 1,500 cells
(1,499, 1,501, 750 or 3,000 survived); smallest_n starting its doubling at 2 (m = 1 is then never found).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.public_assisted import CellCDF, PublicCells, dkw, noise_bound, shift_diagnostic
from dpgui.algorithms.san_points import smallest_n
from dpgui.algorithms.san_thresholds import SanThresholdsPlan, san_thresholds
from dpgui.algorithms.tree_cdf import cdf_error_bound
from tests.recording import RecordingRandom, smallest_releasing_noise


def first_range_split(m: int, alpha: float, z: int) -> bool:
    """Whether SanThresholds goes on to split [0, 15] (runs its exponential mechanism) when the whole
    range's noisy count is m + z (all m records at grid value 3; later draws steered to zero noise)."""
    plan = SanThresholdsPlan.for_target(1.0, 1e-6, alpha)
    values, counts = np.array([3], dtype=np.uint64), np.array([m], dtype=np.int64)
    rng = RecordingRandom(0, zero=True, noise=[z])
    run_to_end(san_thresholds(values, counts, 16, plan, rng))
    return len(rng.log_weights) > 0


@pytest.mark.parametrize(("m", "alpha"), [(32, 0.5), (64, 0.25), (80, 1.0)])
def test_san_thresholds_releases_a_range_whose_noisy_count_is_below_alpha_m_over_8(
    m: int, alpha: float
) -> None:
    """Spec 000 s5.3 (paper 000 Fig. 11 step 2): a range whose noisy count is < alpha m/8 is released
    whole; at exactly alpha m/8 (an integer here) the algorithm splits it."""
    z = smallest_releasing_noise(lambda z: first_range_split(m, alpha, z), -m - 50, 0)
    assert m + z == alpha * m / 8


@pytest.mark.parametrize(("n", "epsilon", "beta"), [(5000, 1.0, 0.05), (40, 0.3, 0.2)])
def test_shift_diagnostic_tolerance_splits_beta_in_thirds(n: int, epsilon: float, beta: float) -> None:
    """Spec 001 s8.1: the KS distance between the release and the public CDF at the cell ends is compared
    with DKW for the public sample + DKW for the private one + the noise bound, each at beta/3."""
    cells = PublicCells.from_public(np.array([2, 5, 9], dtype=np.uint64), 12)
    release = CellCDF(cells, np.array([0.0, 0.2, 0.5, 0.8, 1.0]))
    diagnostic = shift_diagnostic(release, n, epsilon, beta)
    third = beta / 3
    expected = dkw(3, third) + dkw(n, third) + noise_bound(cells.n_cells, n, epsilon, third)
    assert diagnostic.tolerance == pytest.approx(expected, rel=1e-12)
    assert diagnostic.distance == pytest.approx(0.2, rel=1e-12)
    assert diagnostic.mass_above_public == pytest.approx(0.2, rel=1e-12)  # above the largest public value


def test_dkw_of_one_record_and_of_none() -> None:
    """DKW sqrt(ln(2/beta)/(2n)) at n = 1 (a one-point public sample); an empty sample is guarded to the
    n = 1 value rather than dividing by zero (the shift diagnostic of an empty private column)."""
    assert dkw(1, 0.05) == pytest.approx(math.sqrt(math.log(40) / 2), rel=1e-12)
    assert dkw(0, 0.05) == dkw(1, 0.05)
    cells = PublicCells.from_public(np.array([4], dtype=np.uint64), 10)
    diagnostic = shift_diagnostic(CellCDF(cells, np.array([0.0, 0.0, 1.0])), 0, 1.0, 0.06)
    assert math.isfinite(diagnostic.tolerance)


WINDOW_CASES = [
    # 64 points 16 apart on [0, 1023]: I(j) = ceil(2^j / 16)
    (1.0, list(range(0, 1024, 16)), [1] * 64, [1, 1, 1, 1, 1, 2, 4, 8, 16, 32, 64]),
    # 6 records at 0, then 58 points 16 apart: the 3 alpha m/32 - I(z - 1) term binds at z = 0
    (0.5, list(range(0, 929, 16)), [6] + [1] * 58, [6, 6, 6, 6, 6, 7, 9, 13, 21, 37, 64]),
]


@pytest.mark.parametrize(("alpha", "values", "counts", "windows"), WINDOW_CASES)
def test_san_thresholds_window_quality_is_fig_11s(
    alpha: float, values: list[int], counts: list[int], windows: list[int]
) -> None:
    """Spec 000 s5.3 (paper 000 Fig. 11 step 4): the exponential mechanism picks the window level z with
    quality min(I(z) - alpha m/32, 3 alpha m/32 - I(z - 1)), I(j) the largest count of a window of 2^j
    grid points (I(-1) = 0), at the per-mechanism epsilon with sensitivity 1."""
    plan = SanThresholdsPlan.for_target(1.0, 1e-6, alpha)
    m = sum(counts)
    rng = RecordingRandom(0, zero=True)
    run_to_end(san_thresholds(np.array(values, dtype=np.uint64), np.array(counts), 1024, plan, rng))
    largest = np.array(windows, dtype=float)
    previous = np.concatenate([[0], largest[:-1]])
    quality = np.minimum(largest - alpha * m / 32, 3 * alpha * m / 32 - previous)
    assert rng.log_weights[0] == pytest.approx(plan.mechanism_epsilon * quality / 2, rel=1e-12)


@pytest.mark.parametrize(
    ("n_cells", "engine"), [(1500, "histogram"), (1501, "tree"), (800, "histogram"), (2000, "tree")]
)
def test_public_cdf_switches_to_the_tree_engine_above_1500_cells(n_cells: int, engine: str) -> None:
    """REVIEW-001-003-004 s4c (module doc): the Laplace histogram's prefix error grows like sqrt(K) and
    the tree engine's polylogarithmically; they cross near K = 1,500, so up to 1,500 cells the histogram
    bound (Chan-Shi-Song Cor. 2.9) applies and above it the tree engine's own."""
    n, epsilon, beta = 10**5, 1.0, 0.05
    tree = cdf_error_bound(n_cells, n, epsilon, beta)
    log_term = math.log(2 * n_cells / beta)
    b = 2 / epsilon
    histogram = max(b * math.sqrt(n_cells), b * math.sqrt(log_term)) * math.sqrt(8 * log_term) / n
    expected = histogram if engine == "histogram" else tree
    assert noise_bound(n_cells, n, epsilon, beta) == pytest.approx(expected, rel=1e-12)
    assert not math.isclose(histogram, tree, rel_tol=1e-3)


def test_smallest_n_is_the_first_m_that_holds() -> None:
    """The sanitizers' sample sizes: the least m >= 1 for a condition monotone in m (doubling, then
    bisection), including m = 1."""
    assert smallest_n(lambda m: True) == 1
    assert [smallest_n(lambda m, k=k: m >= k) for k in (2, 3, 5, 1000, 1025)] == [2, 3, 5, 1000, 1025]
