"""Pins of DAWA's small-grid edges and public hints (dpgui/algorithms/dawa.py; mutation scan b21).

- A one-cell grid has L = 0 dyadic levels: no candidate is noised and its cost scale 4 L / eps_1 is 0.
- The bucket penalty charges nothing when fewer than 2 buckets are hinted (no tree is needed), and one
  node's standard deviation sqrt(2) 2h / eps_2 from 2 buckets on.
- The hinted number of buckets is sqrt(N), rounded down, at least 2.
- A bucket whose cost ties with splitting it stays whole ("costs no more than"): [10, 0] at penalty 10.
- partition_share must lie strictly inside (0, 1).
- The partition refuses an epsilon that is 0, infinite or NaN.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.dawa import (
    bucket_penalty,
    cost_scale,
    dawa_cdf,
    dawa_partition,
    dyadic_levels,
    typical_buckets,
)
from dpgui.algorithms.progress import run_to_end
from tests.recording import RecordingRandom


def test_a_one_cell_grid_has_no_dyadic_level_and_no_noise() -> None:
    assert [dyadic_levels(n) for n in (1, 2, 3, 4, 5)] == [0, 1, 2, 2, 3]
    assert cost_scale(1, 0.5) == 0.0
    rng = RecordingRandom(zero=True)
    assert run_to_end(dawa_partition(np.array([4]), 0.5, 1.0, rng)).tolist() == [0]
    assert rng.requests == []


def test_the_penalty_starts_at_two_hinted_buckets() -> None:
    assert bucket_penalty(1, 0.8) == 0.0
    assert bucket_penalty(2, 0.8) == pytest.approx(math.sqrt(2) * 2 * 1 / 0.8, rel=1e-12)


@pytest.mark.parametrize(("leaves", "hint"), [(1, 2), (3, 2), (8, 2), (9, 3), (15, 3), (100, 10)])
def test_the_hinted_number_of_buckets_is_the_floor_of_sqrt_n_at_least_two(leaves: int, hint: int) -> None:
    assert typical_buckets(leaves) == hint


@pytest.mark.parametrize("epsilon", [0.0, float("inf"), float("nan")])
def test_the_partition_refuses_an_epsilon_that_is_not_finite_and_positive(epsilon: float) -> None:
    with pytest.raises(ValueError, match="the partition needs an epsilon > 0"):
        cost_scale(16, epsilon)


def test_a_bucket_whose_cost_ties_with_its_halves_stays_whole() -> None:
    """[10, 0]: deviation 10 + penalty 10 against two single cells at 10 each, without noise."""
    partition = run_to_end(dawa_partition(np.array([10, 0]), 1.0, 10.0, RecordingRandom(zero=True)))
    assert partition.tolist() == [0]


@pytest.mark.parametrize("share", [0.0, 1.0])
def test_a_partition_share_at_either_end_is_refused(share: float) -> None:
    with pytest.raises(ValueError, match="partition_share must lie strictly between 0 and 1"):
        run_to_end(dawa_cdf(np.array([1, 2]), 3, 1.0, RecordingRandom(zero=True), partition_share=share))
