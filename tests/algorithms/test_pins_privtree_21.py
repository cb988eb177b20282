"""Pins of PrivTree's default budget split and its epsilon check (dpgui/algorithms/privtree.py; mutation
scan b21).

- By default 0.3 of epsilon goes to the split tests (TREE_SHARE, measured in benchmarks/cdf_accuracy.py):
  the first noise request is the split test's lambda = 6 / (0.3 eps).
- A node splits iff its biased count plus the noise *exceeds* theta: at the root (depth 0, theta = 0) the
  biased count is the integer count c, so the smallest splitting noise is -c + 1, not -c.
- tree_share must lie strictly inside (0, 1): at 0 or 1 one stage would get no budget at all.
- The splits refuse an epsilon that is 0, infinite or NaN (lambda would be infinite, 0 or NaN).
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.privtree import PrivTreeParameters, privtree_cdf, privtree_partition
from dpgui.algorithms.progress import run_to_end
from tests.recording import RecordingRandom, smallest_releasing_noise


def test_the_default_split_spends_three_tenths_of_epsilon_on_the_tests() -> None:
    rng = RecordingRandom(zero=True)
    counts = np.array([5, 0, 0, 3])
    run_to_end(privtree_cdf(counts, int(counts.sum()), 0.8, rng))
    assert rng.laplace_scales[0] == pytest.approx(6 / (0.3 * 0.8), rel=1e-12)


@pytest.mark.parametrize("epsilon", [0.0, float("inf"), float("nan")])
def test_the_splits_refuse_an_epsilon_that_is_not_finite_and_positive(epsilon: float) -> None:
    with pytest.raises(ValueError, match="the splits need an epsilon > 0"):
        PrivTreeParameters.for_epsilon(epsilon)


def test_the_root_splits_only_when_its_noisy_count_exceeds_theta() -> None:
    params = PrivTreeParameters.for_epsilon(1.0)
    counts = np.array([2, 1])

    def root_splits(z: int) -> bool:
        rng = RecordingRandom(zero=True, noise=[z])
        return run_to_end(privtree_partition(counts, params, rng)).tolist() == [0, 1]

    assert smallest_releasing_noise(root_splits) == -3 + 1


@pytest.mark.parametrize("share", [0.0, 1.0])
def test_a_tree_share_at_either_end_is_refused(share: float) -> None:
    with pytest.raises(ValueError, match="tree_share must lie strictly between 0 and 1"):
        run_to_end(privtree_cdf(np.array([1, 2]), 3, 1.0, RecordingRandom(zero=True), tree_share=share))
