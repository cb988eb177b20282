"""Pins the planner's lower bounds (dpgui/planner/bounds.py) to the papers' numbers.

Spec 003 writes alpha for the privacy epsilon, epsilon for the error and delta for the confidence beta; the
code's arguments are (epsilon, error, beta). Every golden value below is quoted from the spec section named in
its test (spec 003 s4-s5 and REVIEW-001-003-004 s5a confirm them); each formula is also written out here from
the spec, independently of the code, at a point where each of its terms is the one that binds.
"""

from __future__ import annotations

import math

import pytest

from dpgui.planner.bounds import (
    binary_entropy,
    log_star,
    non_private_lower_bound,
    pure_learner_lower_bound,
    pure_sanitizer_lower_bound,
)


def test_pure_learner_lower_bound_matches_spec_003_a9_golden_values() -> None:
    """Spec 003 A9 (reproduced in REVIEW-001-003-004 s5a): for Thr_b at privacy 1, error 0.1, beta 0.05 the
    certified pure-DP floor is 1.2, 4.0, 9.8, 21.4 for LDim b = 8, 16, 32, 64."""
    found = [pure_learner_lower_bound(b, 1.0, 0.1, 0.05) for b in (8, 16, 32, 64)]
    assert found == pytest.approx([1.2, 4.0, 9.8, 21.4], abs=0.06)


@pytest.mark.parametrize(("epsilon", "ldim"), [(0.5, 40), (1.0, 6)])
def test_pure_learner_lower_bound_is_the_a9_maximum_over_the_delta_prime_grid(
    epsilon: float, ldim: int
) -> None:
    """Spec 003 A9: n >= (1/eps) ln((2^P - 1)(1 - beta)/ln(1/d')), P = (1 - H(err + d' - err d')) LDim,
    valid while err + d' - err d' < 1/2, maximised over d' = k/1000; written out here at privacy 0.5,
    LDim 40, and at LDim 6, where the best d' gives a floor below ln 2 (0.42)."""
    error, beta = 0.1, 0.05
    best = 0.0
    for k in range(1, 1000):
        d = k / 1000
        c = error + d - error * d
        if c >= 0.5:
            break
        h = -c * math.log2(c) - (1 - c) * math.log2(1 - c)
        inside = (2 ** ((1 - h) * ldim) - 1) * (1 - beta) / math.log(1 / d)
        if inside > 1:
            best = max(best, math.log(inside) / epsilon)
    assert best > 0
    assert pure_learner_lower_bound(ldim, epsilon, error, beta) == pytest.approx(best, rel=1e-12)
    assert pure_learner_lower_bound(1, 1.0, 0.1, 0.05) == 0.0  # 2^P - 1 < ln(1/d'): no floor at LDim 1
    assert pure_learner_lower_bound(64, 1.0, 0.5, 0.05) == 0.0  # err >= 1/2: the bound never applies


def test_pure_sanitizer_lower_bound_matches_paper_000_lemma_4_15() -> None:
    """Paper 000 Lemma 4.15's proof ((X_C - 1) e^{-3 eps a m}(1 - beta) <= beta), spec 000 s8: a proper
    pure sanitizer needs m >= ln((X_C - 1)(1 - beta)/beta)/(3 eps a); 167.5 at |X| = 2^32, eps = 1,
    a = beta = 0.05."""
    assert pure_sanitizer_lower_bound(2**32, 1.0, 0.05, 0.05) == pytest.approx(167.5, abs=0.05)
    expected = math.log((1000 - 1) * (1 - 0.2) / 0.2) / (3 * 0.5 * 0.1)
    assert pure_sanitizer_lower_bound(1000, 0.5, 0.1, 0.2) == pytest.approx(expected, rel=1e-12)


def test_non_private_lower_bound_matches_spec_003_s5() -> None:
    """Spec 003 s5 (standard formulas, not from the papers): EHKV'89 max((v - 1)/(32 err),
    ((1 - err)/err) ln(1/beta)) gives 27 for VC 1 at error 0.1, beta 0.05."""
    assert non_private_lower_bound(1, 0.1, 0.05) == pytest.approx(9 * math.log(20))
    assert round(non_private_lower_bound(1, 0.1, 0.05)) == 27
    assert non_private_lower_bound(201, 0.1, 0.01) == pytest.approx(200 / 3.2)  # the VC term binds


def test_log_star_and_binary_entropy() -> None:
    """log* counts log2 steps down to <= 1: log*(2^16) = 4 and log*(2^16 + 1) = 5 (spec 003 s5 rule 4:
    "log* b <= 4 for all b <= 65536"); log*(2^32) = log*(2^64) = 5 (spec 002 s8.1). H is in bits."""
    points = (1, 2, 3, 16, 17, 2**16, 2**16 + 1, 2.0**32, 2.0**64)
    assert [log_star(x) for x in points] == [0, 1, 2, 3, 4, 4, 5, 5, 5]
    assert binary_entropy(0.5) == 1.0
    assert binary_entropy(0.0) == binary_entropy(1.0) == 0.0
    assert binary_entropy(0.25) == pytest.approx(0.8112781244591328)
