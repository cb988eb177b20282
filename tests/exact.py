"""Exact privacy checks shared by the tests: hockey-stick divergences of explicit output laws."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from statistics import NormalDist

import numpy as np

from dpgui.algorithms.learners.thresholds import Direction, threshold_quality
from dpgui.algorithms.recconcave import log_mass
from dpgui.privacy.cost import ZCDPCost, round_up


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


def laplace_log_ratio(first: Sequence[float], second: Sequence[float], scale: float) -> float:
    """Exact max log-likelihood ratio of ``x + Z`` vs ``y + Z``, Z i.i.d. discrete Laplace of ``scale``.

    For integer shifts the per-coordinate maximum over outputs is |x_i - y_i| / scale (attained beyond both
    centres), and the product law's maximum is the sum of the per-coordinate ones.
    """
    return math.fsum(abs(float(a) - float(b)) for a, b in zip(first, second, strict=True)) / scale


def gaussian_delta(mu: float, epsilon: float) -> float:
    """Exact hockey-stick divergence of N(0, 1) vs N(mu, 1) at ``epsilon`` (Balle-Wang 2018, Thm 8)."""
    if mu == 0:
        return 0.0
    phi = NormalDist().cdf
    return phi(mu / 2 - epsilon / mu) - math.exp(epsilon) * phi(-mu / 2 - epsilon / mu)


def discrete_gaussian_pmf(sigma: float, reach: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Support [-reach, reach] and pmf of the discrete Gaussian, P(z) proportional to exp(-z^2 / (2 sigma^2)),
    truncated where the tail mass is far below 1e-20."""
    reach = reach if reach is not None else math.ceil(12 * sigma) + 2
    z = np.arange(-reach, reach + 1)
    w = np.exp(-(z.astype(np.float64) ** 2) / (2 * sigma * sigma))
    return z, w / w.sum()


def discrete_gaussian_delta(shift: Sequence[int], sigma: float, epsilon: float) -> float:
    """Exact hockey-stick divergence of ``x + Z`` vs ``y + Z`` for Z i.i.d. discrete Gaussian and the integer
    vector ``shift`` = x - y (both directions agree by symmetry).

    The privacy loss at noise z is (2 d.z + |d|^2) / (2 sigma^2); the law of the integer d.z is the
    convolution of the laws of d_i z_i, so delta = E[max(0, 1 - exp(epsilon - loss))] is a finite sum.
    """
    d = [int(v) for v in shift if int(v) != 0]
    if not d:
        return 0.0
    z, pmf = discrete_gaussian_pmf(sigma)
    total = np.ones(1)
    offset = 0  # total[i] = P(d.z = i + offset)
    for di in d:
        step = abs(di)
        term = np.zeros(step * (z.size - 1) + 1)
        term[::step] = pmf  # d_i z is symmetric, so |d_i| z has the same law
        total = np.convolve(total, term)
        offset -= step * int(z[-1])
    values = np.arange(total.size) + offset
    loss = (2 * values + sum(v * v for v in d)) / (2 * sigma * sigma)
    return float(np.sum(total * np.maximum(0.0, -np.expm1(epsilon - loss))))


def discrete_gaussian_renyi(shift: int, sigma: float, order: float) -> float:
    """Exact Renyi divergence D_order(N_Z(shift, sigma^2) || N_Z(0, sigma^2)), summed in log space over the
    support (truncated far beyond where the summands matter)."""
    reach = math.ceil(40 * sigma) + 2 + 2 * abs(shift)
    z = np.arange(-reach, reach + 1).astype(np.float64)
    log_norm = np.logaddexp.reduce(-(z**2) / (2 * sigma * sigma))
    log_p = -((z - shift) ** 2) / (2 * sigma * sigma) - log_norm
    log_q = -(z**2) / (2 * sigma * sigma) - log_norm
    return float(np.logaddexp.reduce(order * log_p + (1 - order) * log_q)) / (order - 1)


def composed_epsilon(epsilon: float, k: int, delta_slack: float) -> float:
    """The better of basic composition and Dwork-Rothblum-Vadhan for k adaptive eps-DP (or (eps, delta)-DP,
    deltas adding separately) mechanisms: min(k eps, sqrt(2 k ln(1/delta')) eps + k eps (e^eps - 1))."""
    advanced = math.sqrt(2 * k * math.log(1 / delta_slack)) * epsilon + k * epsilon * math.expm1(epsilon)
    return min(k * epsilon, advanced)


def vector_hockey_stick(p: np.ndarray, q: np.ndarray, epsilon: float) -> float:
    """:func:`hockey_stick` of two probability vectors over the same outcomes."""
    factor = math.exp(epsilon)
    return max(float(np.maximum(0.0, p - factor * q).sum()), float(np.maximum(0.0, q - factor * p).sum()))


def adaptive_composition_delta(
    paths: Iterable[Sequence[tuple[np.ndarray, np.ndarray]]], epsilon_each: float
) -> float:
    """delta of an adaptive composition with every step at ``epsilon_each``: sum over steps i of the worst,
    over all earlier outcomes, hockey-stick of the i-th step's two laws (basic composition, Dwork-Roth
    Thm 3.16). ``paths`` lists, per path of earlier outcomes, the (law on D, law on D') of each step."""
    worst: list[float] = []
    for pairs in paths:
        worst += [0.0] * (len(pairs) - len(worst))
        for i, (p, q) in enumerate(pairs):
            worst[i] = max(worst[i], vector_hockey_stick(p, q, epsilon_each))
    return math.fsum(worst)


def discrete_laplace_pmf(z: np.ndarray, scale: float) -> np.ndarray:
    """Exact pmf of the discrete Laplace with P(z) proportional to exp(-|z| / scale)."""
    r = math.exp(-1 / scale)
    return (1 - r) / (1 + r) * np.power(r, np.abs(z))


def log_probabilities(log_weights: np.ndarray) -> np.ndarray:
    """The normalised log-probabilities of ``exponential.gumbel_max``."""
    log_weights = np.asarray(log_weights, dtype=np.float64)
    top = np.max(log_weights)
    return log_weights - (top + np.log(np.sum(np.exp(log_weights - top))))


def gaussian_zcdp(l2_sensitivity: float, sigma: float) -> ZCDPCost:
    """The (discrete) Gaussian mechanism with scale sigma is (Delta^2 / (2 sigma^2))-zCDP."""
    return ZCDPCost(round_up(l2_sensitivity**2 / (2 * sigma**2)))


def threshold_log_probabilities(
    values: np.ndarray,
    positives: np.ndarray,
    negatives: np.ndarray,
    size: int,
    direction: Direction,
    epsilon: float,
) -> dict[tuple[str, int], float]:
    """Exact ln P((direction, cut)) of ``learners.thresholds.em_threshold`` (small grids)."""
    qualities = {d: threshold_quality(values, positives, negatives, size, d) for d in direction.families}
    masses = {d: log_mass(q, epsilon) for d, q in qualities.items()}
    peak = max(masses.values())
    total = peak + math.log(math.fsum(math.exp(m - peak) for m in masses.values()))
    out: dict[tuple[str, int], float] = {}
    for d, q in qualities.items():
        for cut, value in enumerate(q.to_dense()):
            out[(d.value, cut)] = epsilon * float(value) / 2 - total
    return out
