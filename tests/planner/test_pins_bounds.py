"""Pins the planner's explicit sample-size formulas (dpgui/planner/bounds.py) to the papers' numbers.

Spec 003 writes alpha for the privacy epsilon, epsilon for the error and delta for the confidence beta; the
code's arguments are (epsilon, error, beta). Every golden value below is quoted from the spec section named in
its test (spec 003 s4-s5 and REVIEW-001-003-004 s5a confirm them); each formula is also written out here from
the spec, independently of the code, at a point where each of its terms is the one that binds.
"""

from __future__ import annotations

import math

import pytest

from dpgui.planner.bounds import (
    asymptotic_shapes,
    binary_entropy,
    em_learner_n,
    hashing_bits,
    learn_points_n,
    log_star,
    non_private_lower_bound,
    non_private_upper_bound,
    pure_learner_lower_bound,
    pure_sanitizer_lower_bound,
    representation_learner_n,
)


def test_em_learner_n_matches_the_thresholds_golden_values() -> None:
    """Spec 003 s5 worked example (and REVIEW-001-003-004 s5a): n_EM(2^b) at privacy 1, error 0.1,
    confidence 0.05 is 739, 1183, 2070, 3845 for b = 8, 16, 32, 64."""
    assert [em_learner_n(2**b, 1.0, 0.1, 0.05) for b in (8, 16, 32, 64)] == [739, 1183, 2070, 3845]


@pytest.mark.parametrize(
    ("epsilon", "error", "beta", "size"), [(0.1, 0.1, 0.05, 2**16), (1.0, 0.02, 0.01, 300)]
)
def test_em_learner_n_is_spec_003_a2(epsilon: float, error: float, beta: float, size: int) -> None:
    """Spec 003 A2: n_EM = ceil(max(4/(eps err), 8/err) (ln M + ln(2/beta))); the first case has the
    4/(eps err) term binding (the goldens above have 8/err binding)."""
    expected = math.ceil(max(4 / (epsilon * error), 8 / error) * (math.log(size) + math.log(2 / beta)))
    assert em_learner_n(size, epsilon, error, beta) == expected
    assert em_learner_n(2**16, 0.1, 0.1, 0.05) == math.ceil(400 * (16 * math.log(2) + math.log(40)))


def test_hashing_bits_and_the_point_learner_size_match_spec_003_a5() -> None:
    """Spec 003 A5: k = ceil(log2(16/(err beta))) = 12 and n_rep(k) = 2032 at privacy 1, error 0.1,
    beta 0.05."""
    assert hashing_bits(0.1, 0.05) == 12
    assert hashing_bits(0.1, 0.01) == math.ceil(math.log2(16 / 0.001)) == 14
    # 16/(err beta) just above 2^11 (2110.8) and just below it (1986.6): 12 and 11 bits
    assert hashing_bits(0.1, 0.0758) == 12
    assert hashing_bits(0.1, 0.08054) == 11
    assert representation_learner_n(12, 1.0, 0.1, 0.05) == 2032


def test_representation_learner_n_third_term_matches_spec_003_s5_rule_5() -> None:
    """Spec 003 s5 display rule 5: the distribution-specific cover (|H| <= 2 ceil(4/err) + 2 = 82, so
    D = 6 bits) needs n_rep = 1753 at the worked parameters: the (40/err) ln(4/beta) term of A4 binds."""
    assert representation_learner_n(6, 1.0, 0.1, 0.05) == math.ceil(400 * math.log(80)) == 1753


@pytest.mark.parametrize(("bits", "epsilon"), [(12, 0.5), (40, 4.0), (6, 1.0)])
def test_representation_learner_n_is_spec_003_a4(bits: int, epsilon: float) -> None:
    """Spec 003 A4: n_rep(D) = ceil(max((16/(eps err)) L, (8/err) L, (40/err) ln(4/beta))) with
    L = D ln 2 + ln(4/beta). At eps = 4 the (8/err) L term binds; at eps = 0.5 the first; at D = 6 the
    third."""
    error, beta = 0.1, 0.05
    big_l = bits * math.log(2) + math.log(4 / beta)
    expected = math.ceil(
        max(16 / (epsilon * error) * big_l, 8 / error * big_l, 40 / error * math.log(4 / beta))
    )
    assert representation_learner_n(bits, epsilon, error, beta) == expected


def test_learn_points_n_matches_spec_000_s4_1() -> None:
    """Spec 000 s4.1 [ours] (verified in REVIEW-000-002 s1): LearnPoints with A_dist_safe needs
    m >= max((4/a)(1 + ln(1/(2 beta delta))/eps), (8/a) ln(2/beta)); at eps = 1, delta = 1e-6,
    a = beta = 0.05 the spec quotes "1,369": the bound is 1369.45, so the least whole m is 1370."""
    exact = (4 / 0.05) * (1 + math.log(1 / (2 * 0.05 * 1e-6)) / 1.0)
    assert exact == pytest.approx(1369.45, abs=0.01)
    assert learn_points_n(1.0, 1e-6, 0.05, 0.05) == math.ceil(exact) == 1370


def test_learn_points_n_second_term_binds_at_large_epsilon() -> None:
    """Spec 000 s4.1: at eps = 50 the (8/a) ln(2/beta) term is the larger one."""
    error, beta = 0.05, 0.05
    first = (4 / error) * (1 + math.log(1 / (2 * beta * 1e-6)) / 50.0)
    second = (8 / error) * math.log(2 / beta)
    assert second > first
    assert learn_points_n(50.0, 1e-6, error, beta) == math.ceil(second)


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


def test_non_private_bounds_match_spec_003_s5() -> None:
    """Spec 003 s5 (standard formulas, not from the papers): BEHW'89 gives 562 for VC 1 and 1124 for VC 2 at
    error 0.1, beta 0.05; EHKV'89 max((v - 1)/(32 err), ((1 - err)/err) ln(1/beta)) gives 27 for VC 1."""
    assert non_private_upper_bound(1, 0.1, 0.05) == 562
    assert non_private_upper_bound(2, 0.1, 0.05) == 1124
    assert non_private_upper_bound(1, 0.5, 1e-6) == math.ceil(8 * math.log2(2e6))  # the (4/err) term binds
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


def test_asymptotic_shapes_match_spec_002_s8_1() -> None:
    """Spec 002 s8.1 at |X| = 2^32, eps = 1, delta = 1e-6: log* = 5 and the Thm 1.2 shape
    (1/eps) ln(1/delta) (log*)^2 = 345; the pure shape is log|X|/eps; with delta = 0 only the first two are
    shown (spec 003 s5 rule 3)."""
    shapes = {shape.name: shape.value for shape in asymptotic_shapes(32, 1.0, 1e-6, 0.05)}
    assert shapes["pure DP, Θ(log|X|/ε)"] == 32.0
    assert shapes["approximate DP floor, Ω(log*|X|)"] == 5.0
    assert shapes["Kaplan et al. Thm 1.2, (1/ε) ln(1/δ) (log*)^2"] == pytest.approx(345.39, abs=0.01)
    assert [s.name for s in asymptotic_shapes(32, 2.0, 0.0, 0.05)] == list(shapes)[:2]
    assert asymptotic_shapes(32, 2.0, 0.0, 0.05)[0].value == 16.0
    assert asymptotic_shapes(32, 2.0, 1e-6, 0.05)[3].value == pytest.approx(345.39 / 2, abs=0.01)
    assert all(s.note == "constant unknown" for s in asymptotic_shapes(32, 1.0, 1e-6, 0.05))
    assert asymptotic_shapes(1500, 1.0, 1e-6, 0.05)[1].value == log_star(1500) + 1 == 5.0
    assert asymptotic_shapes(16, 1.0, 1e-6, 0.05)[1].value == 4.0  # log*(2^16), spec 003 s5 rule 4
