"""The tree CDF's consistency step is the least-squares fit of its noisy nodes, computed apart.

Mutation scan h27e: splitting a parent's residual equally among its children (padding zeros included)
instead of in proportion to their variances went unnoticed: the tests check the output's privacy, shape and
error bound, none its value against the least-squares solution the module cites (Hay et al. 2010 s4,
Honaker 2015 s3). Here the noise is steered and the released CDF compared with the constrained least-squares
fit (every real node observed once, padding exactly 0, the leaves summing to the public n), solved by numpy.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.tree_cdf import TreeShape, real_nodes, tree_cdf
from tests.recording import RecordingRandom

NOISE = [1, -2, 0, 3, -1, 2, -3, 1, 0, 2, -1, 1, 2, -2, 1, 0, 1, -1, 2, 0]


def least_squares_cdf(histogram: np.ndarray, branching: int, noise: list[int]) -> np.ndarray:
    """argmin ||A x - y||^2 subject to sum(x) = n, with one row of A per real node (in the order the tree
    draws its noise: leaves first, each level left to right) and y = A histogram + noise."""
    shape = TreeShape.for_grid(histogram.size, branching)
    rows = []
    for level in range(shape.height, 0, -1):
        width = shape.level_width(level)
        for node in np.flatnonzero(real_nodes(shape, level)):
            row = np.zeros(histogram.size)
            row[node * width : min((node + 1) * width, histogram.size)] = 1.0
            rows.append(row)
    a = np.array(rows)
    y = a @ histogram + np.array(noise[: len(rows)], dtype=np.float64)
    ones = np.ones((histogram.size, 1))
    kkt = np.block([[2 * a.T @ a, ones], [ones.T, np.zeros((1, 1))]])
    solution = np.linalg.solve(kkt, np.concatenate([2 * a.T @ y, [histogram.sum()]]))
    return np.cumsum(solution[: histogram.size]) / histogram.sum()


@pytest.mark.parametrize(
    ("histogram", "branching"),
    [([40, 30, 30], 2), ([20, 25, 15, 30, 10], 2), ([10, 20, 30, 25, 15, 30, 20], 3)],
)
def test_the_consistent_cdf_is_the_least_squares_fit_of_the_noisy_nodes(
    histogram: list[int], branching: int
) -> None:
    counts = np.array(histogram, dtype=np.int64)
    release = run_to_end(
        tree_cdf(counts, int(counts.sum()), 1.0, RecordingRandom(noise=NOISE), branching=branching)
    )
    expected = least_squares_cdf(counts.astype(np.float64), branching, NOISE)
    assert np.all(np.diff(expected) > 0) and expected[-1] == pytest.approx(1.0)  # isotonic, clip: no-ops
    np.testing.assert_allclose(release.cdf, expected, rtol=0, atol=1e-12)
