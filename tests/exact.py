"""Exact privacy checks shared by the tests: hockey-stick divergences of explicit output laws."""

from __future__ import annotations

import math
from collections.abc import Mapping


def hockey_stick(p: Mapping[object, float], q: Mapping[object, float], epsilon: float) -> float:
    """max over both directions of sum_o max(0, P(o) - e^eps Q(o)); (eps, delta)-DP iff this <= delta."""
    outputs = set(p) | set(q)
    factor = math.exp(epsilon)

    def one_way(a: Mapping[object, float], b: Mapping[object, float]) -> float:
        return math.fsum(max(0.0, a.get(o, 0.0) - factor * b.get(o, 0.0)) for o in outputs)

    return max(one_way(p, q), one_way(q, p))


def max_log_ratio(p: Mapping[object, float], q: Mapping[object, float]) -> float:
    """max_o |ln P(o) - ln Q(o)| over outputs that either law can produce (inf if supports differ)."""
    worst = 0.0
    for o in set(p) | set(q):
        a, b = p.get(o, 0.0), q.get(o, 0.0)
        if a == 0.0 and b == 0.0:
            continue
        if a == 0.0 or b == 0.0:
            return math.inf
        worst = max(worst, abs(math.log(a) - math.log(b)))
    return worst


def binomial_upper(trials: int, p: float, sigmas: float = 4.0) -> float:
    """An upper bound on a binomial count that a correct implementation exceeds with negligible chance."""
    return trials * p + sigmas * math.sqrt(trials * p * (1 - p)) + 1
