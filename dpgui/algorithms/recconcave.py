"""RecConcave: private approximation of quasi-concave promise problems, on step functions.

Paper 000 (Beimel-Nissim-Stemmer) s3.3, Fig. 5, Lemma 3.12-3.14, Thm 3.15; spec 000 s4.3 with the
overrides of REVIEW-000-002 s1 (A_dist_safe only) and s3 (refined accounting).

Problem: ordered solutions [0, T], an integer quality Q(S, .) of sensitivity 1 (replace-one), a public
promise r and approximation alpha. If Q is quasi-concave and max Q >= r, the output k should have
Q(k) >= (1 - alpha) r; privacy holds for every Q of sensitivity 1.

Implementation (spec 000 s4.3, Rem. 3.17 [ours]): Q is a :class:`StepFunction` (constant on O(s) pieces
of [0, T], T up to 2^64 and beyond), and nothing enumerates [0, T]:

* L(j) = max over windows of length 2^j of min Q, from the maximal runs of each piece (monotonic stack);
* q(j) = min(L(j) - ceil((1 - alpha) r), floor(r) - L(j + 1)) over the dense [0, ceil(log2 T)] [ours:
  the public constants are rounded so q stays integer for A_dist at deeper levels; quasi-concave for
  any Q since L is non-increasing (Claim 3.13), sensitivity 1 (Obs. 3.11)];
* u(block) = max Q over a block: only the two best of up to ~2^61 blocks are found, in O(s).

Privacy: each non-base level runs A_dist_safe twice and one exponential mechanism, the base level one
exponential mechanism (Lemma 3.12). With L = min(N, levels(T)) levels, known from the public T and N,
the per-mechanism budget is eps / (3(L - 1) + 1) and delta / (2(L - 1)) (only A_dist spends delta),
REVIEW-000-002 s3. :class:`MechanismAccountant` asserts the declared count. Fallback [ours, spec 000
s4.3]: if both A_dist calls return None (or the candidates miss [0, T]) the step-10 exponential
mechanism runs over all of [0, T], reusing its slot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.exponential import gumbel_max
from dpgui.privacy.random import PrivateRandom
from dpgui.privacy.stability import StableSelectionParameters, stable_select

BASE_CASE_TOP = 32
"""Ranges [0, T] with T <= 32 are solved by one exponential mechanism (paper 000 Fig. 5 step 1)."""


@dataclass(frozen=True, eq=False)
class StepFunction:
    """An integer quality on [0, top] that is constant on pieces.

    Piece 0 is [0, cuts[0]], piece i is [cuts[i-1] + 1, cuts[i]] and the last piece is
    [cuts[-1] + 1, top]; ``cuts`` is a strictly increasing uint64 array with cuts[-1] < top, so ``top``
    (a Python int) may be 2^64 (the 2^64 + 1 thresholds of a 64-bit grid), which
    :class:`~dpgui.privacy.exponential.PiecewiseScore` (uint64 ends) cannot hold.
    """

    cuts: np.ndarray
    values: np.ndarray
    top: int

    def __post_init__(self) -> None:
        cuts = np.asarray(self.cuts, dtype=np.uint64)
        values = np.asarray(self.values, dtype=np.int64)
        if cuts.ndim != 1 or values.shape != (cuts.size + 1,):
            raise ValueError("need one more value than cuts")
        if np.any(cuts[1:] <= cuts[:-1]) or (cuts.size and int(cuts[-1]) >= self.top):
            raise ValueError("cuts must be strictly increasing and below top")
        object.__setattr__(self, "cuts", cuts)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "top", int(self.top))

    @classmethod
    def dense(cls, values: np.ndarray) -> StepFunction:
        """One piece per point of [0, len(values) - 1]."""
        values = np.asarray(values, dtype=np.int64)
        return cls(np.arange(values.size - 1, dtype=np.uint64), values, values.size - 1)

    def piece_bounds(self) -> tuple[list[int], list[int]]:
        """Inclusive (starts, ends) of every piece as Python ints."""
        ends = [*self.cuts.tolist(), self.top]
        return [0, *(e + 1 for e in ends[:-1])], ends

    def lengths(self) -> list[int]:
        """Exact piece lengths as Python ints."""
        if not self.cuts.size:
            return [self.top + 1]
        inner = (self.cuts[1:] - self.cuts[:-1]).tolist()
        return [int(self.cuts[0]) + 1, *inner, self.top - int(self.cuts[-1])]

    def values_at(self, points: list[int]) -> np.ndarray:
        """The values at many points of [0, top] (points beyond 2^64 - 1 lie in the last piece)."""
        small = [p for p in points if p <= 2**64 - 1]
        index = np.full(len(points), self.cuts.size, dtype=np.int64)
        index[: len(small)] = np.searchsorted(self.cuts, np.array(small, dtype=np.uint64), side="left")
        if any(not 0 <= p <= self.top for p in points) or small != points[: len(small)]:
            raise ValueError("points must be sorted and lie in [0, top]")
        return self.values[index]

    def to_dense(self) -> np.ndarray:
        """Every point's value (small ranges only: tests and deeper recursion levels)."""
        starts, ends = self.piece_bounds()
        return np.repeat(self.values, [e - s + 1 for s, e in zip(starts, ends, strict=True)])


def _window(q: StepFunction, lo: int, hi: int) -> tuple[int, np.ndarray, np.ndarray]:
    """(index of the first piece, float lengths, values) of the pieces of q clipped to [lo, hi]."""
    n_cuts = q.cuts.size
    first = n_cuts if lo > 2**64 - 1 else int(np.searchsorted(q.cuts, np.uint64(lo), side="left"))
    last = n_cuts if hi > 2**64 - 1 else int(np.searchsorted(q.cuts, np.uint64(hi), side="left"))
    inner = q.cuts[first:last]  # cuts strictly inside the window end the pieces first..last-1
    if first == last:
        lengths = np.array([float(hi - lo + 1)])
    else:
        lengths = np.empty(last - first + 1, dtype=np.float64)
        lengths[0] = float(int(inner[0]) - lo + 1)
        lengths[1:-1] = np.diff(inner).astype(np.float64)
        lengths[-1] = float(hi - int(inner[-1]))
    return first, lengths, q.values[first : last + 1]


def _piece_start(q: StepFunction, piece: int, lo: int) -> int:
    return lo if piece == 0 else max(lo, int(q.cuts[piece - 1]) + 1)


def exponential_mechanism_step(
    q: StepFunction, epsilon: float, rng: PrivateRandom, windows: tuple[tuple[int, int], ...] | None = None
) -> int:
    """The exponential mechanism P(k) ∝ exp(eps Q(k) / 2) over every integer of the windows (default
    [0, top]); eps-DP for a sensitivity-1 Q, O(#pieces) (spec 000 s3.2; REVIEW-000-002 s5)."""
    if not (math.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"epsilon must be > 0, got {epsilon}")
    windows = windows or ((0, q.top),)
    parts = [_window(q, lo, hi) for lo, hi in windows]
    log_weights = np.concatenate(
        [np.log(lengths) + epsilon * values.astype(np.float64) / 2 for _, lengths, values in parts]
    )
    chosen = gumbel_max(log_weights, rng)
    for (lo, hi), (first, lengths, _) in zip(windows, parts, strict=True):
        if chosen < lengths.size:
            start = _piece_start(q, first + chosen, lo)
            end = hi if chosen == lengths.size - 1 else int(q.cuts[first + chosen])
            return start + rng.randbelow(end - start + 1)
        chosen -= lengths.size
    raise AssertionError("unreachable")


def log_mass(q: StepFunction, epsilon: float) -> float:
    """ln of the normaliser sum_k exp(eps Q(k) / 2) over [0, top] (to pick among several families)."""
    _, lengths, values = _window(q, 0, q.top)
    log_w = np.log(lengths) + epsilon * values.astype(np.float64) / 2
    peak = float(log_w.max())
    return peak + math.log(math.fsum(np.exp(log_w - peak)))


def ceil_log2(value: int) -> int:
    return max(0, (value - 1).bit_length())


def levels(top: int, recursion_bound: int | None = None) -> int:
    """How many levels RecConcave reaches from the public range [0, top] and recursion bound N."""
    count = 1
    while top > BASE_CASE_TOP and (recursion_bound is None or count < recursion_bound):
        top = ceil_log2(top)
        count += 1
    return count


def per_mechanism_cost(total: PrivacyCost, top: int, recursion_bound: int | None = None) -> PrivacyCost:
    """(eps / (3(L-1)+1), delta / (2(L-1))) per mechanism (REVIEW-000-002 s3); delta 0 when L = 1."""
    depth = levels(top, recursion_bound)
    if depth == 1:
        return PrivacyCost(total.epsilon)
    if total.delta <= 0:
        raise ValueError("RecConcave over more than 32 solutions needs delta > 0 (A_dist)")
    return PrivacyCost(total.epsilon / (3 * (depth - 1) + 1), total.delta / (2 * (depth - 1)))


@dataclass
class MechanismAccountant:
    """Counts the mechanisms each level runs; refuses more than the declared 3 per level, 1 at the base,
    and more than ``levels`` levels (spec 000 s10 item 3)."""

    levels: int
    used: list[list[str]] = field(default_factory=list)

    @property
    def declared(self) -> int:
        return 3 * (self.levels - 1) + 1

    def charge(self, level: int, mechanism: str) -> None:
        if level > self.levels:
            raise RuntimeError(f"level {level} exceeds the declared {self.levels} levels")
        while len(self.used) < level:
            self.used.append([])
        self.used[level - 1].append(mechanism)
        limit = 1 if level == self.levels else 3
        if len(self.used[level - 1]) > limit:
            raise RuntimeError(f"level {level} ran {len(self.used[level - 1])} mechanisms (limit {limit})")
        if self.total > self.declared:
            raise RuntimeError(f"{self.total} mechanisms exceed the declared {self.declared}")

    @property
    def total(self) -> int:
        return sum(len(level) for level in self.used)


@dataclass(frozen=True)
class RecConcaveStep:
    """Progress partial: public facts (level, range) and this level's DP output only."""

    level: int
    range_top: int
    chosen: int | None


@dataclass(frozen=True)
class RecConcaveParameters:
    promise: float
    alpha: float
    per_mechanism: PrivacyCost
    recursion_bound: int | None = None

    def __post_init__(self) -> None:
        if not 0 < self.alpha <= 0.5:
            raise ValueError(f"RecConcave needs 0 < alpha <= 1/2, got {self.alpha}")


def _merged_runs(values: list[int], lengths: list[int]) -> tuple[list[int], list[int]]:
    out_v: list[int] = []
    out_l: list[int] = []
    for v, n in zip(values, lengths, strict=True):
        if out_v and out_v[-1] == v:
            out_l[-1] += n
        else:
            out_v.append(v)
            out_l.append(n)
    return out_v, out_l


def window_minimum_profile(values: list[int], lengths: list[int], max_exponent: int) -> list[int]:
    """L(j) = max over windows of 2^j consecutive points of the minimum value, j = 0..max_exponent.

    Each piece's maximal run of neighbours with value >= its own (a monotonic stack) has length len_i;
    L(j) = max{v_i : len_i >= 2^j} (spec 000 s4.3 step 3 [ours]). The total length must be >= 2^max_exponent.
    """
    values, lengths = _merged_runs(values, lengths)
    s = len(values)
    prefix = [0] * (s + 1)
    for i, n in enumerate(lengths):
        prefix[i + 1] = prefix[i] + n
    left = [0] * s
    right = [s] * s
    stack: list[int] = []
    for i, v in enumerate(values):
        while stack and values[stack[-1]] >= v:
            right[stack.pop()] = i
        left[i] = stack[-1] + 1 if stack else 0
        stack.append(i)
    best = [None] * (max_exponent + 1)
    for i, v in enumerate(values):
        exponent = min(max_exponent, (prefix[right[i]] - prefix[left[i]]).bit_length() - 1)
        if best[exponent] is None or v > best[exponent]:
            best[exponent] = v
    profile: list[int] = []
    running = None
    for j in range(max_exponent, -1, -1):
        if best[j] is not None and (running is None or best[j] > running):
            running = best[j]
        profile.append(running)
    if profile[0] is None:
        raise ValueError("the range is shorter than the longest window")
    return profile[::-1]


def top_two_blocks(q: StepFunction, offset: int, shift: int) -> tuple[int, list[tuple[int, int]]]:
    """(number of blocks, the best two (block index, max value)) of the blocks
    [offset + t P, offset + (t+1) P - 1] ∩ [0, top], P = 2^shift; ties go to the smaller block index.

    O(#pieces), vectorised: each piece reports the blocks holding its two ends and, when it spans more,
    the next two blocks (blocks strictly inside one piece all carry its value; spec 000 s4.3 [ours]).
    """
    if offset > q.top:
        return 0, []
    count = ((q.top - offset) >> shift) + 1
    n = q.cuts.size
    blocks: list[np.ndarray] = []
    scores: list[np.ndarray] = []

    def report(t0: np.ndarray, t1: np.ndarray, values: np.ndarray) -> None:
        for step, mask in ((0, None), (1, t1 - t0 >= 2), (2, t1 - t0 >= 3)):
            chosen = slice(None) if mask is None else mask
            blocks.append(t0[chosen] + step)
            scores.append(values[chosen])
        blocks.append(t1)
        scores.append(values)

    if n and offset <= 2**64 - 1:
        ends = q.cuts
        starts = np.concatenate([[np.uint64(0)], ends[:-1] + np.uint64(1)])
        keep = ends >= np.uint64(offset)
        off = np.uint64(offset)
        if shift >= 64:  # every piece end below 2^64 lies in block 0
            t0 = t1 = np.zeros(int(keep.sum()), dtype=np.int64)
        else:
            t0 = ((np.maximum(starts[keep], off) - off) >> np.uint64(shift)).astype(np.int64)
            t1 = ((ends[keep] - off) >> np.uint64(shift)).astype(np.int64)
        report(t0, t1, q.values[:n][keep])
    last_start = int(q.cuts[-1]) + 1 if n else 0
    first = np.array([(max(last_start, offset) - offset) >> shift], dtype=np.int64)
    report(first, np.array([(q.top - offset) >> shift], dtype=np.int64), q.values[-1:])
    t = np.concatenate(blocks)
    v = np.concatenate(scores)
    best: list[tuple[int, int]] = []
    for _ in range(min(2, count)):
        top_value = v.max()
        block = int(t[v == top_value].min())
        best.append((block, int(top_value)))
        v = np.where(t == block, np.iinfo(np.int64).min, v)
    return count, best


def level_quality(profile: list[int], promise: float, alpha: float) -> list[int]:
    """q(j) = min(L(j) - ceil((1 - alpha) r), floor(r) - L(j + 1)), j = 0..len(profile) - 2 (step 4):
    integer, sensitivity 1, quasi-concave for any non-increasing L (Claim 3.13)."""
    low = math.ceil((1 - alpha) * promise)
    high = math.floor(promise)
    return [min(profile[j] - low, high - profile[j + 1]) for j in range(len(profile) - 1)]


def recconcave(
    quality: StepFunction,
    params: RecConcaveParameters,
    rng: PrivateRandom,
    accountant: MechanismAccountant | None = None,
    level: int = 1,
) -> AlgorithmRun[int]:
    """RecConcave (paper 000 Fig. 5) with per-mechanism (eps, delta) = ``params.per_mechanism``."""
    top = quality.top
    bound = params.recursion_bound
    accountant = accountant or MechanismAccountant(levels(top, bound))
    eps = params.per_mechanism.epsilon
    if top <= BASE_CASE_TOP or (bound is not None and bound <= 1):
        accountant.charge(level, "exponential")
        chosen = exponential_mechanism_step(quality, eps, rng)
        yield Progress(
            1.0, f"level {level}: exponential mechanism over [0, {top}]", RecConcaveStep(level, top, chosen)
        )
        return chosen
    exponent = ceil_log2(top)
    padded_top = 2**exponent
    padded = quality
    if padded_top > top:  # step 2: pad with min(0, Q(T)); sensitivity 1
        padded = StepFunction(
            np.append(quality.cuts, np.uint64(top)),
            np.append(quality.values, min(0, int(quality.values[-1]))),
            padded_top,
        )
    yield Progress(
        0.1 * level, f"level {level}: window profile over [0, {top}]", RecConcaveStep(level, top, None)
    )
    profile = window_minimum_profile(padded.values.tolist(), padded.lengths(), exponent)
    profile.append(min(0, profile[-1]))
    q = level_quality(profile, params.promise, params.alpha)
    deeper = RecConcaveParameters(
        params.alpha * params.promise / 2, 0.25, params.per_mechanism, None if bound is None else bound - 1
    )
    k = yield from recconcave(StepFunction.dense(np.array(q)), deeper, rng, accountant, level + 1)
    width = 2**k
    stable = StableSelectionParameters(eps, params.per_mechanism.delta)
    windows: list[tuple[int, int]] = []
    for offset in (0, 4 * width):
        count, best = top_two_blocks(padded, offset, k + 3)
        accountant.charge(level, "a_dist")
        if count == 0:
            continue
        picked = stable_select(np.array([v for _, v in best], dtype=np.int64), stable, rng)
        if picked is not None:
            block = best[picked][0]
            lo = offset + block * 8 * width
            if lo <= top:
                windows.append((lo, min(top, lo + 8 * width - 1)))
    windows.sort()
    if len(windows) == 2 and windows[1][0] <= windows[0][1] + 1:
        windows = [(windows[0][0], max(windows[0][1], windows[1][1]))]
    accountant.charge(level, "exponential")
    chosen = exponential_mechanism_step(quality, eps, rng, tuple(windows) or None)
    yield Progress(1.0, f"level {level}: chose {chosen} in [0, {top}]", RecConcaveStep(level, top, chosen))
    return chosen


def lemma_3_14_promise(
    top: int, alpha: float, beta: float, per_mechanism: PrivacyCost, bound: int | None = None
) -> float:
    """The promise r that Lemma 3.14 needs for failure <= 2 beta N, with eps halved for A_dist_safe
    (spec 000 s4.3): r >= 8^N (4 / (alpha eps/2)) (log2(32/(beta delta)) + log^{ceil N}(T)); the base case
    alone needs (2/(alpha eps)) log2(T / beta)."""
    depth = levels(top, bound)
    eps = per_mechanism.epsilon
    if depth == 1:
        return (2 / (alpha * eps)) * math.log2(max(top, 2) / beta)
    iterated = top
    for _ in range(depth):
        iterated = ceil_log2(iterated)
    return 8**depth * (8 / (alpha * eps)) * (math.log2(32 / (beta * per_mechanism.delta)) + iterated)
