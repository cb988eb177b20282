"""Pins of the graphical model's conditional sampling (dpgui/algorithms/pgm.py; post-processing only).

Rows are drawn along the junction tree from conditional CDFs; a parent configuration of zero mass falls
back to the uniform conditional. test_pgm samples only from positive tables, so that fallback is unpinned.
"""

from __future__ import annotations

import numpy as np

from dpgui.algorithms import pgm


def test_conditional_cdfs_normalise_each_row_and_a_zero_row_is_uniform() -> None:
    """Row-normalised running sums ending at exactly 1; an all-zero row gives 1/k, 2/k, ..., 1."""
    joint = np.array([[0.0, 0.0, 0.0, 0.0], [1.0, 3.0, 0.0, 4.0]])
    cdf = pgm.conditional_cdfs(joint)
    np.testing.assert_allclose(cdf[0], [0.25, 0.5, 0.75, 1.0], rtol=0, atol=1e-15)
    np.testing.assert_allclose(cdf[1], [0.125, 0.5, 0.5, 1.0], rtol=0, atol=1e-15)
    assert np.all(cdf[:, -1] == 1.0)


def test_a_row_of_small_positive_mass_is_normalised_not_uniform() -> None:
    """A model's marginal is in probabilities, so a parent row's mass is often below 1: only a row of
    zero mass falls back to uniform (``totals > 0``, not ``> 1``)."""
    cdf = pgm.conditional_cdfs(np.array([[0.1, 0.0, 0.3]]))
    np.testing.assert_allclose(cdf[0], [0.25, 0.25, 1.0], rtol=0, atol=1e-15)
