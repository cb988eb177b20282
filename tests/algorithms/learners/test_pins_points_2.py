"""Pins the hashing learner's sample size n_rep(k) in each of its three regimes (mutation scan 19).

The existing tests check spec 003 A5's worked number 2032, where the first term (16/(alpha eps)) L binds,
so slips in the other two terms survived: 4, 7, 9 or 16 for the 8 of (8/eps) L, 8 eps for 8/eps, a
division by L, and 20, 39 or 41 for the 40 of (40/eps) ln(4/delta).
"""

from __future__ import annotations

import math

import pytest

from dpgui.algorithms.learners.points import hashing_min_n


def n_rep(bits: int, privacy: float, error: float, failure: float) -> tuple[float, float, float]:
    """Spec 003 A4's three terms, in the app's names (spec alpha = privacy, eps = error, delta = failure):
    (16/(alpha eps)) L (EM loss), (8/eps) L (a bad h looks good), (40/eps) ln(4/delta) (the good h looks
    bad), with L = k ln 2 + ln(4/delta)."""
    log_size = bits * math.log(2) + math.log(4 / failure)
    return (
        16 / (privacy * error) * log_size,
        8 / error * log_size,
        40 / error * math.log(4 / failure),
    )


@pytest.mark.parametrize(
    ("bits", "privacy", "error", "failure", "binding"),
    [
        (12, 1.0, 0.1, 0.05, 0),  # spec 003 A5's worked example: 2032
        (32, 4.0, 0.1, 0.05, 1),  # privacy > 2: the union bound over 2^k hypotheses binds
        (40, 8.0, 0.2, 0.01, 1),
        (4, 4.0, 0.1, 0.05, 2),  # few hypotheses: the good hypothesis' Chernoff tail binds
    ],
)
def test_hashing_min_n_is_spec_003_a4(
    bits: int, privacy: float, error: float, failure: float, binding: int
) -> None:
    """n_rep(k) = ceil(max(...)) of spec 003 A4, checked where each term is the largest."""
    terms = n_rep(bits, privacy, error, failure)
    assert max(terms) == terms[binding]
    assert hashing_min_n(bits, privacy, error, failure) == math.ceil(max(terms))
