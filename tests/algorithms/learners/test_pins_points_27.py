"""LearnPoints with one absent grid point: A_dist still compares the lone positive point with score 0.

Mutation scan h27e: with the absent points' representative appended only when two or more points are
absent, a two-point grid holding positives at one point gave A_dist a single candidate, which it releases
without noise: one positive record's point was released with probability 1, and its neighbour (the record
moved to the other point) never releases it. The tests of test_pins_points.py use grids of 8 points.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.learners.points import learn_points
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import discrete_laplace_tail
from dpgui.privacy.stability import StableSelectionParameters
from tests.recording import RecordingRandom, smallest_releasing_noise

EPSILON, DELTA = 1.0, 1e-6


def releases_point_0(count: int, z: int) -> bool:
    """Whether LearnPoints releases grid point 0 (``count`` positives there, none at point 1) at noise z."""
    rng = RecordingRandom(zero=True, noise=[z])
    values, positives = np.array([0], dtype=np.uint64), np.array([count], dtype=np.int64)
    return run_to_end(learn_points(values, positives, 2, EPSILON, DELTA, rng)).point == 0


@pytest.mark.parametrize("count", [1, 3])
def test_a_lone_point_on_a_two_point_grid_needs_the_gap_to_its_absent_neighbour(count: int) -> None:
    """The code releases point 0 exactly when count + Z >= tau, the gap to the absent point's score 0."""
    params = StableSelectionParameters(EPSILON, DELTA)
    z = smallest_releasing_noise(lambda z: releases_point_0(count, z), -1000, 1000)
    assert params.threshold - z == count


def test_one_positive_record_on_a_two_point_grid_is_released_with_probability_at_most_delta() -> None:
    """Its neighbour moves the record to point 1 and cannot release point 0, so P(point 0) <= delta."""
    params = StableSelectionParameters(EPSILON, DELTA)
    z = smallest_releasing_noise(lambda z: releases_point_0(1, z), -1000, 1000)
    assert discrete_laplace_tail(z, params.noise_scale) <= DELTA
