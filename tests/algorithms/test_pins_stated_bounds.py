"""Pins the sample sizes and error bounds the app states for the exponential-mechanism learners to the
paper's and the spec's formulas (mutation scan 18: a wrong constant in these went unnoticed).

These numbers are what the user is told (the median task's "needs n >= N", the learning task's split and
its "error within ... rows" note), so a constant off by one, or a 2 that became 4, misstates the accuracy
even though privacy is unaffected. Each test checks the formula at several points and, where the spec prints
a number, that number.
"""

from __future__ import annotations

import math

import pytest

from dpgui.algorithms.interior_point import em_interior_point_min_n
from dpgui.algorithms.learners.label_private import label_private_min_n, label_private_split
from dpgui.algorithms.learners.public_assisted import public_em_excess
from dpgui.algorithms.learners.thresholds import (
    Direction,
    em_threshold_error_rate,
    em_threshold_excess,
    finite_class_error_rate,
)
from tests.algorithms.test_san_points import spec_closed_form_epsilon


@pytest.mark.parametrize(("domain", "epsilon", "expected"), [(2**32, 1.0, 103), (2**64, 1.0, 192)])
def test_em_interior_point_min_n_matches_the_spec_table(domain: int, epsilon: float, expected: int) -> None:
    """Spec 002 s8.1, row "EM interior point": n = 2 + (4/eps) ln(|X|/beta) at beta = 0.05 is 103 records
    for a 2^32 domain and 192 for 2^64."""
    assert em_interior_point_min_n(domain, epsilon, 0.05) == expected


@pytest.mark.parametrize(
    ("domain", "epsilon", "beta"), [(100, 0.5, 0.05), (2**32, 0.1, 0.05), (2**64, 2.0, 0.01), (17, 3.0, 0.2)]
)
def test_em_interior_point_min_n_is_the_spec_formula(domain: int, epsilon: float, beta: float) -> None:
    """Spec 002 s3.1: OPT >= n/2, so the EM's output is interior w.p. >= 1 - beta once
    n >= 2 + (4/eps) ln(|X|/beta); the app reports the least such integer n."""
    assert em_interior_point_min_n(domain, epsilon, beta) == math.ceil(
        2 + 4 / epsilon * math.log(domain / beta)
    )


@pytest.mark.parametrize(("alpha", "beta"), [(0.05, 0.05), (0.1, 0.01), (0.2, 0.1)])
def test_label_private_split_is_the_specs_corrected_n(alpha: float, beta: float) -> None:
    """Spec 000 s7.1 "constant slip" [ours], confirmed by REVIEW-000-002 s6: the public S1 has
    n = ceil((64/alpha)(VC ln(128/alpha) + ln(8/beta))) rows (the paper's 32/alpha and 64/alpha give
    error_D(h*) <= alpha/4, not the alpha/8 its proof uses); VC = 1 for thresholds."""
    expected = math.ceil(64 / alpha * (1 * math.log(128 / alpha) + math.log(8 / beta)))
    assert label_private_split(alpha, beta) == expected


def test_label_private_split_at_the_specs_operating_point() -> None:
    """At alpha = beta = 0.05, VC = 1: (64/0.05)(ln 2560 + ln 160) = 1280 x 12.923..., 16,542 rows."""
    assert label_private_split(0.05, 0.05) == 16542


@pytest.mark.parametrize(("alpha", "beta", "epsilon"), [(0.05, 0.05, 1.0), (0.1, 0.02, 0.5), (0.2, 0.1, 3.0)])
def test_label_private_min_n_adds_the_em_event(alpha: float, beta: float, epsilon: float) -> None:
    """Spec 000 s7.1 event E3 (the EM within alpha/4 of the best): m >= n + (8/(alpha eps))(n + ln(4/beta)),
    with eps capped at 1 (E2's Chernoff term (8/alpha)(n + ln(4/beta)) is the eps = 1 case)."""
    n = math.ceil(64 / alpha * (math.log(128 / alpha) + math.log(8 / beta)))
    expected = math.ceil(n + 8 / (alpha * min(epsilon, 1.0)) * (n + math.log(4 / beta)))
    assert label_private_min_n(alpha, beta, epsilon) == expected


@pytest.mark.parametrize(
    ("candidates", "epsilon", "beta"), [(2, 1.0, 0.05), (1000, 0.5, 0.1), (10**6, 2.0, 0.01)]
)
def test_public_em_excess_is_the_exponential_mechanism_bound(
    candidates: int, epsilon: float, beta: float
) -> None:
    """Paper 001 Prop 2.25 / spec 002 s3.1 (Lemma 2.2): w.p. >= 1 - beta the EM's quality is within
    (2/eps) ln(|H|/beta) of the best candidate (sensitivity 1); the learning task quotes this excess."""
    assert public_em_excess(candidates, epsilon, beta) == pytest.approx(
        2 / epsilon * math.log(candidates / beta), rel=1e-12
    )


@pytest.mark.parametrize(
    ("direction", "epsilon", "alpha"),
    [(Direction.GE, 1.0, 0.05), (Direction.AUTO, 0.1, 0.1), (Direction.LE, 2.0, 0.1)],
)
def test_em_threshold_error_rate_is_the_realizable_bound(
    direction: Direction, epsilon: float, alpha: float
) -> None:
    """Spec 000 s3.3 [ours]: the EM over the |C| = (size + 1) x families thresholds has error_D <= alpha
    w.p. >= 1 - beta once m >= max(8/alpha, 4/(alpha eps)) ln(2|C|/beta); its excess empirical error is
    (2/eps) ln(|C|/beta) rows (Lemma 2.2)."""
    size, beta = 2**32, 0.05
    hypotheses = (size + 1) * len(direction.families)
    expected = math.ceil(max(8 / alpha, 4 / (alpha * epsilon)) * math.log(2 * hypotheses / beta))
    assert em_threshold_error_rate(size, direction, epsilon, beta, expected) <= alpha
    assert em_threshold_error_rate(size, direction, epsilon, beta, expected - 1) > alpha
    assert em_threshold_excess(size, direction, epsilon, beta) == pytest.approx(
        2 / epsilon * math.log(hypotheses / beta), rel=1e-12
    )
    rate = max(8, 4 / epsilon) * math.log(2 * hypotheses / beta) / 10**6
    assert em_threshold_error_rate(size, direction, epsilon, beta, 10**6) == pytest.approx(rate, rel=1e-12)
    assert finite_class_error_rate(hypotheses, epsilon, beta, 10**6) == pytest.approx(rate, rel=1e-12)


def test_san_points_spec_closed_form_is_the_specs() -> None:
    """Spec 000 s5.1: eps_t = eps / sqrt(16 I ln(5/delta)); test_san_points.py checks the per-mechanism
    epsilon the code uses is never below it, which a larger constant inside the log would weaken."""
    assert spec_closed_form_epsilon(1.0, 1e-6, 40) == pytest.approx(
        1 / math.sqrt(640 * math.log(5e6)), rel=1e-12
    )
    assert spec_closed_form_epsilon(0.5, 1e-3, 7) == pytest.approx(
        0.5 / math.sqrt(112 * math.log(5e3)), rel=1e-12
    )
