"""Pins the hashing learner's sample size n_rep(k) in each of its three regimes (mutation scan 19).

The existing tests check spec 003 A5's worked number 2032, where the first term (16/(alpha eps)) L binds,
so slips in the other two terms survived: 4, 7, 9 or 16 for the 8 of (8/eps) L, 8 eps for 8/eps, a
division by L, and 20, 39 or 41 for the 40 of (40/eps) ln(4/delta). Also LearnPoints' edges: its error
rate at n = 0 (inf) and n = 1, a one-point domain (no absent-point representative to add), and the
hash width k = ceil(log2(16/(err fail))) (16 as 15 survived); the EM learners' finite-class error
rate at n = 0.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.learners.points import hash_bits, hashing_min_n, learn_points, learn_points_error_rate
from dpgui.algorithms.learners.thresholds import finite_class_error_rate
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.stability import StableSelectionParameters
from tests.recording import RecordingRandom


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


def test_error_rate_of_no_record_and_of_one() -> None:
    """learn_points_error_rate: no records guarantee nothing (inf); from one record on it is
    max(2 gap(beta/2), 8 ln(2/beta))/n, finite."""
    assert learn_points_error_rate(1.0, 1e-6, 0.05, 0) == math.inf
    gap = StableSelectionParameters(1.0, 1e-6).gap_for_success(0.025)
    expected = max(2 * gap, 8 * math.log(40))
    assert learn_points_error_rate(1.0, 1e-6, 0.05, 1) == pytest.approx(expected, rel=1e-12)
    assert learn_points_error_rate(1.0, 1e-6, 0.05, 4) == pytest.approx(expected / 4, rel=1e-12)


def test_a_one_point_domain_releases_its_point_without_noise() -> None:
    """A_dist_safe over a single candidate returns it (data-independent); with every grid point present
    there is no absent point to represent, so LearnPoints adds no score-0 candidate."""
    rng = RecordingRandom(zero=True)
    release = run_to_end(learn_points(np.array([0], dtype=np.uint64), np.array([3]), 1, 1.0, 1e-6, rng))
    assert release.point == 0 and rng.requests == []


def test_hash_bits_is_spec_003_a5s() -> None:
    """Spec 003 A5: k = ceil(log2(16/(err fail))), so the collision rate 2^-k <= (err/4)(fail/4); 12 bits
    at the worked example, and 12 / 11 bits just above / below 16/(err fail) = 2^11."""
    assert hash_bits(0.1, 0.05) == 12
    assert hash_bits(0.1, 0.0758) == 12  # 16/(err fail) = 2110.8
    assert hash_bits(0.1, 0.08054) == 11  # 1986.6
    assert 2.0 ** -hash_bits(0.1, 0.05) <= (0.1 / 4) * (0.05 / 4)


def test_finite_class_error_rate_of_no_record() -> None:
    """The EM learners' alpha = max(8, 4/eps) ln(2|H|/beta)/n guarantees nothing without records (inf)."""
    assert finite_class_error_rate(100, 1.0, 0.05, 0) == math.inf
    assert finite_class_error_rate(100, 1.0, 0.05, 1) == pytest.approx(8 * math.log(4000), rel=1e-12)


@pytest.mark.parametrize(("bits", "records"), [(8, 739), (16, 1183), (32, 2070), (64, 3845)])
def test_finite_class_error_rate_meets_spec_003_s5s_n_em_golden_values(bits: int, records: int) -> None:
    """Spec 003 s5's worked example (REVIEW-001-003-004 s5a): n_EM(2^b) at privacy 1, error 0.1, confidence
    0.05 is 739, 1183, 2070, 3845 records for b = 8, 16, 32, 64: error 0.1 is guaranteed there, not one
    record earlier."""
    assert finite_class_error_rate(2**bits, 1.0, 0.05, records) <= 0.1
    assert finite_class_error_rate(2**bits, 1.0, 0.05, records - 1) > 0.1
