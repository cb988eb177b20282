"""PrivTree's clamp: a node far below the threshold splits as if its biased count were theta - delta.

Zhang, Xiao, Xie 2016, Alg. 2: b(v) = max(c(v) - depth(v) delta, theta - delta). The privacy proof (s3.3)
uses this floor: nodes whose biased count lies below it are clamped on both neighbours and cost nothing, so
only the nodes above theta - delta on a record's path add to the loss, 3/lambda under add/remove. A lower
floor (theta - 2 delta, mutation scan h25a) lets one more node per path cost up to 1/lambda (4/lambda:
beyond the budget on a deep path), yet the exact 4-cell check cannot see it (its paths hold one test). By
steering the noise, the smallest split of a clamped node at depth two is observed here.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.privtree import PrivTreeParameters, privtree_partition
from dpgui.algorithms.progress import run_to_end
from tests.algorithms.test_tree_cdf import RecordingRandom
from tests.recording import smallest_releasing_noise


@pytest.mark.parametrize(("epsilon", "count"), [(1.0, 1), (0.5, 3), (2.0, 0)])
def test_a_clamped_node_splits_when_theta_minus_delta_plus_the_noise_exceeds_theta(
    epsilon: float, count: int
) -> None:
    params = PrivTreeParameters.for_epsilon(epsilon)
    counts = np.zeros(8, dtype=np.int64)
    counts[0] = count
    depth = 2
    assert count - depth * params.delta < params.theta - params.delta  # [0, 2) is clamped
    forced = 10**6

    def splits_at_depth_two(z: int) -> bool:
        # the root and [0, 4) split, [4, 8) does not; then [0, 2) gets z and [2, 4) does not split
        rng = RecordingRandom(zero=True, noise=[forced, forced, -forced, z, -forced])
        return 1 in run_to_end(privtree_partition(counts, params, rng)).tolist()

    floor = params.theta - params.delta
    assert smallest_releasing_noise(splits_at_depth_two) == math.floor(params.theta - floor) + 1
