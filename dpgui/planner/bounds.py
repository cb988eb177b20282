"""Lower bounds on the records any algorithm needs, each with its source and explicit constants.

``floors`` shows them beside the algorithms' predictions (each algorithm's own sample-size formula lives
with the algorithm). References: spec 003 s4 (A9) and s5 (the planner table), spec 000 s8 (Lemma 4.15),
spec 002 s3.1; REVIEW-001-003-004 s5 confirms the spec 003 formulas and golden values.
"""

from __future__ import annotations

import math


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
