"""TreeLog: an (eps, delta)-DP interior point by random heavy paths in the prefix tree.

Kaplan, Ligett, Mansour, Naor, Stemmer 2020 (paper 002), Algorithm 1, s3; spec 002 s4-s5 with the
corrections of REVIEW-000-002 s4a-s4c.

The binary tree over L-bit values is never built: node (l, p) is the set of values whose top l bits are p,
its weight is two binary searches in the sorted trimmed data (spec 002 s4). One recursion level:

1. trim the t smallest and t largest points (S -> S_hat; neighbours stay neighbours);
2. sample a root-to-node path: from a node of weight > t step to child b with probability
   proportional to exp(eps0 w_b) (forced when the sibling is empty); stop at weight <= t or a leaf;
3. D = the n - 3t smallest fall-off levels l(x) = l_last - bit_length((x >> (L - l_last)) XOR P), a
   database over {0..L}, padded to ceil(log2(L + 1)) bits, and recurse on it;
4. the recursion returns a level l*; HeavyBin (dpgui/privacy/heavy_bin.py, spec 002 s3.3) picks a heavy
   node v* among the non-empty nodes of level l* of S_hat;
5. the exponential mechanism over the four leaves {left, right, inner-left, inner-right} of v*, scored by
   q(S, y) = min(#{x <= y}, #{x >= y}) on this level's S.

The last level runs the pure exponential mechanism over its whole (tiny) domain (dpgui/algorithms/
interior_point.py). A bottom anywhere ends the run with no release (the budget is spent; never retried).

Privacy (REVIEW-000-002 s4a-s4c). The path argument of paper 002 (Obs. 3.1-3.4, Claim 3.5) is an
add/remove argument, so everything is run at an add/remove target (eps/2, delta/(1 + e^{eps/2})) and the
replace-one guarantee (eps, delta) follows by group privacy (dpgui/privacy/cost.py,
replace_one_from_add_remove). Per level: the path costs eps0 (B + 1) with
B = floor(1 + log2((n - g)/(t - g))) balanced steps, g = ln(1/delta0)/eps0, t >= 2g and
delta0 <= eps0 / (4 e^{eps0} n); its delta is (n + 1) delta0 (weak paths). HeavyBin costs (eps0, delta0),
the four-leaf EM eps0, and the base EM one more eps0. Composing down the recursion (D(S), D(S') differ by
at most one element given matching paths) gives eps_ar = eps0 (N (B + 3) + 1) and
delta_ar <= e^{eps_ar} N (n + 2) delta0. Every constant comes from the public (eps, delta, beta, L, n):
:class:`TreeLogParameters` never sees the data.

Utility (spec 002 s5.4, tightened form with HeavyBin and a beta split over the 2N + 1 mechanisms): at
n >= n_required the output is interior with probability >= 1 - beta.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.interior_point import em_interior_point
from dpgui.algorithms.progress import AlgorithmRun, Progress, run_to_end
from dpgui.privacy.cost import PrivacyCost, replace_one_from_add_remove
from dpgui.privacy.exponential import exponential_mechanism, gumbel_max
from dpgui.privacy.heavy_bin import HeavyBinParameters, heavy_bin
from dpgui.privacy.random import PrivateRandom

MAX_BITS = 64
BASE_BITS = 3
"""The recursion stops at domains of at most 2^3 values (the bit-width chain stalls at 2; spec 002 s4)."""


class InsufficientData(ValueError):
    """The public n is below the requirement; raised before the data is read."""

    def __init__(self, message: str, min_n: int) -> None:
        super().__init__(message)
        self.min_n = min_n


def domain_points(values: np.ndarray, counts: np.ndarray, bits: int) -> np.ndarray:
    """The sorted data with multiplicities, checked to lie in [0, 2^bits)."""
    values = np.asarray(values, dtype=np.uint64)
    if values.size and int(values.max()) >> bits:
        raise ValueError(f"a value lies outside the {bits}-bit domain")
    return np.repeat(values, np.asarray(counts, dtype=np.int64))


def next_bits(bits: int) -> int:
    """ceil(log2(bits + 1)): the bit-width of the fall-off-level domain {0..bits}."""
    return bits.bit_length()


def bit_chain(bits: int) -> tuple[int, ...]:
    """[L, ceil(log2(L+1)), ...] while it decreases and stays above BASE_BITS (spec 002 s4)."""
    chain = [bits]
    while chain[-1] > BASE_BITS and next_bits(chain[-1]) < chain[-1]:
        chain.append(next_bits(chain[-1]))
    return tuple(chain)


def bit_length_u64(z: np.ndarray) -> np.ndarray:
    """bit_length of every uint64, by six shift-and-compare steps (no float log2; spec 002 s4)."""
    z = np.asarray(z, dtype=np.uint64).copy()
    out = np.zeros(z.shape, dtype=np.int64)
    for shift in (32, 16, 8, 4, 2, 1):
        big = z >= np.uint64(1 << shift)
        out[big] += shift
        z[big] >>= np.uint64(shift)
    return out + (z > 0)


def fall_off_levels(points: np.ndarray, bits: int, path_length: int, path: int) -> np.ndarray:
    """The level at which each point leaves the path (ℓ_last, P): its common prefix length with P."""
    points = np.asarray(points, dtype=np.uint64)
    if path_length == 0:
        return np.zeros(points.shape, dtype=np.int64)
    z = (points >> np.uint64(bits - path_length)) ^ np.uint64(path)
    return path_length - bit_length_u64(z)


def node_range(bits: int, level: int, prefix: int) -> tuple[int, int]:
    """The inclusive leaf range [p << (L - l), ((p + 1) << (L - l)) - 1] of node (l, p)."""
    shift = bits - level
    return prefix << shift, ((prefix + 1) << shift) - 1


def node_weight(points: np.ndarray, bits: int, level: int, prefix: int) -> int:
    """#points of the sorted array inside node (l, p): two binary searches."""
    lo, hi = node_range(bits, level, prefix)
    return int(
        np.searchsorted(points, np.uint64(hi), side="right") - np.searchsorted(points, np.uint64(lo), "left")
    )


def step_log_weights(w_left: int, w_right: int, eps0: float) -> np.ndarray:
    """Log-weights of the steps (left, right): P(right) = e^{eps0 w1} / (e^{eps0 w0} + e^{eps0 w1}), as
    (0, eps0 (w1 - w0)); an empty child is never stepped into (-inf; Alg. 1 step 4, spec 002 s9 item 2).

    The step is drawn by the exponential mechanism's exact sampler (``gumbel_max``): a coin flipped with a
    floating-point probability was exactly 0 once eps0 (w0 - w1) passed about 37, an infinite likelihood
    ratio between neighbours a step apart."""
    if w_right == 0:
        return np.array([0.0, -np.inf])
    if w_left == 0:
        return np.array([-np.inf, 0.0])
    return np.array([0.0, eps0 * (w_right - w_left)])


def sample_path(points: np.ndarray, bits: int, t: int, eps0: float, rng: PrivateRandom) -> tuple[int, int]:
    """A random heavy path (ℓ_last, P) over the sorted trimmed points; it stops at weight <= t or a leaf."""
    level, prefix, weight = 0, 0, int(points.size)
    while level < bits and weight > t:
        w_left = node_weight(points, bits, level + 1, 2 * prefix)
        w_right = weight - w_left
        step = gumbel_max(step_log_weights(w_left, w_right, eps0), rng)
        prefix, level, weight = 2 * prefix + step, level + 1, (w_right if step else w_left)
    return level, prefix


def next_database(trimmed: np.ndarray, bits: int, path_length: int, path: int, size: int) -> np.ndarray:
    """D: the ``size`` smallest fall-off levels, with multiplicities, sorted (counting sort over {0..L})."""
    levels = fall_off_levels(trimmed, bits, path_length, path)
    counts = np.bincount(levels, minlength=bits + 1)
    return np.repeat(np.arange(bits + 1, dtype=np.uint64), counts)[:size]


def leaf_candidates(bits: int, level: int, prefix: int) -> list[int]:
    """{left, inner-left, inner-right, right} leaves of node (l, p), or {p} itself at l = L (spec 002 s4)."""
    if level == bits:
        return [prefix]
    left, right = node_range(bits, level, prefix)
    half = bits - level - 1
    inner_right = (2 * prefix + 1) << half
    return sorted({left, inner_right - 1, inner_right, right})


def interior_scores(points: np.ndarray, candidates: list[int]) -> np.ndarray:
    """q(S, y) = min(#{x <= y}, #{x >= y}) for each candidate (sensitivity 1)."""
    ys = np.array(candidates, dtype=np.uint64)
    at_most = np.searchsorted(points, ys, side="right")
    at_least = points.size - np.searchsorted(points, ys, side="left")
    return np.minimum(at_most, at_least).astype(np.int64)


@dataclass(frozen=True)
class TreeLogParameters:
    """Every constant of one TreeLog run, a pure function of public inputs (spec 002 s9 item 1).

    ``n`` is the public row count. ``depth`` is N, the number of tree levels before the base EM.
    """

    epsilon: float
    delta: float
    beta: float
    bits: int
    n: int
    depth: int
    eps0: float
    delta0: float
    t: int
    balanced_steps: int
    required: float

    @classmethod
    def build(
        cls, epsilon: float, delta: float, beta: float, bits: int, n: int, depth: int | None = None
    ) -> TreeLogParameters:
        """Constants for the replace-one target (eps, delta); ``depth`` None: the N of least n_required."""
        if not (epsilon > 0 and 0 < delta < 1 and 0 < beta < 1):
            raise ValueError("TreeLog needs eps > 0, 0 < delta < 1 and 0 < beta < 1")
        if not 1 <= bits <= MAX_BITS:
            raise ValueError(f"TreeLog handles 1..{MAX_BITS}-bit domains, got {bits}")
        depth = best_depth(epsilon, delta, beta, bits) if depth is None else depth
        if not 1 <= depth < len(bit_chain(bits)):
            raise ValueError(f"a {bits}-bit domain allows depths 1..{len(bit_chain(bits)) - 1}, got {depth}")
        eps_ar = epsilon / 2
        delta_ar = delta / (1 + math.exp(eps_ar))
        n_pub = max(n, 2)
        base_bits = bit_chain(bits)[depth]
        beta1 = beta / (2 * depth + 1)
        steps = 1
        while True:
            eps0 = eps_ar / (depth * (steps + 3) + 1)
            delta0 = min(
                delta_ar / (math.exp(eps_ar) * depth * (n_pub + 2)), eps0 / (4 * math.exp(eps0) * n_pub)
            )
            if delta0 <= 0:  # exp(eps) overflowed the float range: no meaningful TreeLog run exists
                raise ValueError(f"epsilon {epsilon} is too large for TreeLog's parameters; use ε <= 50")
            g = math.log(1 / delta0) / eps0
            heavy = HeavyBinParameters(eps0, delta0).required_count(n_pub, beta1)
            em4 = (2 / eps0) * math.log(4 / beta1)
            t = math.ceil(max(2 * g, heavy - 1 + em4))
            needed = max(1, math.floor(1 + math.log2(max(n_pub - g, t - g) / (t - g))))
            if needed <= steps:
                break
            steps = needed
        base_em = (2 / eps0) * (base_bits * math.log(2) + math.log(1 / beta1))
        required = 3 * t * depth + 2 * (heavy + base_em)
        return cls(epsilon, delta, beta, bits, n, depth, eps0, delta0, t, steps, required)

    @property
    def heavy_bin(self) -> HeavyBinParameters:
        return HeavyBinParameters(self.eps0, self.delta0)

    @property
    def add_remove_cost(self) -> PrivacyCost:
        """The add/remove cost (REVIEW-000-002 s4c): eps0 (N (B + 3) + 1), and delta by the recursion
        delta_level = (n + 1) delta0 + e^{eps0 (B + 1)} (delta_inner + delta0): weak paths, then the
        inner levels and HeavyBin conditioned on matching paths (the EMs spend no delta)."""
        eps = self.eps0 * (self.depth * (self.balanced_steps + 3) + 1)
        path_factor = math.exp(self.eps0 * (self.balanced_steps + 1))
        delta = 0.0
        for _ in range(self.depth):
            delta = (max(self.n, 2) + 1) * self.delta0 + path_factor * (delta + self.delta0)
        return PrivacyCost(eps, delta)

    @property
    def cost(self) -> PrivacyCost:
        """The replace-one cost charged to the ledger: <= the requested (eps, delta)."""
        return replace_one_from_add_remove(self.add_remove_cost)

    @property
    def meets_requirement(self) -> bool:
        return self.n >= self.required

    @property
    def n_required(self) -> int:
        return treelog_min_n(self.epsilon, self.delta, self.beta, self.bits, self.depth)


def treelog_min_n(epsilon: float, delta: float, beta: float, bits: int, depth: int | None = None) -> int:
    """The least n at which the utility requirement holds (fixed point in n; spec 002 appendix)."""
    n = 16
    for _ in range(200):
        need = math.ceil(TreeLogParameters.build(epsilon, delta, beta, bits, n, depth).required)
        if need <= n:
            return n
        n = need
    raise RuntimeError("the TreeLog requirement did not converge")


def best_depth(epsilon: float, delta: float, beta: float, bits: int) -> int:
    """The N in 1..len(chain) - 1 with the least n_required (public inputs only; spec 002 s5.5)."""
    depths = range(1, len(bit_chain(bits)))
    if not depths:
        raise ValueError(f"a {bits}-bit domain is a base case: use the exponential mechanism")
    return min(depths, key=lambda d: treelog_min_n(epsilon, delta, beta, bits, d))


@dataclass(frozen=True)
class TreeLogStep:
    """Progress partial: public facts only (recursion level, domain bits, database size)."""

    level: int
    bits: int
    size: int


@dataclass(frozen=True)
class TreeLogRelease:
    """The released grid index, or None: bottom ("no release; budget spent")."""

    index: int | None


def treelog(
    values: np.ndarray,
    counts: np.ndarray,
    params: TreeLogParameters,
    rng: PrivateRandom,
    *,
    allow_below_requirement: bool = False,
) -> AlgorithmRun[TreeLogRelease]:
    """Release an interior point of the data (sorted distinct grid indices with counts) over 2^L values.

    Refuses with :class:`InsufficientData` before reading the data when the public n is below the
    requirement, unless ``allow_below_requirement`` (tests and audits: the output then still lies in the
    domain or is bottom, and privacy is unchanged).
    """
    if not allow_below_requirement and not params.meets_requirement:
        need = params.n_required
        raise InsufficientData(
            f"TreeLog needs n >= {need} for ε={params.epsilon:g}, δ={params.delta:g}, β={params.beta:g} "
            f"on {params.bits}-bit values; the data has {params.n}. Use the exponential mechanism or "
            "increase ε.",
            need,
        )
    # The constants come from the public n only; the levels use len(S) of each call (n - 3t per level on
    # the real data; the group-privacy argument of REVIEW-000-002 s4a also runs it on n - 1 points).
    points = domain_points(values, counts, params.bits)
    index = yield from _level(points, params.bits, 0, params, rng)
    yield Progress(1.0, "released" if index is not None else "no release (bottom); budget spent")
    return TreeLogRelease(index)


def _level(
    points: np.ndarray, bits: int, level: int, params: TreeLogParameters, rng: PrivateRandom
) -> AlgorithmRun[int | None]:
    size, t = int(points.size), params.t
    public_size = params.n - 3 * t * level  # |S| at this level on data of the public size n
    yield Progress(
        level / (params.depth + 1),
        f"recursion level {level}: {bits}-bit domain, {max(public_size, 0)} points",
        TreeLogStep(level, bits, max(public_size, 0)),
    )
    # The branch depends on the public n only (never on len(S), which differs between add/remove
    # neighbours); the base EM also runs on an empty database (then it is uniform), so no output's
    # support depends on the data.
    if level == params.depth or public_size <= 3 * t:
        values, counts = np.unique(points, return_counts=True)
        return run_to_end(em_interior_point(values, counts, 1 << bits, params.eps0, rng)).index
    trimmed = points[t : size - t]
    path_length, path = sample_path(trimmed, bits, t, params.eps0, rng)
    database = next_database(trimmed, bits, path_length, path, max(size - 3 * t, 0))
    inner = yield from _level(database, next_bits(bits), level + 1, params, rng)
    if inner is None:
        return None
    return lift(points, trimmed, bits, min(inner, bits), params.heavy_bin, params.eps0, rng)


def lift(
    points: np.ndarray,
    trimmed: np.ndarray,
    bits: int,
    level: int,
    heavy: HeavyBinParameters,
    epsilon: float,
    rng: PrivateRandom,
) -> int | None:
    """Alg. 1 steps 7-9 (and LevelUp, Alg. 5): HeavyBin over the non-empty nodes of ``level`` in the
    trimmed data, then the exponential mechanism (epsilon) over the node's leaves, scored on ``points``."""
    prefixes = trimmed >> np.uint64(bits - level) if level else np.zeros_like(trimmed)
    labels, label_counts = np.unique(prefixes, return_counts=True)
    node = heavy_bin(label_counts, heavy, rng)
    if node is None:
        return None
    candidates = leaf_candidates(bits, level, int(labels[node]))
    return candidates[exponential_mechanism(interior_scores(points, candidates), epsilon, rng)]
