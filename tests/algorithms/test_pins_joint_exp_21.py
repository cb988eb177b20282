"""Pins of JointExp's work limit, its epsilon check, its numerics and its within-piece sampling
(dpgui/algorithms/joint_exp.py; mutation scan b21).

- joint_exp_fits takes m K^2 up to and including MAX_WORK, with K = min(n, N) + 1 pieces.
- JointExp refuses an epsilon that is 0, infinite or NaN.
- A huge epsilon (log-weights thousands apart) still samples: the best pieces win.
- Log-weights far below exp's range (every tuple thousands of nats from the target) still sample the best
  tuple: the log-sum-exp shifts by each row's largest finite value.
- Several outputs in one piece are a sorted multiset: Floyd's r-subset of L + r - 1 points, sorted, minus
  their ranks (scripted: subset {9, 2} of 13 points in a 12-point piece gives grid points 2 and 8).
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.joint_exp import MAX_WORK, _Moves, joint_exp_fits, joint_exp_quantiles
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom
from tests.recording import SteeredRandom


def test_the_work_limit_is_inclusive() -> None:
    assert MAX_WORK == 2 * 5000**2
    assert joint_exp_fits(4999, 10**9, 2)  # 5000 pieces: exactly MAX_WORK
    assert not joint_exp_fits(5000, 10**9, 2)
    assert joint_exp_fits(10**9, 4999, 2)  # the domain bounds the pieces too


@pytest.mark.parametrize("epsilon", [0.0, float("inf"), float("nan")])
def test_jointexp_refuses_an_epsilon_that_is_not_finite_and_positive(epsilon: float) -> None:
    with pytest.raises(ValueError, match="epsilon must be a finite number > 0"):
        run = joint_exp_quantiles(np.array([2], dtype=np.uint64), np.array([3]), 10, (0.5,), epsilon, None)
        run_to_end(run)


def test_a_huge_epsilon_releases_a_point_of_the_best_piece() -> None:
    """Ten records at each of 2, 5, 8; the 1/3 and 2/3 quantiles' best pieces are [3, 5] and [6, 8]."""
    values, counts = np.array([2, 5, 8], dtype=np.uint64), np.array([10, 10, 10])
    release = run_to_end(joint_exp_quantiles(values, counts, 10, (1 / 3, 2 / 3), 1e4, SeededRandom(4)))
    assert release.indices[0] in (3, 4, 5) and release.indices[1] in (6, 7, 8)


def test_outputs_sharing_a_piece_are_a_sorted_multiset() -> None:
    """No data: one piece of 12 points holds both outputs (selection 1 = run of 2); Floyd's picks 9, 2."""
    rng = SteeredRandom((1, 9, 2))
    no_data = np.array([], dtype=np.uint64), np.array([], dtype=np.int64)
    release = run_to_end(joint_exp_quantiles(*no_data, 12, (0.3, 0.6), 1.0, rng))
    assert [what for kind, what, _ in rng.trace if kind == "below"] == [12, 13]
    assert release.indices == (2, 8)


def test_log_weights_beyond_exp_range_still_pick_the_best_split() -> None:
    """20,000 records at grid point 100: every pair of quartiles misses its three gap targets by at least
    20,000 ranks in all (log-weights below -5,000 at epsilon 1), and the best pairs, by 2,500 nats, have
    the first at or below 100 and the second above it. Shifting a row by its smallest value instead of
    its largest underflows the masked rows to -inf and releases both at or below 100."""
    values, counts = np.array([100], dtype=np.uint64), np.array([20_000])
    for seed in range(3):
        release = run_to_end(joint_exp_quantiles(values, counts, 200, (0.25, 0.75), 1.0, SeededRandom(seed)))
        assert release.indices[0] <= 100 < release.indices[1]


@pytest.mark.parametrize("span", [10.0, 500.0, 700.0, 740.0, 2000.0])
def test_the_move_sums_match_a_log_sum_exp_whatever_the_span_of_the_log_weights(span: float) -> None:
    """``_Moves.into`` sums in linear space only while no kept term can underflow (LINEAR_SPAN): at a
    span of 700 nats a product in linear space would round the smallest terms, and whole columns, to 0."""
    below = np.array([0.0, 1.0, 3.0, 4.0, 9.0])
    earlier = np.tri(5, k=-1, dtype=bool).T
    moves = _Moves.of(below, 2.0, 0.5, earlier)
    ending = np.array([-span, 0.0, -span / 2, -np.inf, -span / 3])  # piece 1 reached from piece 0 only
    reference = np.array(
        [np.logaddexp.reduce(ending[:k] + moves.log[:k, k]) if k else -np.inf for k in range(5)]
    )
    np.testing.assert_allclose(moves.into(ending), reference, rtol=0, atol=1e-10)  # logs: relative weights
    assert np.isneginf(moves.into(np.full(5, -np.inf))).all()
