"""The per-coordinate CDF route for average-distance queries (spec 004 s7, REVIEW-001-003-004 s1 and s6.1).

Identity (spec 004 s2.1, REVIEW s1.1, exact because the data are clipped to the box). On the normalised axis
of coordinate j, with C_j the empirical CDF of u_j,

    G_j(v) = (1/n) sum_x |u_j(x) - v| = int_0^v C_j + int_v^1 (1 - C_j),   and   F(y) = sum_j w_j G_j(u_j(y))

(w_j = 1 in cube units). So one private CDF per coordinate answers *every* l1 query at once; for a query
outside the box, G_j(v) = G_j(clip(v)) + |v - clip(v)| exactly. Through a 1-sensitive embedding
(embeddings.py) the same route answers l2 (random projection) and general metrics (Bourgain).

Released object (:class:`DistanceStructure`). Coordinate j is discretised to public support points s_0 < ... <
s_{m-1} in [0, 1] (the declared grid when it has at most ``bins`` points, else the centres of ``bins`` equal
bins); each value is moved to its nearest support point (a fixed, public map). The private CDF of the support
indices gives masses mass_b = C_hat(s_b) - C_hat(s_{b-1}) with C_hat(s_{m-1}) = 1 pinned, and

    G_hat_j(v) = sum_b mass_b |s_b - v|,

which is piecewise linear with knots at the support points: it is stored as (knots, values) and evaluated
exactly with ``np.interp`` (plus the out-of-box term). Answers are post-processing: no budget, no data.

Answer scale. Answers are in *normalised units*: every column's declared [lo, hi] is mapped to [0, 1] and the
average distance is computed there (l1: in [0, l] inside the box; l2: [0, sqrt l]; l-inf: [0, 1]; Hamming:
[0, l]). Multiply coordinate j by (hi_j - lo_j) to go back to original units for l1.

Privacy. The private CDF of each coordinate is the tree of ``dpgui.algorithms.tree_cdf`` over that
coordinate's support (the adapter :func:`coordinate_cdfs`, swappable). Every record appears in every released
coordinate, so there is NO parallel composition: the budget is split evenly over the c released coordinates by
basic composition (pure: eps/c per tree) or zCDP composition (rho/c per tree, discrete Gaussian tree). For one
tree of height h the node vector has L1 sensitivity 2h and L2 sensitivity sqrt(2h) under replace-one (tree_cdf
module doc; REVIEW s1.3), so the joint node vector of c trees has L1 sensitivity 2ch and L2 sensitivity
sqrt(2ch).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from dpgui.algorithms.distance.embeddings import Embedding, Metric, embedding_from_json
from dpgui.algorithms.progress import AlgorithmRun, Progress, run_to_end
from dpgui.algorithms.tree_cdf import (
    TreeNoise,
    TreeShape,
    best_branching,
    node_variance_proxy,
    noise_scale,
    tree_cdf,
)
from dpgui.privacy.random import PrivateRandom, SeededRandom

STRUCTURE_FILE = "distance_structure.json"
STRUCTURE_VERSION = 1
DEFAULT_SUPPORT = 256
ANSWER_SCALE = (
    "normalised units: each column's declared [lo, hi] is mapped to [0, 1] and the average distance from the "
    "query to the records (clipped to the box) is measured there"
)
DATA_UNITS_COLUMN = "distance_in_data_units"
"""The column of an answer in the columns' own units, where post-processing gives it exactly."""


def uniform_scale(lower: np.ndarray, upper: np.ndarray, metric: str) -> float | None:
    """The one factor turning a normalised distance into the columns' units: the common declared range r
    when every column has it and the metric is homogeneous (l1, l2, l-inf scale by r; Hamming counts
    differing coordinates, which no range changes); None when the columns' ranges differ or for Hamming."""
    ranges = np.asarray(upper, dtype=np.float64) - np.asarray(lower, dtype=np.float64)
    if metric == "hamming" or ranges.size == 0 or not np.all(ranges == ranges[0]):
        return None
    return float(ranges[0])


@dataclass(frozen=True)
class PrivacyBudget:
    """How the release is noised: pure epsilon (discrete Laplace) or rho-zCDP (discrete Gaussian)."""

    epsilon: float
    rho: float | None = None

    @property
    def noise(self) -> TreeNoise:
        return TreeNoise.LAPLACE if self.rho is None else TreeNoise.GAUSSIAN

    def split(self, parts: int) -> PrivacyBudget:
        """Basic (pure) or zCDP composition over ``parts`` mechanisms on the same records."""
        return PrivacyBudget(self.epsilon / parts, None if self.rho is None else self.rho / parts)


@dataclass(frozen=True, eq=False)
class DistanceStructure:
    """A released distance structure: answers any query by post-processing (no data, no budget).

    ``lower``/``upper`` are the declared column bounds; ``knots[j]``/``values[j]`` the piecewise-linear
    G_hat_j on the normalised axis of released coordinate j; the embedded box of coordinate j is
    [coord_lower[j], coord_upper[j]] (public, from the embedding and the declared domain). ``metadata`` holds
    public facts only (mechanism, n, epsilon, delta, rho, noise, bins, certified accuracy...), never counts or
    noise.
    """

    columns: tuple[str, ...]
    lower: np.ndarray
    upper: np.ndarray
    metric: str
    embedding: Embedding
    knots: tuple[np.ndarray, ...]
    values: tuple[np.ndarray, ...]
    metadata: dict = field(default_factory=dict)
    answer_scale: str = ANSWER_SCALE

    def normalise(self, queries: np.ndarray) -> np.ndarray:
        """Original units -> normalised coordinates (not clipped: out-of-box queries are exact)."""
        queries = np.atleast_2d(np.asarray(queries, dtype=np.float64))
        if queries.shape[1] != len(self.columns):
            raise ValueError(f"queries need {len(self.columns)} coordinates, got {queries.shape[1]}")
        if not np.isfinite(queries).all():  # nan or inf would be answered nan or inf, not refused
            raise ValueError("every query coordinate must be a finite number (not nan or inf)")
        return (queries - self.lower) / (self.upper - self.lower)

    def _terms(self, queries: np.ndarray) -> np.ndarray:
        """Each released coordinate's share of the answer (queries x coordinates, normalised units)."""
        embedded = self.embedding.embed(self.normalise(queries))
        lo, hi = self.embedding.lower, self.embedding.upper
        width = hi - lo
        terms = np.empty(embedded.shape)
        for j in range(embedded.shape[1]):
            v = (embedded[:, j] - lo[j]) / width[j]
            inside = np.clip(v, 0.0, 1.0)
            terms[:, j] = width[j] * (np.interp(inside, self.knots[j], self.values[j]) + np.abs(v - inside))
        return terms

    def answer(self, queries: np.ndarray) -> np.ndarray:
        """Average distance from each query (original units, one row each) to the records, in normalised
        units."""
        return self._terms(queries).sum(axis=1) * self.embedding.answer_factor

    @property
    def in_data_units(self) -> bool:
        """Whether :meth:`answer_in_data_units` can answer in the columns' own units exactly: l1 without an
        embedding (the answer is a sum over columns, each rescaled by its range), or any metric but Hamming
        when every column has the same declared range (normalising is then one uniform scaling)."""
        return (
            self.embedding.kind == "identity"
            or uniform_scale(self.lower, self.upper, self.metric) is not None
        )

    def answer_in_data_units(self, queries: np.ndarray) -> np.ndarray:
        """Average distance in the columns' own units (post-processing of the same release, exact; see
        :attr:`in_data_units`). ValueError when the columns' units cannot be recovered: l2, l-inf or Bourgain
        over columns of different ranges measure distance on the normalised box only."""
        if self.embedding.kind == "identity":
            return self._terms(queries) @ (self.upper - self.lower) * self.embedding.answer_factor
        scale = uniform_scale(self.lower, self.upper, self.metric)
        if scale is None:
            raise ValueError(
                f"{self.metric} answers over columns of different declared ranges exist in normalised units "
                "only; declare the same range for every column to read them in the columns' units"
            )
        return self.answer(queries) * scale

    def to_json(self) -> dict:
        return {
            "format": "dpgui-distance-structure",
            "version": STRUCTURE_VERSION,
            "columns": list(self.columns),
            "lower": self.lower.tolist(),
            "upper": self.upper.tolist(),
            "metric": self.metric,
            "answer_scale": self.answer_scale,
            "embedding": self.embedding.to_json(),
            "knots": [k.tolist() for k in self.knots],
            "values": [v.tolist() for v in self.values],
            "metadata": self.metadata,
        }

    @classmethod
    def from_json(cls, data: dict) -> DistanceStructure:
        """Rebuild a structure from its JSON form, refusing any file this module did not write whole:
        ValueError naming what is wrong, never a crash later while answering."""
        if not isinstance(data, dict) or data.get("format") != "dpgui-distance-structure":
            raise ValueError("not a dpgui distance structure (no 'format': 'dpgui-distance-structure')")
        if data.get("version") != STRUCTURE_VERSION:
            raise ValueError(f"not a version-{STRUCTURE_VERSION} dpgui distance structure")
        try:
            structure = cls(
                columns=tuple(str(c) for c in data["columns"]),
                lower=np.asarray(data["lower"], dtype=np.float64),
                upper=np.asarray(data["upper"], dtype=np.float64),
                metric=str(data["metric"]),
                embedding=embedding_from_json(data["embedding"]),
                knots=tuple(np.asarray(k, dtype=np.float64) for k in data["knots"]),
                values=tuple(np.asarray(v, dtype=np.float64) for v in data["values"]),
                metadata=dict(data["metadata"]),
                answer_scale=str(data["answer_scale"]),
            )
            structure.check_consistent()
        except KeyError as missing:
            raise ValueError(f"damaged distance structure: no {missing.args[0]!r} entry") from None
        except (TypeError, ValueError, IndexError) as error:
            raise ValueError(f"damaged distance structure: {error}") from None
        return structure

    def check_consistent(self) -> None:
        """ValueError unless the bounds, the embedding and the released curves fit together (one bound per
        column, one curve of matching knots and values per embedded coordinate, all numbers finite)."""
        Metric(self.metric)  # ValueError for a metric this module never releases
        width = len(self.columns)
        if width == 0 or self.lower.shape != (width,) or self.upper.shape != (width,):
            raise ValueError(f"one lower and one upper bound per column needed ({width} columns)")
        if not (
            np.isfinite(self.lower).all()
            and np.isfinite(self.upper).all()
            and (self.upper > self.lower).all()
        ):
            raise ValueError("every column needs finite bounds with lower < upper")
        embedded = self.embedding.embed(np.zeros((1, width)))
        coordinates = (len(self.knots),)
        if (
            embedded.shape != (1, *coordinates)
            or self.embedding.lower.shape != coordinates
            or len(self.values) != len(self.knots)
        ):
            raise ValueError("the released curves do not match the embedding's coordinates")
        for knots, values in zip(self.knots, self.values, strict=True):
            if knots.ndim != 1 or knots.shape != values.shape or knots.size < 2:
                raise ValueError("each released curve needs as many knots as values (at least two)")
            if not (np.isfinite(knots).all() and np.isfinite(values).all() and (np.diff(knots) >= 0).all()):
                raise ValueError("each released curve needs finite values on increasing knots")

    def to_bytes(self) -> bytes:
        """The ``distance_structure.json`` file content (JSON floats round-trip exactly)."""
        return (json.dumps(self.to_json(), ensure_ascii=False) + "\n").encode("utf-8")

    @classmethod
    def from_bytes(cls, content: bytes) -> DistanceStructure:
        """Parse ``distance_structure.json`` content (for example a release's attachment)."""
        try:
            data = json.loads(content.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise ValueError(f"not a dpgui distance structure (not UTF-8 JSON: {error})") from None
        return cls.from_json(data)

    @classmethod
    def load(cls, path: Path) -> DistanceStructure:
        """Load from a file, or from a release folder holding ``distance_structure.json``."""
        path = path / STRUCTURE_FILE if path.is_dir() else path
        try:
            return cls.from_bytes(path.read_bytes())
        except ValueError as error:
            raise ValueError(f"{path}: {error}") from None


def support_points(grid_points: np.ndarray | None, bins: int) -> np.ndarray:
    """Public support on [0, 1]: the normalised declared grid if it has <= ``bins`` points, else bin
    centres."""
    if grid_points is not None and grid_points.size <= bins:
        return np.asarray(grid_points, dtype=np.float64)
    return (np.arange(bins) + 0.5) / bins


def nearest_support(values: np.ndarray, support: np.ndarray) -> np.ndarray:
    """Index of the nearest support point (a fixed public map; ties go up)."""
    edges = (support[1:] + support[:-1]) / 2
    return np.searchsorted(edges, np.clip(values, 0.0, 1.0), side="right")


def discretisation_error(support: np.ndarray) -> float:
    """Max over v in [0, 1] of the distance to the nearest support point: bounds |G_snapped - G| per
    coordinate."""
    gaps = np.diff(support) / 2
    return float(max(support[0], 1.0 - support[-1], gaps.max() if gaps.size else 0.0))


def masses_to_function(support: np.ndarray, mass: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Knots [0, s_0..s_{m-1}, 1] and values sum_b mass_b |s_b - knot| via prefix sums (exact, O(m))."""
    knots = np.unique(np.concatenate([[0.0], support, [1.0]]))
    cum_mass = np.concatenate([[0.0], np.cumsum(mass)])
    cum_moment = np.concatenate([[0.0], np.cumsum(mass * support)])
    below = np.searchsorted(support, knots, side="right")
    c, s = cum_mass[below], cum_moment[below]
    values = knots * c - s + (cum_moment[-1] - s) - knots * (cum_mass[-1] - c)
    return knots, values


def coordinate_cdfs(
    indices: np.ndarray, sizes: list[int], n: int, budget: PrivacyBudget, rng: PrivateRandom
) -> AlgorithmRun[list[np.ndarray]]:
    """Private CDF of each column of ``indices`` (support indices) by the tree of tree_cdf.py (the adapter).

    The budget is split evenly over the columns (no parallel composition: every record is in every column).
    """
    columns = indices.shape[1]
    each = budget.split(columns)
    cdfs: list[np.ndarray] = []
    for j in range(columns):
        histogram = np.bincount(indices[:, j], minlength=sizes[j])
        run = tree_cdf(histogram, n, each.epsilon, rng, noise=each.noise, rho=each.rho)
        while True:
            try:
                next(run)
            except StopIteration as stop:
                cdfs.append(stop.value.cdf)
                break
        yield Progress((j + 1) / columns, f"released the CDF of coordinate {j + 1} of {columns}")
    return cdfs


def release_coordinates(
    embedded: np.ndarray,
    lower: np.ndarray,
    upper: np.ndarray,
    supports: list[np.ndarray],
    budget: PrivacyBudget,
    rng: PrivateRandom,
) -> AlgorithmRun[tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]]:
    """Release G_hat for every embedded coordinate: (knots, values) per coordinate on its normalised axis."""
    n = embedded.shape[0]
    normalised = (embedded - lower) / (upper - lower)
    indices = np.column_stack([nearest_support(normalised[:, j], supports[j]) for j in range(len(supports))])
    cdfs = yield from coordinate_cdfs(indices, [s.size for s in supports], n, budget, rng)
    knots, values = [], []
    for support, cdf in zip(supports, cdfs, strict=True):
        cdf = cdf.copy()
        cdf[-1] = 1.0  # pinned (n is public): keeps G_hat's slopes in [-1, 1] (REVIEW s1.2)
        k, v = masses_to_function(support, np.diff(np.concatenate([[0.0], cdf])))
        knots.append(k)
        values.append(v)
    return tuple(knots), tuple(values)


def _tail_multiplier(noise: TreeNoise, log_term: float) -> float:
    """u with P(|sum a_i Z_i| > u s ||a||_2) <= 2 exp(-log_term) (tree_cdf.cdf_error_bound's two tails)."""
    if noise is TreeNoise.GAUSSIAN:
        return math.sqrt(2 * log_term)
    return math.sqrt(8 * log_term) if log_term <= 1 else math.sqrt(2) * (log_term + 1)


def predicted_max_error(
    supports: list[np.ndarray], weights: np.ndarray, n: int, budget: PrivacyBudget, queries: int, beta: float
) -> float:
    """Predicted max error over ``queries`` queries fixed in advance, at confidence 1 - beta (normalised
    units).

    One query's error in coordinate j (before isotonic regression) is a linear functional of the tree noise:
    sum_b a_b N_b / n with sum_b |a_b| <= 1, and every consistent prefix noise N_b = <w_b, Z> has ||w_b||_2^2
    <= D_j (tree_cdf module doc), so the functional's coefficient vector has ||a||_2 <= sqrt(D_j) s_j / n.
    Summing coordinates with weights w_j gives ||a||_2^2 <= sum_j w_j^2 D_j s_j^2 / n^2; the tails of
    tree_cdf's cdf_error_bound (sub-Gaussian / Laplace Chernoff) and a union bound over the queries give the
    noise part; the discretisation adds sum_j w_j disc_j. Isotonic regression and clipping (tree_cdf) are not
    covered by this linear argument (they are non-expansive in the integrated form, REVIEW s1.2): a
    *prediction*.
    """
    each = budget.split(len(supports))
    variance = 0.0
    for support, weight in zip(supports, weights, strict=True):
        if support.size < 2:
            continue
        shape = TreeShape.for_grid(support.size, best_branching(support.size, each.noise))
        scale = noise_scale(each.noise, shape.height, each.epsilon, each.rho)
        variance += weight**2 * shape.decomposition_nodes * node_variance_proxy(each.noise, scale)
    proxy_scale = math.sqrt(variance / 2 if each.noise is TreeNoise.LAPLACE else variance)
    noise_part = _tail_multiplier(each.noise, math.log(2 * max(queries, 1) / beta)) * proxy_scale / max(n, 1)
    binning = float(sum(w * discretisation_error(s) for s, w in zip(supports, weights, strict=True)))
    return noise_part + binning


CERTIFY_DRAWS = 100
"""Noise-only Monte-Carlo draws behind :func:`certified_max_error` (public)."""

CERTIFY_RUNGS_PER_DOUBLING = 8
"""The simulated budget is rounded DOWN to 2^(k/8) (more noise: conservative), so a planner's search over
epsilon simulates a few rungs, each once (cached)."""

CERTIFY_SEED = 4_004
"""PUBLIC seed of that simulation: it draws the noise distribution only, never touches data."""

CERTIFY_CONFIDENCE = 0.01
"""The simulated quantile is an upper confidence bound: it is below the true one with prob <= this."""

_REFERENCE_COUNT = 1 << 30
"""Counts per support point of the public reference histogram (see :func:`_noise_mass`)."""


def _upper_rank(draws: int, beta: float) -> int:
    """The smallest k such that the k-th smallest of ``draws`` iid values is >= their (1 - beta)-quantile
    with probability >= 1 - CERTIFY_CONFIDENCE (binomial order-statistic bound; k <= draws)."""
    p = 1 - beta
    below = 0.0  # P(Bin(draws, p) <= k - 1)
    for k in range(1, draws + 1):
        below += math.comb(draws, k - 1) * p ** (k - 1) * (1 - p) ** (draws - k + 1)
        if 1 - below <= CERTIFY_CONFIDENCE:
            return k
    return draws


def _noise_mass(size: int, each: PrivacyBudget, rng: PrivateRandom) -> float:
    """One draw of sum_b |N_b| for one coordinate: the l1 norm of the consistent prefix noise, in counts.

    The tree's consistent estimate is the truth plus a linear function of the node noise alone, so it is
    drawn by releasing a PUBLIC reference histogram (``_REFERENCE_COUNT`` at every support point): its
    increments are so much larger than the noise that the isotonic regression and the clipping provably do
    nothing (checked: strictly increasing and positive; else inf), and released CDF x n minus the true prefix
    counts is exactly the noise (n <= 2^46, so the float rounding is below 0.02 counts per point).
    """
    histogram = np.full(size, _REFERENCE_COUNT, dtype=np.int64)
    n = _REFERENCE_COUNT * size
    release = run_to_end(tree_cdf(histogram, n, each.epsilon, rng, noise=each.noise, rho=each.rho))
    prefix = release.cdf * n
    if not (np.all(np.diff(prefix) > 0) and prefix[0] > 0):
        return math.inf  # noise beyond 2^30 counts (a vanishing budget): certify nothing
    return float(np.abs(prefix - np.arange(1, size + 1) * float(_REFERENCE_COUNT)).sum())


@lru_cache(maxsize=64)
def _certified_noise(layout: tuple[tuple[int, float], ...], budget: PrivacyBudget, beta: float) -> float:
    """The certified (1 - beta)-quantile of sum_j c_j sum_b |N_j(b)| (counts), layout = (size_j, c_j)."""
    each = budget.split(len(layout))
    rng = SeededRandom(CERTIFY_SEED)
    totals = np.zeros(CERTIFY_DRAWS)
    for size, coefficient in layout:
        if size > 1 and coefficient > 0:
            totals += coefficient * np.array([_noise_mass(size, each, rng) for _ in range(CERTIFY_DRAWS)])
    return float(np.sort(totals)[_upper_rank(CERTIFY_DRAWS, beta) - 1])


def certified_max_error(
    supports: list[np.ndarray], weights: np.ndarray, n: int, budget: PrivacyBudget, beta: float
) -> float:
    """A certified bound, at confidence 1 - beta, on the max error over ALL queries at once (normalised
    units): the (1 - beta)-quantile of the right side of REVIEW-001-003-004 s1.2 (*) by a noise-only Monte
    Carlo (REVIEW s6.2 item 2, the default certified option; not the sup-norm route).

    Bound. With D_j(b) the released minus the (snapped) true CDF at support point b, summation by parts gives
    |G_hat_j(v) - G_snapped_j(v)| <= sum_b |D_j(b)| (s_{b+1} - s_b) <= g_j sum_b |D_j(b)| (g_j the largest
    support gap), and sum_b |D_j(b)| <= sum_b |N_j(b)| / n because the isotonic regression, the clipping and
    the pinned end are l1-non-expansive toward the monotone truth (REVIEW s1.2); snapping the data adds at
    most disc_j (:func:`discretisation_error`). So for every query y at once

        |F_hat(y) - F(y)| <= (1/n) sum_j w_j g_j sum_b |N_j(b)| + sum_j w_j disc_j,

    whose right side depends on the noise only. The noise distribution is public (tree shapes, budget), so
    its quantile is simulated with the public seed ``CERTIFY_SEED`` (``CERTIFY_DRAWS`` draws, an upper
    order statistic that overshoots the quantile with probability >= 0.99) at the budget rounded down to a
    public rung (``CERTIFY_RUNGS_PER_DOUBLING``; less budget means more noise, so the rounding only
    loosens the bound), cached per layout and rung. n enters as the exact factor 1/n, so more n never
    predicts more error; more epsilon moves to a higher rung (monotone up to the simulation's noise between
    neighbouring rungs, 9% apart). Cost: CERTIFY_DRAWS tree releases per coordinate and rung (0.05-0.4 s
    per coordinate), so it is meant for a few coordinates (l1).
    """
    layout = tuple(
        (support.size, float(w) * float(np.diff(support).max() if support.size > 1 else 0.0))
        for support, w in zip(supports, weights, strict=True)
    )
    binning = float(sum(w * discretisation_error(s) for s, w in zip(supports, weights, strict=True)))
    return _certified_noise(layout, _rounded_down(budget), beta) / max(n, 1) + binning


def _rounded_down(budget: PrivacyBudget) -> PrivacyBudget:
    def down(x: float) -> float:
        return 2.0 ** (math.floor(math.log2(x) * CERTIFY_RUNGS_PER_DOUBLING) / CERTIFY_RUNGS_PER_DOUBLING)

    return PrivacyBudget(down(budget.epsilon), None if budget.rho is None else down(budget.rho))


def cdf_route(
    points: np.ndarray,
    embedding: Embedding,
    supports: list[np.ndarray],
    budget: PrivacyBudget,
    rng: PrivateRandom,
) -> AlgorithmRun[tuple[tuple[np.ndarray, ...], tuple[np.ndarray, ...]]]:
    """Embed the normalised private points (1-sensitive, public map) and release every coordinate's G_hat."""
    embedded = embedding.embed(points)
    result = yield from release_coordinates(embedded, embedding.lower, embedding.upper, supports, budget, rng)
    return result
