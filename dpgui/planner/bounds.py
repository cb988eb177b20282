"""Explicit sample-size formulas and lower bounds, each with its source.

Upper bounds are sufficient conditions with explicit constants; lower bounds are proven floors. Shapes
known only up to a constant are in :func:`asymptotic_shapes` and are marked "constant unknown".

References: spec 003 s4 (A2, A5, A9) and s5 (the planner table), spec 000 s3.3, s4.1 and s8
(Lemma 4.15), spec 002 s3.1; REVIEW-001-003-004 s5 confirms the spec 003 formulas and golden values.
"""

from __future__ import annotations

import math
from dataclasses import dataclass


def binary_entropy(p: float) -> float:
    """H(p) in bits."""
    if p in (0.0, 1.0):
        return 0.0
    return -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def log_star(x: float) -> int:
    """How many times log2 is applied before the value is <= 1."""
    count = 0
    while x > 1:
        x = math.log2(x)
        count += 1
    return count


def em_learner_n(hypotheses: float, epsilon: float, error: float, beta: float) -> int:
    """Spec 003 A2: n_EM = ceil(max(4/(eps err), 8/err) (ln M + ln(2/beta))) (realizable, proper)."""
    return math.ceil(max(4 / (epsilon * error), 8 / error) * (math.log(hypotheses) + math.log(2 / beta)))


def representation_learner_n(bits: int, epsilon: float, error: float, beta: float) -> int:
    """Spec 003 A4: n_rep(D) with L = D ln 2 + ln(4/beta)."""
    big_l = bits * math.log(2) + math.log(4 / beta)
    return math.ceil(
        max((16 / (epsilon * error)) * big_l, (8 / error) * big_l, (40 / error) * math.log(4 / beta))
    )


def hashing_bits(error: float, beta: float) -> int:
    """Spec 003 A5: k = ceil(log2(16 / (err beta))) hash bits."""
    return math.ceil(math.log2(16 / (error * beta)))


def learn_points_n(epsilon: float, delta: float, error: float, beta: float) -> int:
    """LearnPoints with A_dist_safe (spec 000 s4.1 [ours], REVIEW-000-002 s1)."""
    return math.ceil(
        max((4 / error) * (1 + math.log(1 / (2 * beta * delta)) / epsilon), (8 / error) * math.log(2 / beta))
    )


def pure_learner_lower_bound(ldim: int, epsilon: float, error: float, beta: float) -> float:
    """Spec 003 A9: certified pure-DP floor, maximised over a grid of delta'.

    n >= (1/eps) ln((2^P - 1)(1 - beta) / ln(1/delta')) with P = (1 - H(err + delta' - err delta')) LDim,
    valid when err + delta' - err delta' < 1/2. A weak but proven floor (no 1/err factor).
    """
    best = 0.0
    for k in range(1, 1000):
        delta_prime = k / 1000
        combined = error + delta_prime - error * delta_prime
        if combined >= 0.5:
            break
        p = (1 - binary_entropy(combined)) * ldim
        inside = (2**p - 1) * (1 - beta) / math.log(1 / delta_prime)
        if inside > 1:
            best = max(best, math.log(inside) / epsilon)
    return best


def pure_sanitizer_lower_bound(domain_size: int, epsilon: float, error: float, beta: float) -> float:
    """Paper 000 Lemma 4.15 (spec 000 s8): a proper pure sanitizer needs this many records.

    m >= ln((|X| - 1)(1 - beta) / beta) / (3 eps err); an improper one half of it (err -> 2 err).
    """
    return math.log((domain_size - 1) * (1 - beta) / beta) / (3 * epsilon * error)


def non_private_upper_bound(vc: int, error: float, beta: float) -> int:
    """BEHW'89 consistent learner (not from the papers; labelled so in the UI)."""
    return math.ceil(max((4 / error) * math.log2(2 / beta), (8 * vc / error) * math.log2(13 / error)))


EHKV_MAX_ERROR = 1 / 8
EHKV_MAX_BETA = 1 / 100
"""Ehrenfeucht, Haussler, Kearns, Valiant 1989 state their bound for err <= 1/8 and beta <= 1/100 only."""


def non_private_lower_bound(vc: int, error: float, beta: float) -> float:
    """EHKV'89 (err <= 1/8, beta <= 1/100): max((v - 1)/(32 err), ((1 - err)/err) ln(1/beta))."""
    return max((vc - 1) / (32 * error), ((1 - error) / error) * math.log(1 / beta))


def two_target_lower_bound(error: float, beta: float) -> float:
    """Records any learner of a class with two concepts differing on one point needs (error, beta < 1/2):
    put mass 2 err on that point x0 and the rest where both agree. A sample that misses x0, probability
    (1 - 2 err)^m, looks the same under both concepts, so under one of them the output errs on x0, an error
    of 2 err > err, with probability at least (1 - 2 err)^m / 2; that is at most beta only if
    m >= ln(1 / (2 beta)) / ln(1 / (1 - 2 err)). Valid where EHKV'89 is not stated."""
    return max(0.0, math.log(1 / (2 * beta)) / math.log(1 / (1 - 2 * error)))


def any_learner_lower_bound(vc: int, error: float, beta: float) -> float:
    """A proven floor for every learner, private or not: EHKV'89 inside its range, else the two-target
    argument (evaluating EHKV at a smaller error or beta would bound a harder problem, not this one)."""
    if error <= EHKV_MAX_ERROR and beta <= EHKV_MAX_BETA:
        return non_private_lower_bound(vc, error, beta)
    return two_target_lower_bound(error, beta)


@dataclass(frozen=True)
class Shape:
    """An asymptotic shape with no known constant (shown only on request, dashed)."""

    name: str
    value: float
    note: str = "constant unknown"


def asymptotic_shapes(domain_bits: int, epsilon: float, delta: float, beta: float) -> list[Shape]:
    """Omega/Theta-only shapes for thresholds (spec 003 s5 display rule 3; spec 002 s8.1)."""
    star = log_star(2.0**domain_bits) if domain_bits < 1000 else log_star(domain_bits) + 1
    shapes = [
        Shape("pure DP, Θ(log|X|/ε)", domain_bits / epsilon),
        Shape("approximate DP floor, Ω(log*|X|)", float(star)),
    ]
    if delta > 0:
        shapes.append(Shape("BNS13 approximate, 16^{log*|X|} ln(1/β)", 16.0**star * math.log(1 / beta)))
        shapes.append(
            Shape("Kaplan et al. Thm 1.2, (1/ε) ln(1/δ) (log*)^2", math.log(1 / delta) * star**2 / epsilon)
        )
    return shapes
