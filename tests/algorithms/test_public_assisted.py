"""PAP (paper 001 Alg. 3, spec 001 s3.3): public cells, exact privacy of the noisy cells, accuracy."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.public_assisted import (
    HISTOGRAM_MAX_CELLS,
    PublicCells,
    pap_cdf,
    predicted_error,
    shift_diagnostic,
)
from dpgui.privacy.random import SeededRandom
from tests.algorithms.test_san_points import distinct
from tests.exact import discrete_laplace_pmf, max_log_ratio
from tests.recording import RecordingRandom

PUBLIC = np.array([10, 20, 20, 35], dtype=np.uint64)


def cell_law(cell_counts: np.ndarray, scale: float, box: range) -> dict[tuple[int, ...], float]:
    """Exact probability of every noisy cell vector in a box: independent discrete Laplace per cell."""
    law = {}
    for noisy in itertools.product(box, repeat=cell_counts.size):
        z = np.asarray(noisy) - cell_counts
        law[noisy] = float(np.prod(discrete_laplace_pmf(z, scale)))
    return law


def test_cells_follow_the_searchsorted_conventions_and_ignore_duplicates_and_order():
    cells = PublicCells.from_public(PUBLIC, 50)
    shuffled = PublicCells.from_public(np.array([35, 20, 10, 20, 10], dtype=np.uint64), 50)
    assert cells.n_cells == 4 and cells.cuts.tolist() == shuffled.cuts.tolist() == [10, 20, 35]
    # A tie x = u_j counts in P(x <= u_j): it lands in the cell ending at u_j.
    assert cells.cell_of(np.array([0, 10, 11, 20, 21, 35, 36, 49], dtype=np.uint64)).tolist() == [
        0, 0, 1, 1, 2, 2, 3, 3,
    ]  # fmt: skip


def test_noisy_cell_vector_is_eps_dp_exactly_for_a_fixed_public_sample_and_a_wrong_scale_is_caught():
    """Replace one private record (cell 0 -> cell 2): the exact likelihood ratio of the noisy cell vector at
    the recorded scale is at most e^eps, attained; half that scale (forgetting the L1 sensitivity 2)
    exceeds it."""
    epsilon = 1.0
    cells = PublicCells.from_public(PUBLIC, 50)
    s = distinct(np.array([3, 12, 15, 40, 40]))
    s_prime = distinct(np.array([25, 12, 15, 40, 40]))
    a, b = cells.cell_counts(*s), cells.cell_counts(*s_prime)
    assert np.abs(a - b).sum() == 2
    rng = RecordingRandom(zero=True)
    run_to_end(pap_cdf(*s, cells, epsilon, rng))
    [(kind, scale, size)] = rng.requests  # the noise the release actually draws
    assert (kind, size) == ("laplace", cells.n_cells)
    box = range(-4, 7)
    worst = max_log_ratio(cell_law(a, scale, box), cell_law(b, scale, box))
    assert worst == pytest.approx(epsilon, abs=1e-9)
    too_little = max_log_ratio(cell_law(a, scale / 2, box), cell_law(b, scale / 2, box))
    assert too_little > 1.9 * epsilon


def test_release_draws_noise_once_and_depends_on_private_data_only_through_cell_counts():
    cells = PublicCells.from_public(PUBLIC, 50)
    rng = RecordingRandom(1)
    first = run_to_end(pap_cdf(*distinct(np.array([3, 12, 15, 40])), cells, 0.7, rng))
    assert len(rng.laplace_scales) == 1
    moved = run_to_end(pap_cdf(*distinct(np.array([9, 19, 11, 49])), cells, 0.7, RecordingRandom(1)))
    assert first.boundary_cdf.tolist() == moved.boundary_cdf.tolist()


def test_noise_off_cdf_is_exact_at_public_points_and_steps_between_them():
    """Spec 001 s9: F(u_k) = #{x <= u_k}/n; strictly between public points F equals its left point's value."""
    private = np.array([0, 5, 10, 10, 15, 20, 30, 36, 49, 49])
    cells = PublicCells.from_public(PUBLIC, 50)
    release = run_to_end(pap_cdf(*distinct(private), cells, 1e7, SeededRandom(2)))
    grid = np.array([10, 20, 35, 49], dtype=np.uint64)
    assert release.cdf(grid).tolist() == pytest.approx([0.4, 0.6, 0.7, 1.0])
    assert release.cdf(np.array([0, 9, 11, 19, 21, 34, 36, 48], dtype=np.uint64)).tolist() == pytest.approx(
        [0.0, 0.0, 0.4, 0.4, 0.6, 0.6, 0.7, 0.7]
    )


def test_coarsened_cells_interpolate_by_the_public_sample_and_stay_monotone():
    public = np.arange(0, 1000, 10, dtype=np.uint64)  # 100 distinct public points
    cells = PublicCells.from_public(public, 1000, max_cells=11)
    assert cells.stride == 10 and cells.n_cells == 11
    private = np.arange(0, 1000, dtype=np.uint64)
    release = run_to_end(pap_cdf(*distinct(private), cells, 1e7, SeededRandom(3)))
    cdf = release.cdf(np.arange(1000, dtype=np.uint64))
    truth = np.arange(1, 1001) / 1000
    assert np.all(np.diff(cdf) >= 0)
    assert np.max(np.abs(cdf - truth)) <= 0.011  # interpolation recovers the finer public shape


@pytest.mark.parametrize("n_public", [30, 3000])  # the histogram and the tree engine
def test_noisy_release_is_a_monotone_cdf_in_0_1_ending_at_1(n_public):
    rng = np.random.default_rng(4)
    cells = PublicCells.from_public(rng.integers(0, 100_000, n_public, dtype=np.uint64), 100_000)
    assert (cells.n_cells > HISTOGRAM_MAX_CELLS) == (n_public > HISTOGRAM_MAX_CELLS)
    private = distinct(rng.integers(0, 100_000, 500))
    release = run_to_end(pap_cdf(*private, cells, 0.05, SeededRandom(5)))
    cdf = release.cdf(np.arange(0, 100_000, 7, dtype=np.uint64))
    assert np.all(np.diff(cdf) >= 0) and cdf.min() >= 0 and cdf.max() <= 1
    assert release.boundary_cdf[0] == 0 and release.boundary_cdf[-1] == 1


def test_error_is_within_the_predicted_bound_when_private_data_is_drawn_like_the_public_sample():
    size, m, n, epsilon, beta = 2001, 500, 5000, 1.0, 0.05
    rng = np.random.default_rng(6)
    grid = np.arange(size, dtype=np.uint64)
    failures = 0
    for run in range(20):
        draw = lambda k: np.clip(np.rint(rng.normal(1000, 250, k)), 0, size - 1).astype(np.uint64)  # noqa: E731
        cells = PublicCells.from_public(draw(m), size)
        values, counts = distinct(draw(n))
        release = run_to_end(pap_cdf(values, counts, cells, epsilon, SeededRandom(100 + run)))
        truth = np.concatenate([[0], np.cumsum(counts)])[np.searchsorted(values, grid, side="right")] / n
        bound = predicted_error(n, m, cells.n_cells, cells.stride, epsilon, beta)
        failures += np.max(np.abs(release.cdf(grid) - truth)) > bound
        assert bound < 0.2
    assert failures <= 2  # beta = 0.05 of 20 runs, with slack; the bound is conservative


def test_shift_diagnostic_flags_a_shifted_private_sample_and_not_a_matching_one():
    """Spec 001 s8.1: public N(0,1) vs private N(2.5,1) leaves about 39% of the private mass above u_M."""
    rng = np.random.default_rng(7)
    size = 10_001

    def sample(mean: float, k: int) -> np.ndarray:
        return np.clip(np.rint(5000 + 1000 * rng.normal(mean, 1, k)), 0, size - 1).astype(np.uint64)

    cells = PublicCells.from_public(sample(0, 800), size)
    for mean, expected in ((0.0, False), (2.5, True)):
        values, counts = distinct(sample(mean, 20_000))
        release = run_to_end(pap_cdf(values, counts, cells, 1.0, SeededRandom(8)))
        diagnostic = shift_diagnostic(release, 20_000, 1.0, 0.05)
        assert diagnostic.shift_suspected is expected
    assert diagnostic.mass_above_public > 0.25  # the private mass piles up above the public range


def test_predicted_error_shrinks_with_more_public_and_private_data():
    small = predicted_error(1000, 100, 101, 1, 1.0, 0.05)
    assert predicted_error(100_000, 100, 101, 1, 1.0, 0.05) < small
    assert predicted_error(1000, 1000, 101, 1, 1.0, 0.05) < small
    assert math.isclose(predicted_error(0, 100, 101, 1, 1.0, 0.05), 1.0)
