"""JointExp: all m quantiles in one exponential mechanism over sorted m-tuples of grid points.

Gillenwater, Joseph, Kulesza, "Differentially Private Quantiles", ICML 2021, s3 (Algorithm 1 and the
sampler of s3.2), here on a finite integer grid and in log space throughout (the structure of
google-research dp_multiq ``joint_exp``: a dynamic program over the gaps between data points, then
backward sampling with Gumbel-max "racing"; written anew for the grid).

Mechanism. For targets 0 = q_0 <= q_1 <= ... <= q_m <= q_{m+1} = 1 and outputs o_1 <= ... <= o_m on the
grid [0, N - 1], with c(o) = #{x < o}, c(o_0) = 0 and c(o_{m+1}) = n, the utility is

    u(o) = - sum_{j=1}^{m+1} | c(o_j) - c(o_{j-1}) - (q_j - q_{j-1}) n |,

and the release is one sorted tuple drawn with probability proportional to exp(eps u(o) / 4), i.e. the
exponential mechanism with sensitivity 2 over all sorted m-tuples of grid points. Sampling is exact: c is
constant on the K <= n + 1 pieces [v_k + 1, v_{k+1}] between consecutive distinct data values, so the
tuple's weight depends only on which piece holds each o_j; a run of r consecutive outputs in a piece of
L grid points stands for C(L + r - 1, r) sorted tuples (the discrete form of the paper's L^r / r!). The
forward pass sums the weights of all prefixes ending with o_j in piece k; the backward pass draws the
pieces from the last quantile down, each by Gumbel-max over the exact conditional log-weights, then each
run's r points as a uniform multiset of its piece (Floyd's sampling of an r-subset of L + r - 1 points).

Privacy (replace one record, n public). Moving one record changes c(o) by the same +1 or -1 for every o in
one interval of the grid and by 0 elsewhere, so at most two of the m + 1 gap counts c(o_j) - c(o_{j-1})
change, each by 1: u has sensitivity 2 and the mechanism is pure eps-DP (McSherry-Talwar 2007). The
utility only compares counts with public targets, so n is public as everywhere in dpgui.

Cost: O(m K^2) time and O(m K) memory for K pieces (K <= min(n, N) + 1): ``joint_exp_fits`` bounds it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.approximate_quantiles import QuantilesRelease, QuantilesSoFar
from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.exponential import gumbel_max
from dpgui.privacy.random import PrivateRandom

SENSITIVITY = 2.0
LINEAR_SPAN = 600.0
"""The widest span of log-weights ``_Moves.into`` sums in linear space: each term is then at least
exp(-600), far above float64's smallest normal number (about exp(-708)), so none underflows to zero."""
MAX_WORK = 5 * 10**7
"""The largest m K^2 the dynamic program takes (about half a second of numpy; AQ serves larger m n^2)."""


def joint_exp_work(pieces: int, m: int) -> int:
    return m * pieces * pieces


def joint_exp_fits(n: int, domain_size: int, m: int) -> bool:
    """Whether the dynamic program stays within MAX_WORK for at most min(n, N) + 1 pieces (public facts)."""
    return joint_exp_work(min(n, domain_size) + 1, m) <= MAX_WORK


def _logsumexp(values: np.ndarray, axis: int) -> np.ndarray:
    top = np.max(values, axis=axis, keepdims=True)
    safe = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):  # a row of -inf sums to 0: its log is -inf, as it should be
        total = np.log(np.sum(np.exp(values - safe), axis=axis, keepdims=True)) + safe
    return np.squeeze(total, axis=axis)


def _pieces(values: np.ndarray, counts: np.ndarray, domain_size: int) -> tuple[np.ndarray, ...]:
    """Non-empty pieces: (first grid point, length, c = #{x < o} on the piece)."""
    values = np.asarray(values, dtype=np.uint64)
    bounds = [-1, *(int(v) for v in values), domain_size - 1]
    starts = np.array([b + 1 for b in bounds[:-1]], dtype=object)
    lengths = np.array([bounds[k + 1] - bounds[k] for k in range(len(bounds) - 1)], dtype=object)
    below = np.concatenate([[0], np.cumsum(np.asarray(counts, dtype=np.int64))])
    keep = lengths > 0
    return starts[keep], lengths[keep], below[keep].astype(np.float64)


def _uniform_multiset(length: int, size: int, rng: PrivateRandom) -> list[int]:
    """A uniform sorted multiset of ``size`` points of [0, length): an r-subset of length + r - 1 (Floyd)."""
    universe = length + size - 1
    chosen: set[int] = set()
    for top in range(universe - size, universe):
        pick = rng.randbelow(top + 1)
        chosen.add(top if pick in chosen else pick)
    return [point - i for i, point in enumerate(sorted(chosen))]


def joint_exp_quantiles(
    values: np.ndarray,
    counts: np.ndarray,
    domain_size: int,
    qs: tuple[float, ...],
    epsilon: float,
    rng: PrivateRandom,
) -> AlgorithmRun[QuantilesRelease]:
    """JointExp over the grid [0, domain_size - 1] (sorted distinct grid values with counts); pure eps-DP.

    The released indices follow ``qs`` in its own order (the mechanism releases them sorted by target).
    """
    if not (math.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"epsilon must be a finite number > 0, got {epsilon!r}")
    order = np.argsort(qs, kind="stable")
    targets = np.asarray(qs, dtype=np.float64)[order]
    m, n = targets.size, int(np.sum(counts))
    gaps = _snapped(np.diff(np.concatenate([[0.0], targets, [1.0]])) * n)  # target counts of the m + 1 gaps
    starts, lengths, below = _pieces(values, counts, domain_size)
    k_count = below.size
    scale = epsilon / (2 * SENSITIVITY)
    log_lengths = np.log(lengths.astype(np.float64))
    # run_gain[k, r - 1] = ln C(L_k + r - 1, r) - ln L_k: the extra tuples of a run of r in piece k.
    steps = np.arange(1, m + 1, dtype=np.float64)
    ratio = (lengths.astype(np.float64)[:, None] + steps[None, :] - 1) / steps[None, :]
    run_gain = np.cumsum(np.log(ratio), axis=1) - np.log(ratio[:, :1])
    stay = np.concatenate([[0.0], np.cumsum(-scale * np.abs(gaps[1:m]))])  # stay[j-1]: sum of -eps'|t_i|
    earlier = np.tri(k_count, k=-1, dtype=bool).T  # earlier[k', k]: k' < k

    def move_into(j: int, piece: int) -> np.ndarray:
        """-eps' |c_piece - c_k' - t_j| for quantile j (1-based) moving from each piece k' to ``piece``."""
        return -scale * np.abs(below[piece] - below - gaps[j - 1])

    # fresh[j - 1, k]: log-weight of the prefixes o_1..o_j with a run starting at o_j in piece k.
    fresh = np.full((m, k_count), -np.inf)
    fresh[0] = log_lengths - scale * np.abs(below - gaps[0])
    ending = fresh[0].copy()  # log-weight of the prefixes o_1..o_j with o_j in piece k, any run length
    moves: _Moves | None = None
    for j in range(2, m + 1):
        if moves is None or moves.gap != gaps[j - 1]:  # evenly spaced targets: one matrix for every j
            moves = _Moves.of(below, gaps[j - 1], scale, earlier)
        fresh[j - 1] = log_lengths + moves.into(ending)
        ending = _logsumexp(_runs(fresh, stay, run_gain, j), axis=1)
        yield Progress(0.8 * j / m, f"dynamic program: quantile {j} of {m}")

    final = _runs(fresh, stay, run_gain, m) - scale * np.abs(n - below - gaps[m])[:, None]
    chosen = gumbel_max(final.ravel(), rng)
    piece, run = divmod(chosen, m)
    placement: list[tuple[int, int]] = [(piece, run + 1)]  # (piece, run length), from the last run down
    j = m - (run + 1)
    while j >= 1:
        weights = _runs(fresh, stay, run_gain, j) + move_into(j + 1, piece)[:, None]
        weights[~earlier[:, piece]] = -np.inf
        chosen = gumbel_max(weights.ravel(), rng)
        piece, run = divmod(chosen, m)
        placement.append((piece, run + 1))
        j -= run + 1
        yield Progress(0.8 + 0.2 * (m - j) / m, f"sampled down to quantile {j}")
    indices: list[int] = []
    for piece, run in reversed(placement):
        start, length = int(starts[piece]), int(lengths[piece])
        indices.extend(start + offset for offset in _uniform_multiset(length, run, rng))
    released = [0] * m
    for position, index in zip(order, indices, strict=True):
        released[position] = index
    yield Progress(1.0, "released", QuantilesSoFar(tuple(qs), tuple(released)))
    return QuantilesRelease(tuple(qs), tuple(released))


def _snapped(gaps: np.ndarray) -> np.ndarray:
    """The gaps' target counts, each within a relative 1e-9 of an earlier one replaced by it.

    Evenly spaced quantiles' gaps differ in their last bits (np.linspace), and equal gaps share one move
    matrix (``_Moves``). Public arithmetic on the targets, used by every step alike: the release is
    exactly the exponential mechanism for these targets, so its privacy is unchanged."""
    snapped = gaps.copy()
    for j in range(1, gaps.size):
        close = np.flatnonzero(np.abs(snapped[:j] - gaps[j]) <= 1e-9 * abs(gaps[j]))
        if close.size:
            snapped[j] = snapped[close[0]]
    return snapped


@dataclass(frozen=True)
class _Moves:
    """The log-weights -eps' |c_k - c_k' - t| of a quantile moving from piece k' to a later piece k, for one
    gap target t (-inf where k' >= k), and their exponentials."""

    gap: float
    log: np.ndarray
    linear: np.ndarray
    span: float
    """The largest -log over the allowed moves: how far below 1 a kept entry of ``linear`` can be."""

    @classmethod
    def of(cls, below: np.ndarray, gap: float, scale: float, earlier: np.ndarray) -> _Moves:
        log = np.where(earlier, -scale * np.abs(below[None, :] - below[:, None] - gap), -np.inf)
        span = float(-np.min(log, where=earlier, initial=0.0))
        return cls(gap, log, np.exp(log), span)

    def into(self, ending: np.ndarray) -> np.ndarray:
        """[k]: log sum over k' < k of exp(ending[k'] + move(k', k)).

        A matrix product in linear space (BLAS: about ten times faster than a log-sum-exp over the K x K
        matrix at K = 1,000) when every kept term, shifted by the largest ending, stays within
        LINEAR_SPAN nats of 1; otherwise the log-sum-exp. Either way no term rounds to zero, so no tuple
        loses its positive probability, which pure DP needs."""
        finite = ending[np.isfinite(ending)]
        if finite.size == 0:
            return np.full(ending.shape, -np.inf)
        top = float(finite.max())
        if top - float(finite.min()) + self.span <= LINEAR_SPAN:
            with np.errstate(divide="ignore"):  # a piece no earlier piece reaches: log 0 = -inf
                return np.log(np.exp(ending - top) @ self.linear) + top
        return _logsumexp(ending[:, None] + self.log, axis=0)


def _runs(fresh: np.ndarray, stay: np.ndarray, run_gain: np.ndarray, j: int) -> np.ndarray:
    """[k, r - 1]: log-weight of the prefixes o_1..o_j whose last r outputs share piece k (r <= j).

    A run of r ending at j started fresh at j - r + 1 and then stayed r - 1 times (each stay costs
    -eps' |t_i|, as no data lies between outputs in one piece) and gains the run's extra tuples.
    """
    m = fresh.shape[0]
    out = np.full((fresh.shape[1], m), -np.inf)
    r = np.arange(1, j + 1)
    first = j - r + 1  # 1-based quantile where the run started
    out[:, :j] = fresh[first - 1].T + (stay[j - 1] - stay[first - 1])[None, :] + run_gain[:, :j]
    return out
