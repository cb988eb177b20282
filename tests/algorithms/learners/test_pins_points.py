"""Pins what LearnPoints hands A_dist_safe, observed by steering its one noise draw (mutation scan 18).

The exact-law test in test_points.py checks a model of the mechanism, not the code's scores, so a
representative of the absent points scored -1 (or 1) instead of 0, or a wrong no-positive fallback,
survived. A score of -1 widens the gap the code tests by one: the gap then moves by 3 between neighbours
(one positive moved from the top point to an absent one), beyond the sensitivity 2 A_dist's threshold is
set for (paper 000 s2.5.3, Prop. 2.26; REVIEW-000-002 s1).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.learners.points import learn_points, learn_points_error_rate
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.stability import StableSelectionParameters
from tests.recording import RecordingRandom, smallest_releasing_noise

EPSILON, DELTA = 1.0, 1e-6


def released(values: list[int], positives: list[int], size: int, z: int) -> object:
    """LearnPoints' output when A_dist's noise draw is z."""
    rng = RecordingRandom(zero=True, noise=[z])
    values_array = np.array(values, dtype=np.uint64)
    positives_array = np.array(positives, dtype=np.int64)
    return run_to_end(learn_points(values_array, positives_array, size, EPSILON, DELTA, rng)).point


def observed_gap(values: list[int], positives: list[int], size: int) -> int:
    """The top-two gap the code compares with A_dist's threshold: threshold - (smallest releasing noise)."""
    threshold = StableSelectionParameters(EPSILON, DELTA).threshold
    z = smallest_releasing_noise(lambda z: released(values, positives, size, z) is not None, -1000, 1000)
    return threshold - z


@pytest.mark.parametrize("count", [1, 5, 40])
def test_absent_points_compete_with_score_zero(count: int) -> None:
    """One positive point with ``count`` positives on a grid of 8: the runner-up is an absent point of
    score 0, so the code's gap is exactly ``count`` (a -1 would make it count + 1)."""
    assert observed_gap([5], [count], 8) == count
    assert released([5], [count], 8, 1000) == 5


def test_gap_between_two_present_points_is_their_count_difference() -> None:
    """Both top candidates present (no representative needed): the gap is their count difference."""
    assert observed_gap([2, 6], [9, 4], 8) == 5
    assert observed_gap([2, 6], [9, 4], 2) == 5


def test_no_positives_compares_grid_points_0_and_1_at_score_zero() -> None:
    """With no positive row every score is 0: the gap is 0 and the (rare) release is grid point 0."""
    assert observed_gap([3], [0], 8) == 0
    assert released([3], [0], 8, 1000) == 0


@pytest.mark.parametrize(
    ("epsilon", "delta", "alpha", "beta"),
    [(1.0, 1e-6, 0.05, 0.05), (1.0, 1e-6, 0.2, 0.01), (10.0, 0.1, 0.05, 0.05)],
)
def test_min_n_is_the_specs_bound(epsilon: float, delta: float, alpha: float, beta: float) -> None:
    """Spec 000 s4.1: m >= max{2 gap(beta/2)/alpha, (8/alpha) ln(2/beta)}, gap(b) = A_dist's gap for success
    w.p. >= 1 - b (Chernoff takes the other beta/2); the error rate is its inverse in alpha. At eps = 10,
    delta = 0.1 the Chernoff term is the larger one."""
    params = StableSelectionParameters(epsilon, delta)
    gap = params.threshold + params.noise_scale * math.log(1 / beta)  # gap_for_success(beta / 2)
    expected = math.ceil(max(2 * gap / alpha, 8 / alpha * math.log(2 / beta)))
    assert learn_points_error_rate(epsilon, delta, beta, expected) <= alpha
    assert learn_points_error_rate(epsilon, delta, beta, expected - 1) > alpha
    assert learn_points_error_rate(epsilon, delta, beta, 1000) == pytest.approx(
        max(2 * gap, 8 * math.log(2 / beta)) / 1000, rel=1e-12
    )
