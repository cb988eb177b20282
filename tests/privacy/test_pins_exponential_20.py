"""Pins from the privacy20 mutation scan of dpgui/privacy/exponential.py (lines outside the keyword scan).

The exponential mechanism over a piecewise-constant score (REVIEW-000-002 s5; McSherry and Talwar 2007):
piece i has log-weight ln(length_i) + eps q_i / (2 Delta), with Delta = 1 unless stated.
"""

from __future__ import annotations

import math

import numpy as np

from dpgui.privacy.exponential import PiecewiseScore
from tests.exact import log_probabilities


def test_piecewise_log_weights_are_log_length_plus_eps_q_over_two() -> None:
    """Guards PiecewiseScore.lengths and log_weights (exponential.py:81/84), default sensitivity 1: pieces
    [0, 0], [1, 4], [5, 104] have lengths 1, 4, 100."""
    score = PiecewiseScore(np.array([0, 1, 5]), np.array([0, 4, 104]), np.array([3.0, -1.0, 0.5]))
    np.testing.assert_array_equal(score.lengths, [1.0, 4.0, 100.0])
    expected = [0.8 * 3.0 / 2, math.log(4) - 0.8 / 2, math.log(100) + 0.8 * 0.5 / 2]
    np.testing.assert_allclose(score.log_weights(0.8), expected, rtol=1e-12)
    np.testing.assert_allclose(score.log_weights(0.8, 2.0), [0.6, math.log(4) - 0.2, math.log(100) + 0.1])


def test_log_probabilities_are_normalised_exactly() -> None:
    """Guards log_probabilities (exponential.py:38/39): weights 1, 2, 5 give probabilities 1/8, 2/8, 5/8,
    whatever constant is added to every log-weight."""
    for shift in (0.0, 700.0, -700.0):
        got = np.exp(log_probabilities(np.log([1.0, 2.0, 5.0]) + shift))
        np.testing.assert_allclose(got, [1 / 8, 2 / 8, 5 / 8], rtol=1e-12)
