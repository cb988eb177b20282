"""HeavyPaths: the decomposed interior-point algorithm of Kaplan et al. 2020 (paper 002 s4, Alg. 2-6).

A research option (spec 002 s0 item 6 and s11 recommend not shipping it as a default: at M <= 3 databases
its (log*)^1.5 shape brings nothing and its explicit n_required is far above TreeLog's and the
exponential mechanism's). Implemented with the corrections of REVIEW-000-002 s4d-s4f.

* ConstructPaths (Alg. 2): S_1 = S; S_{d+1} = the |S_d| - 3t smallest fall-off levels of the trimmed S_d
  off its DETERMINISTIC heavy path (heavier child, ties to the left; stop at weight <= t or a leaf). The
  chain length M and every |S_d| = n - 3t(d - 1) are public. Computed once (a proof device recomputes it).
* StoppingPoint (Alg. 3): AboveThreshold (dpgui/privacy/sparse_vector.py) with threshold c = k/2 over
  f_d = the largest multiplicity in S_d, d = 1..M; returns the first d answered "above" (bottom if none).
  With k = 2t/2 >= 4 alpha_SV, alpha_SV = (8/eps_SP) ln(2M/delta_SV) (REVIEW s4e: lambda >= 34), its
  failure probability delta_SV is charged to delta. t >= 2k keeps the heavy-path margin t - 2k + 3 >= 3
  (REVIEW s4d), so S_d and S'_d are neighbours for d < d*(S).
* d_hat = 1: HeavyBin over the elements of S itself (REVIEW s4f); any released element is interior.
* OneRandomPath (Alg. 4) at d = d_hat - 1: TreeLog's random path on the trimmed S_d (add/remove argument,
  eps_o (B + 1) for the path), D, HeavyBin over the levels of D, HeavyBin over the nodes of the chosen
  level, the four-leaf exponential mechanism. Its add/remove guarantee (eps', delta') is converted to
  replace-one (2 eps', (1 + e^{eps'}) delta') before composing (REVIEW s4a).
* LevelUp (Alg. 5) for d = d_hat - 2 .. 1: HeavyBin (replace-one) over the nodes of level y of the trimmed
  S_d, then the four-leaf exponential mechanism (dpgui/algorithms/treelog.py, :func:`lift`).

Budget (replace-one, basic composition; at M <= 3 there is at most one LevelUp, so advanced composition
brings nothing, spec 002 s6.5): eps/4 StoppingPoint, eps/4 OneRandomPath (or the d_hat = 1 HeavyBin), eps/2
over the at most M - 2 LevelUps. delta: delta/4 to the SVT failure, and 3 delta / (4 e^{eps/4}) shared by
OneRandomPath and the LevelUps (the proof's delta = Pr[d_hat > d*] + e^{eps_SP} delta_rest, REVIEW s4f).

Utility [derived, spec 002 s6 with the explicit requirements below]: at n >= n_required the output is
interior with probability >= 1 - beta.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.algorithms.treelog import (
    InsufficientData,
    bit_chain,
    domain_points,
    lift,
    next_database,
    node_weight,
    sample_path,
)
from dpgui.privacy.cost import PrivacyCost, replace_one_from_add_remove
from dpgui.privacy.heavy_bin import HeavyBinParameters, heavy_bin
from dpgui.privacy.random import PrivateRandom
from dpgui.privacy.sparse_vector import SparseVector, SparseVectorParameters


@dataclass(frozen=True)
class HeavyPathsParameters:
    """Every constant of one run, from the public (eps, delta, beta, L, n) only."""

    epsilon: float
    delta: float
    beta: float
    bits: int
    n: int
    k: int
    t: int
    balanced_steps: int
    eps_path: float
    delta_path: float
    eps_level_up: float
    delta_level_up: float
    delta_svt: float
    required: float

    @property
    def chain(self) -> tuple[int, ...]:
        return bit_chain(self.bits)

    @property
    def databases(self) -> int:
        """M: the number of databases S_1..S_M of ConstructPaths."""
        return len(self.chain)

    @property
    def level_ups(self) -> int:
        return max(1, self.databases - 2)

    @property
    def eps_svt(self) -> float:
        return self.epsilon / 4

    @property
    def svt_accuracy(self) -> float:
        return SparseVectorParameters(self.k / 2, self.eps_svt).accuracy(self.databases, self.delta_svt)

    @property
    def one_random_path_heavy_bin(self) -> HeavyBinParameters:
        return HeavyBinParameters(self.eps_path, self.delta_path)

    @property
    def level_up_heavy_bin(self) -> HeavyBinParameters:
        return HeavyBinParameters(self.eps_level_up, self.delta_level_up, replace_one=True)

    @property
    def first_level_heavy_bin(self) -> HeavyBinParameters:
        """d_hat = 1: HeavyBin over S's elements in the OneRandomPath slot (replace-one)."""
        return HeavyBinParameters(self.epsilon / 4, self.delta_rest / 2, replace_one=True)

    @property
    def delta_rest(self) -> float:
        return 3 * self.delta / (4 * math.exp(self.eps_svt))

    @property
    def one_random_path_cost(self) -> PrivacyCost:
        """Add/remove: path eps (B + 1), two HeavyBins and the EM; delta (n + 1) d + e^{eps (B + 1)} 2 d."""
        eps = self.eps_path * (self.balanced_steps + 4)
        path = math.exp(self.eps_path * (self.balanced_steps + 1))
        delta = (self.n + 1) * self.delta_path + path * 2 * self.delta_path
        return PrivacyCost(eps, delta)

    @property
    def cost(self) -> PrivacyCost:
        """Replace-one: StoppingPoint, then the worse branch, then the LevelUps (<= the requested cost)."""
        orp = replace_one_from_add_remove(self.one_random_path_cost)
        first = self.first_level_heavy_bin
        eps_branch = max(orp.epsilon, first.epsilon)
        delta_branch = max(orp.delta, first.delta) + self.level_ups * self.delta_level_up
        eps = self.eps_svt + eps_branch + self.level_ups * 2 * self.eps_level_up
        return PrivacyCost(eps, self.delta_svt + math.exp(self.eps_svt) * delta_branch)

    @property
    def meets_requirement(self) -> bool:
        return self.n >= self.required

    @property
    def n_required(self) -> int:
        return heavypaths_min_n(self.epsilon, self.delta, self.beta, self.bits)

    @classmethod
    def build(cls, epsilon: float, delta: float, beta: float, bits: int, n: int) -> HeavyPathsParameters:
        if not (epsilon > 0 and 0 < delta < 1 and 0 < beta < 1):
            raise ValueError("HeavyPaths needs eps > 0, 0 < delta < 1 and 0 < beta < 1")
        chain = bit_chain(bits)
        if len(chain) < 2:
            raise ValueError(f"a {bits}-bit domain is a base case: use the exponential mechanism")
        m = len(chain)
        n_pub = max(n, 2)
        level_ups = max(1, m - 2)
        beta1 = beta / (m + 4)
        delta_svt = delta / 4
        delta_rest = 3 * delta / (4 * math.exp(epsilon / 4))
        eps_prime = epsilon / 8  # OneRandomPath add/remove: 2 eps' = eps/4 after conversion
        delta_prime = (delta_rest / 2) / (1 + math.exp(eps_prime))
        eps_level_up = epsilon / (4 * level_ups)
        delta_level_up = (delta_rest / 2) / level_ups
        level_up = HeavyBinParameters(eps_level_up, delta_level_up, replace_one=True)
        em4_level_up = (2 / eps_level_up) * math.log(4 / beta1)
        svt_alpha = (8 / (epsilon / 4)) * math.log(2 * m / delta_svt)
        steps = 1
        while True:
            eps_path = eps_prime / (steps + 4)
            path_factor = math.exp(eps_path * (steps + 1))
            delta_path = min(
                delta_prime / ((n_pub + 1) + 2 * path_factor), eps_path / (4 * math.exp(eps_path) * n_pub)
            )
            g = math.log(1 / delta_path) / eps_path
            heavy = HeavyBinParameters(eps_path, delta_path)
            nodes = heavy.required_count(n_pub, beta1)
            levels = max(
                heavy.required_count(bits + 1, beta1) + 2 * heavy.noise_bound(bits + 1, beta1), nodes
            )
            first = HeavyBinParameters(epsilon / 4, delta_rest / 2, True).required_count(n_pub, beta1)
            k = math.ceil(max(4 * svt_alpha, 4 * levels, 4 * first))
            em4 = (2 / eps_path) * math.log(4 / beta1)
            need_lu = level_up.required_count(n_pub, beta1)
            t = math.ceil(max(2 * k, 2 * (levels + g), need_lu - 1 + max(em4, em4_level_up)))
            needed = max(1, math.floor(1 + math.log2(max(n_pub - g, t - g) / (t - g))))
            if needed <= steps:
                break
            steps = needed
        required = max(10 * t + 3 * t * max(m - 2, 0) + 1, 3 * t * (m - 1) + k * 2 ** chain[-1])
        return cls(
            epsilon, delta, beta, bits, n, k, t, steps, eps_path, delta_path, eps_level_up, delta_level_up,
            delta_svt, required,
        )  # fmt: skip


def heavypaths_min_n(epsilon: float, delta: float, beta: float, bits: int) -> int:
    """The least n meeting the requirement (fixed point in n)."""
    n = 16
    for _ in range(200):
        need = math.ceil(HeavyPathsParameters.build(epsilon, delta, beta, bits, n).required)
        if need <= n:
            return n
        n = need
    raise RuntimeError("the HeavyPaths requirement did not converge")


def heavy_path(points: np.ndarray, bits: int, t: int) -> tuple[int, int]:
    """The deterministic heavy path (Alg. 2 step 4): the heavier child, ties to the left."""
    level, prefix, weight = 0, 0, int(points.size)
    while level < bits and weight > t:
        w_left = node_weight(points, bits, level + 1, 2 * prefix)
        step = int(weight - w_left > w_left)
        prefix, level, weight = 2 * prefix + step, level + 1, (weight - w_left if step else w_left)
    return level, prefix


def construct_paths(points: np.ndarray, chain: tuple[int, ...], t: int) -> list[np.ndarray]:
    """[S_1, ..., S_M] (Alg. 2), each sorted; S_{d+1} lives on chain[d] bits."""
    databases = [points]
    for bits in chain[:-1]:
        current = databases[-1]
        trimmed = current[t : current.size - t]
        path = heavy_path(trimmed, bits, t)
        databases.append(next_database(trimmed, bits, *path, max(current.size - 3 * t, 0)))
    return databases


def max_multiplicity(points: np.ndarray) -> int:
    """f_d: the largest multiplicity in a sorted database (0 when empty)."""
    return int(np.unique(points, return_counts=True)[1].max()) if points.size else 0


@dataclass(frozen=True)
class HeavyPathsStep:
    """Progress partial: the phase and public facts (database index d and its bit-width)."""

    phase: str
    database: int
    bits: int


@dataclass(frozen=True)
class HeavyPathsRelease:
    index: int | None


def heavypaths(
    values: np.ndarray,
    counts: np.ndarray,
    params: HeavyPathsParameters,
    rng: PrivateRandom,
    *,
    allow_below_requirement: bool = False,
) -> AlgorithmRun[HeavyPathsRelease]:
    """Release an interior point (Alg. 6); refuses before reading the data when n < n_required."""
    if not allow_below_requirement and not params.meets_requirement:
        need = params.n_required
        raise InsufficientData(
            f"HeavyPaths needs n >= {need} for ε={params.epsilon:g}, δ={params.delta:g}, β={params.beta:g} "
            f"on {params.bits}-bit values; the data has {params.n}.",
            need,
        )
    chain, t = params.chain, params.t
    points = domain_points(values, counts, params.bits)
    databases = construct_paths(points, chain, t)
    yield Progress(0.1, "stopping point (sparse vector)", HeavyPathsStep("stopping point", 0, params.bits))
    svt = SparseVector(SparseVectorParameters(params.k / 2, params.eps_svt), rng)
    stop = next((d for d, db in enumerate(databases, 1) if svt.is_above(max_multiplicity(db))), None)
    if stop is None:
        return HeavyPathsRelease(None)
    if stop == 1:
        labels, label_counts = np.unique(points, return_counts=True)
        chosen = heavy_bin(label_counts, params.first_level_heavy_bin, rng)
        return HeavyPathsRelease(None if chosen is None else int(labels[chosen]))
    d = stop - 1  # OneRandomPath on S_d (1-based)
    current, bits = databases[d - 1], chain[d - 1]
    yield Progress(0.4, "one random path", HeavyPathsStep("one random path", d, bits))
    trimmed = current[t : current.size - t]
    level_db = next_database(
        trimmed, bits, *sample_path(trimmed, bits, t, params.eps_path, rng), max(current.size - 3 * t, 0)
    )
    levels, level_counts = np.unique(level_db, return_counts=True)
    chosen = heavy_bin(level_counts, params.one_random_path_heavy_bin, rng)
    if chosen is None:
        return HeavyPathsRelease(None)
    heavy = params.one_random_path_heavy_bin
    y = lift(current, trimmed, bits, min(int(levels[chosen]), bits), heavy, params.eps_path, rng)
    for d in range(stop - 2, 0, -1):
        if y is None:
            return HeavyPathsRelease(None)
        current, bits = databases[d - 1], chain[d - 1]
        yield Progress(0.5 + 0.5 * (stop - 1 - d) / stop, "level up", HeavyPathsStep("level up", d, bits))
        trimmed = current[t : current.size - t]
        y = lift(current, trimmed, bits, min(y, bits), params.level_up_heavy_bin, params.eps_level_up, rng)
    yield Progress(1.0, "released" if y is not None else "no release (bottom); budget spent")
    return HeavyPathsRelease(y)
