"""Huang-Roth l1 distance release: online (paper 004 Thm 1) and offline (Thm 2), spec 004 s2-s4.

Learner (paper 004 Fig. 1, Lemmas 4-6; spec s2.2-2.3). Each normalised coordinate j has G_j(v) = (1/n) sum_x
|u_j(x) - v|: convex, 1-Lipschitz, [0, 1] -> [0, 1]. The hypothesis G_hat_j is the maximum of noisy tangent
lines (slopes clipped to [-1, 1], values to [0, 1]); it starts at the zero line. With an alpha_1/4-noisy
oracle it makes at most 2/sqrt(alpha_1) + 1 mistakes (spec s2.2, derived).

Mechanism (IDC -> sparse vector, paper Lemma 3 as instantiated in spec s2.4 with the corrections of REVIEW
s2): a test quantity |F_hat(y) - F(y)| goes through AboveThreshold (dpgui.privacy.sparse_vector.SparseVector);
a FIRE triggers a noisy update (value and slope at the query); after the hard cap M of FIREs the data is never
touched again. Privacy holds for any number of queries (non-FIRE queries consume noise inside an instance
already paid for); the number of queries k_max enters only the accuracy calibration.

Sensitivities (replace one record, n public; REVIEW s2a-2c; tested):
* value n G_j(v) = sum_x |u_j(x) - v|: computed exactly in integers on the public grid of resolution 1/R
  (u and v snapped to multiples of 1/R, R = 2^20; the snapping moves any answer by <= 1/R), sensitivity R in
  those units, i.e. G_j has sensitivity 1/n;
* slope count n G'_j(v) = #{u < v} - #{u > v} (ties count 0): sensitivity 2, i.e. 2/n;
* online test |F_hat(y) - F(y)| with F = sum_j G_j: sensitivity W/n (W = l in cube units), NOT 1/n;
* offline test |G_hat_j(v) - G_j(v)|: sensitivity 1/n.
Integer quantities get discrete noise (discrete Laplace, or discrete Gaussian in zCDP mode).

Calibration (spec s3 / s4 "concrete calibration", public inputs only): alpha is the smallest value (bisection
on log alpha over [1e-3 W, 10 W]; the floor keeps the offline grid finite, spec s8) whose privacy requirement
fits the budget. Pure: eps_req = M (eps_A + eps_U). zCDP (delta > 0): rho_req = M (eps_A^2 / 2 + rho_U) <= the
rho whose (eps, delta) conversion fits. If alpha >= W/2 the release is no better than trivial (flagged).
Answers are in normalised units (cube units, as in cdf_route.py).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sized
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

import numpy as np

from dpgui.algorithms.distance.cdf_route import DistanceStructure
from dpgui.algorithms.distance.embeddings import IdentityEmbedding
from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.cost import PrivacyCost, ZCDPCost, round_up, zcdp_rho_for
from dpgui.privacy.random import PrivateRandom
from dpgui.privacy.sparse_vector import SparseVector, SparseVectorParameters

RESOLUTION = 1 << 20
"""Public grid of the normalised axis on which the oracles are exact integers."""

ALPHA_FLOOR = 1e-3
"""alpha >= ALPHA_FLOOR * W (spec s8: the offline grid has about 2 W / alpha points per coordinate)."""


def _z(p: float) -> float:
    return NormalDist().inv_cdf(1 - p)


@dataclass(frozen=True)
class Calibration:
    """Public parameters of one Huang-Roth run (functions of n, l, eps, delta, beta, k only)."""

    alpha: float
    diameter: float
    """W: the l1 diameter of the normalised box (= l)."""
    cap: int
    """M: the hard cap on FIREs in total (offline: per_coordinate_cap x l)."""
    per_coordinate_cap: int
    threshold: float
    test_sensitivity: float
    epsilon_test: float
    """eps_A of each AboveThreshold instance."""
    noise: float
    """Update noise: Laplace scale b (pure) or Gaussian sigma (zCDP), in normalised value units."""
    gaussian: bool
    grid_spacing: float
    """Offline grid spacing h on the normalised axis (0 online)."""

    @property
    def trivial(self) -> bool:
        """alpha >= W/2: no better than answering from the box midpoint (spec s3)."""
        return self.alpha >= self.diameter / 2


def _online_parameters(alpha: float, n: int, dims: int, beta: float, k: int, gaussian: bool) -> Calibration:
    """spec s3: M = l ceil(2 sqrt(2W/alpha) + 1), T = 3 alpha/4, Delta = W/n, eta = alpha/(8W)."""
    w = float(dims)
    cap = dims * math.ceil(2 * math.sqrt(2 * w / alpha) + 1)
    delta_test = w / n
    eps_a = delta_test * (2 * math.log(4 * cap / beta) + 4 * math.log(4 * k / beta)) / (alpha / 4)
    eta = alpha / (8 * w)
    noise = eta / _z(beta / (8 * dims * cap)) if gaussian else eta / math.log(4 * dims * cap / beta)
    return Calibration(alpha, w, cap, cap, 3 * alpha / 4, delta_test, eps_a, noise, gaussian, 0.0)


def _offline_parameters(alpha: float, n: int, dims: int, beta: float, gaussian: bool) -> Calibration:
    """spec s4: h = alpha1' = alpha/(2W), gamma = alpha/(4W), T' = 3 alpha1'/4, T_i = ceil(2/sqrt(gamma) +
    1)."""
    w = float(dims)
    h = alpha / (2 * w)
    gamma = alpha / (4 * w)
    per = math.ceil(2 / math.sqrt(gamma) + 1)
    cap = dims * per
    tests = dims * (math.ceil(1 / h) + 1)
    eps_a = (1 / n) * (2 * math.log(4 * cap / beta) + 4 * math.log(4 * tests / beta)) / (alpha / (8 * w))
    eta = alpha / (16 * w)
    noise = eta / _z(beta / (8 * cap)) if gaussian else eta / math.log(4 * cap / beta)
    return Calibration(alpha, w, cap, per, 3 * h / 4, 1 / n, eps_a, noise, gaussian, h)


def _update_cost(cal: Calibration, n: int, coordinates_per_update: int) -> float:
    """Pure: eps_U = 3 c/(n b) (value 1/n + slope 2/n); zCDP: rho_U = 5 c/(2 n^2 sigma^2)."""
    if cal.gaussian:
        return 5 * coordinates_per_update / (2 * n * n * cal.noise**2)
    return 3 * coordinates_per_update / (n * cal.noise)


def requirement(cal: Calibration, n: int, coordinates_per_update: int) -> float:
    """Pure: total eps = M (eps_A + eps_U); zCDP: total rho = M (eps_A^2/2 + rho_U) (pure eps is
    eps^2/2-zCDP)."""
    update = _update_cost(cal, n, coordinates_per_update)
    if cal.gaussian:
        return cal.cap * (cal.epsilon_test**2 / 2 + update)
    return cal.cap * (cal.epsilon_test + update)


def calibrate(
    n: int, dims: int, epsilon: float, delta: float, beta: float, *, online: bool, k_max: int = 1000
) -> Calibration:
    """The smallest alpha >= 1e-3 W (log-bisection) whose requirement fits (eps, delta); public inputs
    only."""
    gaussian = delta > 0
    budget = zcdp_rho_for(PrivacyCost(epsilon, delta)) if gaussian else epsilon
    per_update = dims if online else 1

    def make(alpha: float) -> Calibration:
        if online:
            return _online_parameters(alpha, n, dims, beta, k_max, gaussian)
        return _offline_parameters(alpha, n, dims, beta, gaussian)

    def fits(log_alpha: float) -> bool:
        return requirement(make(math.exp(log_alpha)), n, per_update) <= budget

    lo, hi = math.log(ALPHA_FLOOR * dims), math.log(10.0 * dims)
    if fits(lo):
        return make(math.exp(lo))
    while not fits(hi):  # requirement falls like 1/alpha: this ends
        lo, hi = hi, hi + math.log(10.0)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if fits(mid) else (mid, hi)
    return make(math.exp(hi))


def spent(cal: Calibration, n: int, online: bool, delta: float) -> PrivacyCost:
    """The worst-case cost of the whole run (M instances and updates), charged up front."""
    total = requirement(cal, n, int(cal.diameter) if online else 1)
    if cal.gaussian:
        return ZCDPCost(total).to_approx_dp(delta)
    return PrivacyCost(round_up(total))


class SortedOracle:
    """Exact G_j and n G'_j on the public grid of resolution 1/R (spec s2.1 prefix-sum oracle, in integers).

    Holds PRIVATE data; only the mechanisms below read it, and only through noisy outputs does anything leave.
    ``calls`` counts data accesses (the halting test checks it stays frozen after the cap).
    """

    def __init__(self, normalised: np.ndarray) -> None:
        grid = snap(normalised)
        self._sorted = np.sort(grid, axis=0)
        zeros = np.zeros((1, grid.shape[1]), dtype=np.int64)
        self._prefix = np.concatenate([zeros, np.cumsum(self._sorted, axis=0)])
        self.n = grid.shape[0]
        self.calls = 0

    def value_sums(self, j: int, v: np.ndarray) -> np.ndarray:
        """sum_x |U_j(x) - V| in grid units (int64; sensitivity R under replace-one)."""
        self.calls += 1
        col, prefix = self._sorted[:, j], self._prefix[:, j]
        c = np.searchsorted(col, v, side="right")
        below = prefix[c]
        return v * c - below + (prefix[-1] - below) - v * (self.n - c)

    def slope_counts(self, j: int, v: np.ndarray) -> np.ndarray:
        """#{U_j < V} - #{U_j > V} (int64; sensitivity 2)."""
        self.calls += 1
        col = self._sorted[:, j]
        return np.searchsorted(col, v, side="left") - (self.n - np.searchsorted(col, v, side="right"))


def snap(normalised: np.ndarray) -> np.ndarray:
    """Normalised values clipped to [0, 1] and rounded to the public grid {0, 1/R, ..., 1} (int64 units)."""
    return np.rint(np.clip(np.asarray(normalised, dtype=np.float64), 0.0, 1.0) * RESOLUTION).astype(np.int64)


class TangentLearner:
    """Algorithm A of paper 004 (Fig. 1): the max of noisy tangents, starting from the zero line."""

    def __init__(self) -> None:
        self.slopes: list[float] = [0.0]
        self.intercepts: list[float] = [0.0]

    def __call__(self, v: np.ndarray | float) -> np.ndarray:
        v = np.asarray(v, dtype=np.float64)
        lines = np.asarray(self.slopes)[:, None] * v.reshape(1, -1) + np.asarray(self.intercepts)[:, None]
        return lines.max(axis=0).reshape(v.shape)

    def add_tangent(self, v: float, value: float, slope: float) -> None:
        """Clip the slope to [-1, 1] and the value to [0, 1] (post-processing toward the truth; spec s2.2)."""
        s, g = min(max(slope, -1.0), 1.0), min(max(value, 0.0), 1.0)
        self.slopes.append(s)
        self.intercepts.append(g - s * v)

    def envelope(self) -> tuple[np.ndarray, np.ndarray]:
        """Knots and values of the upper envelope on [0, 1] (exact: every breakpoint is a pairwise
        crossing)."""
        a, b = np.asarray(self.slopes), np.asarray(self.intercepts)
        i, k = np.triu_indices(a.size, 1)
        differ = a[i] != a[k]
        crossings = (b[k][differ] - b[i][differ]) / (a[i][differ] - a[k][differ])
        knots = np.unique(np.concatenate([[0.0, 1.0], crossings[(crossings > 0) & (crossings < 1)]]))
        return knots, self(knots)


@dataclass(frozen=True)
class NoiseScales:
    """The integer noise scales a run requests (public: functions of the calibration and n only)."""

    tangent_value: float
    """Value of a tangent, in units of 1 / (R n): scale b R n (Laplace) or sigma R n (Gaussian)."""
    tangent_slope: float
    """Slope of a tangent, in units of 1 / n: scale b n or sigma n."""
    test_threshold: float
    """AboveThreshold's threshold noise (sparse_vector, at eps_A per round)."""
    test_query: float
    """AboveThreshold's query noise (sparse_vector, at eps_A per round)."""

    def largest(self) -> float:
        return max(self.tangent_value, self.tangent_slope, self.test_threshold, self.test_query)


def svt_query_value(guess: float, grid_sums: int, n: int, coordinates: int) -> Fraction:
    """|guess - truth| in units of its sensitivity, in exact arithmetic, for the sparse vector's test.

    truth = grid_sums / (n R), with ``grid_sums`` the oracles' value sums over ``coordinates`` coordinates
    (integers, each moving by at most R when a record is replaced), moves by at most coordinates / n, the
    calibration's test sensitivity (online W / n with W = l, offline 1 / n per coordinate). So
    |guess n R - grid_sums| / (coordinates R) moves by at most 1 exactly, as the sparse vector's proof needs;
    the same quotient in floating point moved by 1 + 2^-52 (an audit's pair of neighbours).
    """
    return abs(Fraction(guess) * n * RESOLUTION - grid_sums) / (coordinates * RESOLUTION)


def test_parameters(cal: Calibration, cap: int) -> SparseVectorParameters:
    """AboveThreshold on the test quantity in units of its sensitivity: eps_A per round, ``cap`` rounds."""
    return SparseVectorParameters(cal.threshold / cal.test_sensitivity, cal.epsilon_test * cap, max_above=cap)


def noise_scales(cal: Calibration, n: int) -> NoiseScales:
    """Every scale a run with this calibration draws at (the pre-flight compares them to the 64-bit limit)."""
    test = test_parameters(cal, cal.cap)
    return NoiseScales(
        tangent_value=cal.noise * n * RESOLUTION,
        tangent_slope=cal.noise * n,
        test_threshold=test.threshold_scale,
        test_query=test.query_scale,
    )


def _noisy_tangent(
    oracle: SortedOracle, j: int, v_grid: int, cal: Calibration, rng: PrivateRandom
) -> tuple[float, float]:
    """(value, slope) at v with discrete noise: value units R n b (sens R), slope units n b (sens 2)."""
    n = oracle.n
    point = np.array([v_grid], dtype=np.int64)
    value_sum = int(oracle.value_sums(j, point)[0])
    count = int(oracle.slope_counts(j, point)[0])
    draw: Callable[[float, int], np.ndarray] = rng.discrete_gaussian if cal.gaussian else rng.discrete_laplace
    scales = noise_scales(cal, n)
    value_noise = int(draw(scales.tangent_value, 1)[0])
    slope_noise = int(draw(scales.tangent_slope, 1)[0])
    return (value_sum + value_noise) / (n * RESOLUTION), (count + slope_noise) / n


@dataclass(frozen=True)
class OnlineAnswer:
    """One answered query (DP outputs and public quantities only; a live plot can draw it).

    ``query`` is the public normalised query, ``answer`` the released average distance (normalised units),
    ``updated`` whether the query fired an update, ``updates_used`` the FIREs so far (at most the cap M) and
    ``halted`` whether the session has reached its cap (it then never reads the data again), ``cap`` the
    public cap M of the calibration. Every field is a function of the sparse-vector outputs, the released
    hypotheses and public parameters, never of an unnoised statistic.
    """

    index: int
    query: tuple[float, ...]
    answer: float
    updated: bool
    updates_used: int
    halted: bool
    cap: int


class OnlineSession:
    """Algorithm D (paper 004 Thm 1, spec s3): answer l1 queries one at a time with ``answer(q)``.

    ``q`` is a normalised point (any real vector; the out-of-box part is added exactly). The whole cost
    (``cost``) is fixed up front by the calibration; ``cost_so_far`` charges the instances opened so far for
    an app that meters per query (each opened AboveThreshold instance and its update, at most M).
    After M FIREs the session never touches the data again (``halted``).
    """

    def __init__(self, oracle: SortedOracle, cal: Calibration, rng: PrivateRandom, delta: float) -> None:
        self._oracle = oracle
        self.calibration = cal
        self._rng = rng
        self._delta = delta
        self.learners = [TangentLearner() for _ in range(int(cal.diameter))]
        self._svt = SparseVector(test_parameters(cal, cal.cap), rng)
        self.cost = spent(cal, oracle.n, True, delta)
        self.answered = 0

    @property
    def updates(self) -> int:
        return self._svt.above_count

    @property
    def halted(self) -> bool:
        return self._svt.exhausted

    def cost_so_far(self) -> PrivacyCost:
        opened = min(self.updates + 1, self.calibration.cap)
        cal = self.calibration
        per_round = requirement(cal, self._oracle.n, len(self.learners)) / cal.cap
        if cal.gaussian:
            return ZCDPCost(round_up(opened * per_round)).to_approx_dp(self._delta)
        return PrivacyCost(round_up(opened * per_round))

    def _hypothesis(self, inside: np.ndarray) -> float:
        return float(sum(learner(inside[j]) for j, learner in enumerate(self.learners)))

    def _released(self, q: np.ndarray, value: float, updated: bool) -> OnlineAnswer:
        self.answered += 1
        query = tuple(float(x) for x in q)
        return OnlineAnswer(
            self.answered - 1, query, value, updated, self.updates, self.halted, self.calibration.cap
        )

    def answer(self, query: np.ndarray) -> OnlineAnswer:
        q = np.asarray(query, dtype=np.float64)
        inside = np.clip(q, 0.0, 1.0)
        extra = float(np.abs(q - inside).sum())
        guess = self._hypothesis(inside)
        if self.halted:
            return self._released(q, guess + extra, False)
        grid = snap(inside)
        dims = len(self.learners)
        sums = sum(int(self._oracle.value_sums(j, grid[[j]])[0]) for j in range(dims))
        if not self._svt.is_above(svt_query_value(guess, sums, self._oracle.n, dims)):
            return self._released(q, guess + extra, False)
        for j, learner in enumerate(self.learners):  # update every coordinate (safe, spec s2.2)
            value, slope = _noisy_tangent(self._oracle, j, int(grid[j]), self.calibration, self._rng)
            learner.add_tangent(grid[j] / RESOLUTION, value, slope)
        return self._released(q, self._hypothesis(inside) + extra, True)


def online_answers(
    points: np.ndarray,
    queries: Iterable[np.ndarray],
    calibration: Calibration,
    rng: PrivateRandom,
    *,
    delta: float = 0.0,
) -> AlgorithmRun[tuple[OnlineAnswer, ...]]:
    """Drive an :class:`OnlineSession` over ``queries`` (public, normalised) in order, one Progress each.

    Each Progress's partial is the :class:`OnlineAnswer` just released, so an app shows (and a plot draws)
    every answer as it is produced. The cost is the session's whole (eps, delta), fixed up front by the
    sparse-vector accounting; ``delta`` only converts the zCDP cost (``calibration.gaussian``). After the cap
    the session answers from its hypothesis without reading ``points``. Returns every answer in order.
    ``queries`` may be any iterable (an unbounded stream): the fraction is then 0 until the end.
    """
    session = OnlineSession(SortedOracle(points), calibration, rng, delta)
    total = len(queries) if isinstance(queries, Sized) else 0
    answers = []
    for query in queries:
        answer = session.answer(query)
        answers.append(answer)
        state = "halted at the cap" if answer.halted else f"{answer.updates_used} of {calibration.cap}"
        fraction = (answer.index + 1) / total if total else 0.0
        yield Progress(fraction, f"answered query {answer.index + 1} (updates {state})", answer)
    return tuple(answers)


def _coarse_to_fine(points: int) -> np.ndarray:
    """Grid indices 0..points-1 ordered coarse to fine (ends first, then by lowest set bit, descending)."""
    index = np.arange(points)
    low_bit = np.where(index == 0, 1 << 62, index & -index)
    order = np.argsort(-low_bit, kind="stable")
    last = points - 1
    return np.concatenate([[0, last], order[(order != 0) & (order != last)]]) if points > 1 else order


def offline_release(
    normalised: np.ndarray, cal: Calibration, rng: PrivateRandom
) -> AlgorithmRun[tuple[list[TangentLearner], int]]:
    """Algorithm E (paper 004 Thm 2, spec s4): per coordinate, AboveThreshold over a public grid of spacing h.

    Each coordinate has its own SparseVector with cap T_i (eps_A each, test sensitivity 1/n) and each FIRE
    adds one noisy tangent (eps_U = 3/(n b) or rho_U = 5/(2 n^2 sigma^2)); M = l T_i rounds are charged in
    total (no parallel composition). Returns the learners and the number of FIREs.
    """
    oracle = SortedOracle(normalised)
    dims = normalised.shape[1]
    points = math.ceil(1 / cal.grid_spacing) + 1
    grid = snap(np.linspace(0.0, 1.0, points))[_coarse_to_fine(points)]
    learners, fires = [], 0
    n = oracle.n
    for j in range(dims):
        learner = TangentLearner()
        svt = SparseVector(test_parameters(cal, cal.per_coordinate_cap), rng)
        for v in grid:
            if svt.exhausted:
                break
            sums = int(oracle.value_sums(j, np.array([v]))[0])
            if svt.is_above(svt_query_value(float(learner(v / RESOLUTION)), sums, n, 1)):
                value, slope = _noisy_tangent(oracle, j, int(v), cal, rng)
                learner.add_tangent(v / RESOLUTION, value, slope)
                fires += 1
        learners.append(learner)
        yield Progress((j + 1) / dims, f"coordinate {j + 1} of {dims}: {len(learner.slopes) - 1} tangents")
    return learners, fires


def learners_structure(
    learners: list[TangentLearner],
    columns: tuple[str, ...],
    lower: np.ndarray,
    upper: np.ndarray,
    metadata: dict,
) -> DistanceStructure:
    """Export the hypotheses as a DistanceStructure (post-processing): upper-envelope knots per coordinate."""
    envelopes = [learner.envelope() for learner in learners]
    return DistanceStructure(
        columns=columns,
        lower=np.asarray(lower, dtype=np.float64),
        upper=np.asarray(upper, dtype=np.float64),
        metric="l1",
        embedding=IdentityEmbedding(len(learners)),
        knots=tuple(k for k, _ in envelopes),
        values=tuple(v for _, v in envelopes),
        metadata=metadata,
    )
