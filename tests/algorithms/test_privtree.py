"""PrivTree on the grid: exact privacy of the splits, the budget split, and what the release looks like."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from dpgui.algorithms.privtree import PrivTreeParameters, privtree_cdf, privtree_partition
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.tree_cdf import TreeNoise, TreeShape, noise_scale
from dpgui.privacy.random import SeededRandom
from tests.algorithms.test_tree_cdf import RecordingRandom
from tests.exact import max_log_ratio
from tests.explore import output_law
from tests.recording import smallest_releasing_noise


def histograms(cells: int, n: int) -> list[tuple[int, ...]]:
    return [h for h in itertools.product(range(n + 1), repeat=cells) if sum(h) == n]


def neighbours(histogram: tuple[int, ...]) -> list[tuple[int, ...]]:
    """Every histogram obtained by moving one record to another cell (replace one, n public)."""
    out = []
    for source, target in itertools.permutations(range(len(histogram)), 2):
        if histogram[source]:
            moved = list(histogram)
            moved[source] -= 1
            moved[target] += 1
            out.append(tuple(moved))
    return out


def partition_laws(params: PrivTreeParameters, cells: int, n: int) -> dict[tuple[int, ...], dict]:
    return {
        h: output_law(
            lambda rng, h=h: tuple(run_to_end(privtree_partition(np.array(h), params, rng)).tolist()), tail=5
        )[0]
        for h in histograms(cells, n)
    }


def worst_log_ratio(laws: dict[tuple[int, ...], dict]) -> float:
    return max(max_log_ratio(laws[h], laws[g]) for h in laws for g in neighbours(h))


def test_splits_are_eps_dp_on_all_replace_one_neighbours_and_a_quarter_of_the_noise_is_not():
    """Exact laws of the partition on every 4-cell histogram of 3 records (thresholds inside the tails).

    On 4 cells a path holds one data-dependent test (the root's count is n, public), so the worst loss is
    2 / lambda, one test on each of the two paths a replacement touches; the paper's bound 6 / lambda also
    covers the long paths of big grids, which ``test_parameters_follow_the_paper...`` pins.
    """
    epsilon = 2.0
    params = PrivTreeParameters.for_epsilon(epsilon)
    assert params.delta < 4  # every threshold theta - b_hat lies in [-3, delta], inside (-5, 4): exact
    worst = worst_log_ratio(partition_laws(params, 4, 3))
    assert worst <= epsilon * (1 + 1e-9)
    assert worst == pytest.approx(2 / params.scale)
    control = worst_log_ratio(partition_laws(PrivTreeParameters.for_epsilon(4 * epsilon), 4, 3))
    assert control > epsilon  # a quarter of the noise breaks the guarantee: the check has power


def test_parameters_follow_the_paper_with_replace_one_doubling():
    params = PrivTreeParameters.for_epsilon(0.5)
    assert params.scale == pytest.approx(2 * 3 / 0.5)
    assert params.delta == pytest.approx(params.scale * math.log(2))
    assert params.theta == 0.0


def test_budget_splits_between_the_tests_and_the_bucket_tree():
    """At eps = 0.8 (at eps = 1 a share divided by eps would look the same as one multiplied)."""
    counts = np.zeros(256, dtype=np.int64)
    counts[10] = 500
    counts[200:210] = 30
    rng = RecordingRandom(1)
    release = run_to_end(privtree_cdf(counts, int(counts.sum()), 0.8, rng, tree_share=0.3))
    split_scale = PrivTreeParameters.for_epsilon(0.3 * 0.8).scale
    shape = TreeShape.for_grid(release.starts.size, release.bucket_tree.shape.branching)
    tree_scale = noise_scale(TreeNoise.LAPLACE, shape.height, 0.7 * 0.8)
    assert {scale for _, scale, _ in rng.requests} == {split_scale, tree_scale}


def test_leaves_partition_the_grid_and_empty_stretches_stay_whole():
    counts = np.zeros(4096, dtype=np.int64)
    counts[100] = 5000
    starts = run_to_end(privtree_partition(counts, PrivTreeParameters.for_epsilon(1.0), SeededRandom(2)))
    assert starts[0] == 0 and np.all(np.diff(starts) > 0) and starts[-1] < counts.size
    assert starts.size < 40  # about one split per level down to the heavy cell, nothing elsewhere
    assert 100 in starts and 101 in starts  # the heavy cell is isolated


def test_released_cdf_is_monotone_ends_at_one_and_is_close_on_skewed_data():
    rng = np.random.default_rng(3)
    counts = np.bincount(np.minimum(rng.lognormal(3, 1, 20000).astype(int), 4095), minlength=4096)
    cdf = run_to_end(privtree_cdf(counts, int(counts.sum()), 1.0, SeededRandom(4))).cdf
    assert np.all(np.diff(cdf) >= 0) and cdf[-1] == 1.0 and cdf[0] >= 0
    assert np.abs(cdf * counts.sum() - np.cumsum(counts)).max() < 200


def test_a_node_at_depth_two_splits_on_its_count_less_twice_the_bias_per_level():
    """The biased count of Zhang-Xiao-Xie 2016, Alg. 2: max(c(v) - depth(v) delta, theta - delta), split when
    it plus the noise exceeds theta. The exact check above sees one data-dependent split per path, so it
    cannot tell the bias per level; steering the noise shows the smallest split at depth 2."""
    params = PrivTreeParameters.for_epsilon(1.0)
    counts = np.array([7, 5, 0, 0, 0, 0, 0, 0])
    forced = 10**6

    def splits_at_depth_two(z: int) -> bool:
        # root and [0, 4) split, [4, 8) does not; then [0, 2) (count 12) gets z, [2, 4) does not split
        rng = RecordingRandom(zero=True, noise=[forced, forced, -forced, z, -forced])
        return 1 in run_to_end(privtree_partition(counts, params, rng)).tolist()

    c, depth = 12, 2
    assert smallest_releasing_noise(splits_at_depth_two) == math.floor(depth * params.delta - c) + 1
