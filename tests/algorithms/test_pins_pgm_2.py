"""More pins of the graphical model (dpgui/algorithms/pgm.py), from the session-20 mutation scan.

CoarseQuery hands mbi the operator norm of a coarsened marginal query (mirror descent's step size uses it);
the fits in test_pgm and test_marginal_table converge with a wrong norm too, so it is pinned here against
the matrix it describes (AIM's coarsened candidates in marginal_table, an extension of spec 005 s4, are
linear queries of the model).
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import pgm
from dpgui.privacy.random import SeededRandom


@pytest.mark.parametrize(
    ("shape", "bins"), [((5, 4), (2, 4)), ((6, 9), (3, 3)), ((7,), (3,)), ((4, 3, 5), (4, 1, 2))]
)
def test_coarse_query_operator_norm_is_the_merge_matrices_spectral_norm_squared(
    shape: tuple[int, ...], bins: tuple[int, ...]
) -> None:
    """||Q||_2^2 of the Kronecker product of the per-axis merge matrices is the product of each axis's
    largest group size (each fine cell sits in one coarse cell, so M M^T is diagonal with the group sizes)."""
    query = pgm.CoarseQuery(shape, bins)
    matrix = np.ones((1, 1))
    for size, b in zip(shape, bins, strict=True):
        matrix = np.kron(matrix, pgm.merge_matrix(size, b))
    assert query.op_norm_sq() == pytest.approx(np.linalg.norm(matrix, 2) ** 2, rel=1e-12)
    largest = np.prod([np.bincount(np.arange(s) * b // s).max() for s, b in zip(shape, bins, strict=True)])
    assert query.op_norm_sq() == float(largest)


def test_a_model_before_any_fit_is_uniform_with_total_one_unless_told() -> None:
    """GraphicalModel.marginal before a fit: the uniform table of the model's total, a probability table
    (total 1) by default; a given total spreads evenly over the clique's cells."""
    np.testing.assert_allclose(pgm.GraphicalModel((2, 3, 4)).marginal((0, 2)), np.full((2, 4), 1 / 8))
    np.testing.assert_allclose(pgm.GraphicalModel((2, 3), total=60.0).marginal((1,)), np.full(3, 20.0))


def test_a_weighted_measurement_is_fitted_as_weights_times_counts() -> None:
    """NoisyMarginal with ``weights``: cell i was measured with standard deviation stddev / weights[i], and
    the fit compares weights * counts to weights * values, so a consistent weighted measurement is fitted
    back exactly (not values / weights)."""
    counts = np.array([10.0, 30.0, 60.0])
    measured = pgm.NoisyMarginal((0,), counts, 1.0, weights=np.array([2.0, 1.0, 0.5]))
    model = pgm.GraphicalModel((3,)).fit([measured], 100.0, 300)
    np.testing.assert_allclose(model.marginal((0,)), counts, rtol=0.02)


def test_weighted_cells_state_the_operator_norm_mbis_weighted_query_does() -> None:
    """The fit's first step size is 2 / (L n), L built from each query's ||Q||^2 / stddev^2: the query
    compared by value must report the largest squared weight, as mbi's ``WeightedQuery`` does."""
    weights = np.array([0.5, 0.25, 0.125])
    theirs = pgm._mbi().WeightedQuery(weights).op_norm_sq()
    assert pgm.WeightedCells(tuple(weights)).op_norm_sq() == pytest.approx(theirs) == 0.25


def test_sampled_rows_follow_cells_of_less_than_one_count() -> None:
    """Sampling draws each cell with the model's probability, however small its count: the only clamp on the
    model's marginal is at 0 (rounding), so a cell of 0.3 of 100 counts is drawn 0.3% of the time, not as if
    it held one count. One column, one key group: the stratified draw puts each cell within 1 of rows x p."""
    measured = pgm.NoisyMarginal((0,), np.array([0.3, 0.5, 99.2]), 0.05)
    model = pgm.GraphicalModel((3,)).fit([measured], 100.0, 300)
    probabilities = model.marginal((0,)) / 100.0
    assert probabilities[0] < 0.006 and probabilities[1] < 0.008
    rows = model.sample(10_000, SeededRandom(4))
    counts = np.bincount(rows[:, 0], minlength=3)
    assert np.all(np.abs(counts - 10_000 * probabilities) < 1 + 1e-9)
