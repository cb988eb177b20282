"""More Huang-Roth pins (spec 004 s2.1 prefix-sum oracle, s8), from the session-20 mutation scan."""

from __future__ import annotations

import numpy as np

from dpgui.algorithms.distance import huang_roth as hr


def test_the_oracle_grid_has_resolution_2_to_the_20_leaving_int64_headroom() -> None:
    """The exact oracle works in int64 units of 1/R with R = 2^20: a value sum over n records is at most
    n R, which fits in int64 for n below 2^43. A finer grid (R = 2^40) would overflow from n = 2^23 (8.4
    million records) without any test at small n noticing; a coarser one adds rounding to every answer."""
    assert hr.snap(np.array([0.0, 0.25, 0.75, 1.0, 1.5])).tolist() == [0, 1 << 18, 3 << 18, 1 << 20, 1 << 20]
    assert np.iinfo(np.int64).max >= hr.RESOLUTION * ((1 << 43) - 1)


def test_a_tangent_is_clipped_to_slope_in_minus_one_one_and_value_in_zero_one() -> None:
    """Spec 004 s2.2/s3 per-query procedure: G_j is 1-Lipschitz with values in [0, 1], so the learner clips
    a noisy slope to [-1, 1] and a noisy value to [0, 1] before adding the tangent (post-processing toward
    the truth)."""
    learner = hr.TangentLearner()
    learner.add_tangent(0.5, 1.7, 3.0)
    learner.add_tangent(0.25, -0.4, -2.5)
    learner.add_tangent(0.75, 0.3, 1.5)
    assert learner.slopes == [0.0, 1.0, -1.0, 1.0]
    assert learner.intercepts == [0.0, 0.5, 0.25, -0.45]


def test_the_exported_envelope_is_the_hypothesis_on_zero_one() -> None:
    """The structure export (post-processing) stores the upper envelope on [0, 1] as knots 0 = t_0 < ... <
    t_m = 1 (spec 004 s4 released object); np.interp over them equals the max of the lines everywhere in
    [0, 1], also when two lines cross left of 0 or right of 1."""
    learner = hr.TangentLearner()
    learner.add_tangent(0.0, 0.5, -1.0)  # 0.5 - v
    learner.add_tangent(0.0, 0.8, 0.5)  # 0.8 + v/2: above the first from v = -0.2 on
    learner.add_tangent(0.9, 0.95, 1.0)  # v + 0.05: above the second from v = 1.5 on (right of 1)
    knots, values = learner.envelope()
    assert knots[0] == 0.0 and knots[-1] == 1.0
    v = np.linspace(0.0, 1.0, 101)
    np.testing.assert_allclose(np.interp(v, knots, values), learner(v), rtol=0, atol=1e-12)


def test_a_calibration_is_trivial_from_half_the_diameter_on() -> None:
    """Spec 004 s3: alpha >= W/2 is no better than answering from the box midpoint (warn); below it the
    calibration is useful."""
    dims = 4
    below = hr._online_parameters(0.49 * dims, 1_000, dims, 0.05, 100, False)
    at = hr._online_parameters(0.5 * dims, 1_000, dims, 0.05, 100, False)
    assert not below.trivial and at.trivial
