"""Pins of the tree CDF's shape edges and limits (dpgui/algorithms/tree_cdf.py; mutation scan b21).

- A one-leaf grid is a tree of height 1 with one root child; zero leaves are refused.
- D(b) = floor(((b - 1)(h - 1) + r) / 2), the decomposition size the error bound and the branching choice
  use, on trees checked by hand.
- The Gaussian tree refuses a rho that is missing or not positive.
- The a-priori CDF error bound is 0 on a one-point grid (its CDF is the constant 1) and takes beta strictly
  inside (0, 1); it is in records over max(n, 1), so n = 0 and n = 1 give the same, twice n = 2's.
- best_branching breaks ties towards the smaller b: on 2 leaves every b gives the same tree.
- isotonic_increasing takes any array-like (a list, integers) and returns floats.
- A one-point grid releases the CDF [1] with no noise drawn (scale 0, a height-0 shape over one leaf).
- The released CDF is in records over max(n, 1): a single record's CDF jumps from 0 to 1 at its point.
- The live partial CDFs are the consistent counts' running sums over n at the right ends of the nodes
  holding a grid point, level by level.
- The grid limit is inclusive: MAX_TREE_LEAVES points are taken, one more is refused.
- Branching runs 2..64 (MAX_BRANCHING) and grids up to 2^26 points (MAX_TREE_LEAVES), as the refusal
  messages say.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import tree_cdf
from dpgui.algorithms.progress import Progress, run_to_end
from tests.recording import RecordingRandom, ScriptedRandom


def test_a_one_leaf_grid_is_a_tree_of_height_one_and_zero_leaves_are_refused() -> None:
    assert tree_cdf.TreeShape.for_grid(1, 2) == tree_cdf.TreeShape(1, 2, 1, 1)
    assert tree_cdf.TreeShape.for_grid(2, 2) == tree_cdf.TreeShape(2, 2, 1, 2)
    with pytest.raises(ValueError, match="at least one leaf"):
        tree_cdf.TreeShape.for_grid(0, 2)


def test_branching_is_refused_above_64() -> None:
    assert tree_cdf.TreeShape.for_grid(10, 64).root_children == 10
    with pytest.raises(ValueError, match=r"branching must be in \[2, 64\]"):
        tree_cdf.TreeShape.for_grid(10, 65)


def test_the_largest_grid_is_two_to_the_26() -> None:
    assert tree_cdf.MAX_TREE_LEAVES == 2**26


@pytest.mark.parametrize(
    ("leaves", "branching", "nodes"),
    [(1025, 16, 17), (8, 2, 2), (9, 3, 2), (100, 4, 5), (64, 64, 32)],
)
def test_the_decomposition_size_is_the_module_docs_formula(leaves: int, branching: int, nodes: int) -> None:
    """1025 leaves, b = 16: h = 3, r = 5, (15 * 2 + 5) // 2 = 17; 100 leaves, b = 4: h = 4, r = 2, 11 // 2."""
    assert tree_cdf.TreeShape.for_grid(leaves, branching).decomposition_nodes == nodes


@pytest.mark.parametrize("rho", [None, 0.0, -1.0])
def test_the_gaussian_tree_needs_a_positive_rho(rho: float | None) -> None:
    with pytest.raises(ValueError, match="needs rho > 0"):
        tree_cdf.noise_scale(tree_cdf.TreeNoise.GAUSSIAN, 3, 1.0, rho)


def test_the_error_bound_of_a_one_point_grid_is_zero() -> None:
    assert tree_cdf.cdf_error_bound(1, 10, 1.0, 0.1) == 0.0


@pytest.mark.parametrize("beta", [0.0, 1.0])
def test_the_error_bound_refuses_beta_at_the_ends_of_the_unit_interval(beta: float) -> None:
    with pytest.raises(ValueError, match="beta must lie"):
        tree_cdf.cdf_error_bound(100, 10, 1.0, beta)


@pytest.mark.parametrize("noise", list(tree_cdf.TreeNoise))
def test_best_branching_breaks_ties_towards_the_smaller_b(noise: tree_cdf.TreeNoise) -> None:
    assert tree_cdf.best_branching(2, noise) == 2
    assert tree_cdf.best_branching(3, noise) == 3


def test_the_error_bound_divides_by_n_at_least_one() -> None:
    records = tree_cdf.cdf_error_bound(100, 1, 1.0, 0.1, branching=4)
    assert tree_cdf.cdf_error_bound(100, 0, 1.0, 0.1, branching=4) == records
    assert tree_cdf.cdf_error_bound(100, 2, 1.0, 0.1, branching=4) == pytest.approx(records / 2, rel=1e-15)


def test_isotonic_regression_takes_lists_and_integers() -> None:
    for given in ([3, 1, 2, 5], np.array([3, 1, 2, 5])):
        fitted = tree_cdf.isotonic_increasing(given)
        assert fitted.dtype == np.float64
        np.testing.assert_array_equal(fitted, [2.0, 2.0, 2.0, 5.0])
    np.testing.assert_array_equal(tree_cdf.isotonic_increasing([7]), [7.0])


def test_a_one_point_grid_is_released_without_noise() -> None:
    release = run_to_end(tree_cdf.tree_cdf(np.array([7]), 7, 1.0, ScriptedRandom()))
    np.testing.assert_array_equal(release.cdf, [1.0])
    assert release.shape == tree_cdf.TreeShape(1, 2, 0, 1) and release.scale == 0.0


def test_the_grid_limit_takes_exactly_max_tree_leaves(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tree_cdf, "MAX_TREE_LEAVES", 4)
    release = run_to_end(tree_cdf.tree_cdf(np.ones(4), 4, 1.0, RecordingRandom(zero=True)))
    np.testing.assert_array_equal(release.cdf, [0.25, 0.5, 0.75, 1.0])
    with pytest.raises(ValueError, match="coarser granularity"):
        run_to_end(tree_cdf.tree_cdf(np.ones(5), 5, 1.0, RecordingRandom(zero=True)))


def test_one_records_cdf_jumps_from_zero_to_one() -> None:
    release = run_to_end(tree_cdf.tree_cdf(np.array([0, 1, 0, 0]), 1, 1.0, RecordingRandom(zero=True)))
    np.testing.assert_array_equal(release.cdf, [0.0, 1.0, 1.0, 1.0])


def test_the_partials_are_the_exact_cdf_at_each_levels_node_ends() -> None:
    """5 leaves, b = 2: padded to 8; levels of widths 4, 2, 1 hold 2, 3, 5 nodes with a grid point."""
    steps: list[Progress] = []
    counts = np.array([1, 2, 3, 4, 0])
    run_to_end(tree_cdf.tree_cdf(counts, 10, 1.0, RecordingRandom(zero=True), branching=2), steps.append)
    partials = [step.partial for step in steps if isinstance(step.partial, tree_cdf.CdfSoFar)]
    assert [p.level for p in partials] == [1, 2, 3]
    assert [p.indices.tolist() for p in partials] == [[3, 4], [1, 3, 4], [0, 1, 2, 3, 4]]
    expected = [[1.0, 1.0], [0.3, 1.0, 1.0], [0.1, 0.3, 0.6, 1.0, 1.0]]
    for partial, cdf in zip(partials, expected, strict=True):
        np.testing.assert_allclose(partial.cdf, cdf, rtol=0, atol=1e-12)
