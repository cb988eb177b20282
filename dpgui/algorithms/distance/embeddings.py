"""Metrics on the normalised box and the 1-sensitive embeddings into l1 (paper 004 s4, spec 004 s5).

Coordinates. Every column j has declared public bounds [lo_j, hi_j]; a point x is normalised to
u_j = (x_j - lo_j) / (hi_j - lo_j), so the data (clipped to the box) live in [0, 1]^l. All metrics below are
computed on these normalised coordinates ("cube units"): l1 (diameter l), l2 (diameter sqrt(l)), l-infinity
(diameter 1) and Hamming (the number of differing columns, diameter l; meant for categorical columns encoded
as integers).

Embeddings (spec 004 s5.1, Def 6 of paper 004). An embedding pi maps a normalised point to R^l' and comes with
a public box [lower, upper] that holds pi(x) for every x in the declared box, computed from pi and the
declared domain only. Each one is *1-sensitive*: pi(x) depends on x and on public quantities only, never on
the other records, so replacing one record changes one embedded record (Thm 8: privacy transfers unchanged).

* :class:`IdentityEmbedding`: l1 itself.
* :class:`RandomProjection`: l2 -> l1 by Gaussian random projections (paper 004 Lemma 9 / Thm 10, spec s5.2):
  pi(u) = G u / (l' sqrt(2/pi)), so E ||pi(u) - pi(v)||_1 = ||u - v||_2. Usable online and offline.
* :class:`BourgainEmbedding`: any metric, built from the public query set Q (paper 004 Fig. 3 / Thm 11,
  spec s5.3 "fixed, implementable version" with nested subsets). Offline only (Remark 8.2): answers for points
  outside Q carry no accuracy guarantee.

Public randomness. The projection matrix G and the Bourgain uniforms U are drawn from a *public* seed through
:class:`~dpgui.privacy.random.SeededRandom`. This seed is NOT a private-noise seed: the embedding is public
and data-independent, and the matrix / uniforms themselves are exported with the structure (REVIEW-001-003-004
s3a: numpy streams may change across versions). Private noise always comes from the ``rng`` argument of the
release functions.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Protocol

import numpy as np

from dpgui.privacy.random import SeededRandom

_CHUNK_ELEMENTS = 1 << 23
"""Rows x queries per block when computing distance matrices (spec 004 s8: never broadcast huge tensors)."""


class Metric(enum.Enum):
    L1 = "l1"
    L2 = "l2"
    LINF = "linf"
    HAMMING = "hamming"

    def diameter(self, dims: int) -> float:
        """The metric's diameter on the normalised box [0, 1]^dims (public)."""
        if self is Metric.L2:
            return math.sqrt(dims)
        if self is Metric.LINF:
            return 1.0
        return float(dims)


def _reduce(diff: np.ndarray, metric: Metric) -> np.ndarray:
    """The metric of absolute coordinate differences along the last axis."""
    if metric is Metric.L1:
        return diff.sum(axis=-1)
    if metric is Metric.L2:
        return np.sqrt((diff * diff).sum(axis=-1))
    if metric is Metric.LINF:
        return diff.max(axis=-1)
    return (diff > 1e-12).sum(axis=-1).astype(np.float64)


def metric_distances(points: np.ndarray, queries: np.ndarray, metric: Metric) -> np.ndarray:
    """The (m, k) matrix of distances between normalised points and normalised queries."""
    return _reduce(np.abs(points[:, None, :] - queries[None, :, :]), metric)


def paired_distances(a: np.ndarray, b: np.ndarray, metric: Metric) -> np.ndarray:
    """Row-wise distances d(a_i, b_i) of two (m, l) arrays of normalised points."""
    return _reduce(np.abs(a - b), metric)


def public_normals(seed: int, size: int) -> np.ndarray:
    """Standard normals from a PUBLIC seed (Box-Muller on SeededRandom uniforms); not for private noise."""
    source = SeededRandom(seed)
    half = (size + 1) // 2
    u1, u2 = source.uniform01(half), source.uniform01(half)
    radius = np.sqrt(-2.0 * np.log(u1))
    return np.concatenate([radius * np.cos(2 * np.pi * u2), radius * np.sin(2 * np.pi * u2)])[:size]


class Embedding(Protocol):
    """A public, 1-sensitive map from normalised points to R^dimension with a public bounding box."""

    kind: str

    @property
    def dimension(self) -> int: ...

    @property
    def lower(self) -> np.ndarray: ...

    @property
    def upper(self) -> np.ndarray: ...

    @property
    def answer_factor(self) -> float:
        """Answers are answer_factor x (l1 distance in the embedded space)."""
        ...

    def embed(self, points: np.ndarray) -> np.ndarray: ...

    def to_json(self) -> dict: ...


@dataclass(frozen=True)
class IdentityEmbedding:
    """l1 on the normalised box: no embedding."""

    dims: int
    kind: str = "identity"

    @property
    def dimension(self) -> int:
        return self.dims

    @property
    def lower(self) -> np.ndarray:
        return np.zeros(self.dims)

    @property
    def upper(self) -> np.ndarray:
        return np.ones(self.dims)

    @property
    def answer_factor(self) -> float:
        return 1.0

    def embed(self, points: np.ndarray) -> np.ndarray:
        return np.asarray(points, dtype=np.float64)

    def to_json(self) -> dict:
        return {"kind": self.kind, "dims": self.dims}


@dataclass(frozen=True, eq=False)
class RandomProjection:
    """l2 -> l1: pi(u) = matrix @ u with matrix = G / (l' sqrt(2/pi)), G i.i.d. N(0, 1) (spec 004 s5.2)."""

    matrix: np.ndarray
    seed: int
    kind: str = "random-projection"

    @classmethod
    def draw(cls, dims: int, target_dimension: int, public_seed: int) -> RandomProjection:
        """Draw G from the PUBLIC seed (data-independent; exported with the structure)."""
        gauss = public_normals(public_seed, target_dimension * dims).reshape(target_dimension, dims)
        return cls(gauss / (target_dimension * math.sqrt(2 / math.pi)), public_seed)

    @property
    def dimension(self) -> int:
        return self.matrix.shape[0]

    @property
    def lower(self) -> np.ndarray:
        """Interval arithmetic over u in [0, 1]^l: sum_k min(0, M_jk) (declared domain only)."""
        return np.minimum(self.matrix, 0).sum(axis=1)

    @property
    def upper(self) -> np.ndarray:
        return np.maximum(self.matrix, 0).sum(axis=1)

    @property
    def answer_factor(self) -> float:
        return 1.0

    def embed(self, points: np.ndarray) -> np.ndarray:
        return np.asarray(points, dtype=np.float64) @ self.matrix.T

    def to_json(self) -> dict:
        return {"kind": self.kind, "seed": self.seed, "matrix": self.matrix.tolist()}


@dataclass(frozen=True, eq=False)
class BourgainEmbedding:
    """The 1-sensitive Bourgain variant of paper 004 Fig. 3 over the public queries Q (spec 004 s5.3).

    L = floor(log2 k) + 1 levels, K repetitions, public uniforms U (K x k). S_ij = {y in Q : U[j, y] <
    2^-(i-1)} (nested; level 1 is all of Q). pi_ij(x) = min(dbar(x, S_ij), 1) / (K L) with dbar = d /
    diameter, and pi_ij = 0 when S_ij is empty. Expansion <= 1 holds deterministically (triangle inequality);
    the paper's contraction bound is 1/(64 L) with high probability (Thm 11). ``debias`` (public, heuristic)
    rescales the answers by the median over query pairs of d / ||pi(y) - pi(y')||_1.
    """

    metric: Metric
    queries: np.ndarray
    uniforms: np.ndarray
    seed: int
    debias: float = 1.0
    kind: str = "bourgain"

    @classmethod
    def draw(
        cls, metric: Metric, queries: np.ndarray, repetitions: int, public_seed: int, debias: bool = False
    ) -> BourgainEmbedding:
        queries = np.asarray(queries, dtype=np.float64)
        uniforms = SeededRandom(public_seed).uniform01(repetitions * len(queries)).reshape(repetitions, -1)
        plain = cls(metric, queries, uniforms, public_seed)
        if not debias:
            return plain
        return cls(metric, queries, uniforms, public_seed, plain.measured_debias())

    @property
    def levels(self) -> int:
        return math.floor(math.log2(len(self.queries))) + 1

    @property
    def repetitions(self) -> int:
        return self.uniforms.shape[0]

    @property
    def dimension(self) -> int:
        return self.levels * self.repetitions

    @property
    def diameter(self) -> float:
        return self.metric.diameter(self.queries.shape[1])

    @property
    def lower(self) -> np.ndarray:
        return np.zeros(self.dimension)

    @property
    def upper(self) -> np.ndarray:
        return np.full(self.dimension, 1.0 / self.dimension)

    @property
    def answer_factor(self) -> float:
        return self.diameter * self.debias

    def embed(self, points: np.ndarray) -> np.ndarray:
        points = np.asarray(points, dtype=np.float64)
        k, big_l, reps = len(self.queries), self.levels, self.repetitions
        order = np.argsort(self.uniforms, axis=1, kind="stable")
        probabilities = 2.0 ** -np.arange(big_l)
        sizes = (self.uniforms[:, :, None] < probabilities[None, None, :]).sum(axis=1)  # (K, L)
        out = np.zeros((len(points), reps, big_l))
        chunk = max(1, _CHUNK_ELEMENTS // max(k * points.shape[1], 1))
        for start in range(0, len(points), chunk):
            block = points[start : start + chunk]
            dist = np.minimum(metric_distances(block, self.queries, self.metric) / self.diameter, 1.0)
            for j in range(reps):
                prefix_min = np.minimum.accumulate(dist[:, order[j]], axis=1)
                has = sizes[j] > 0
                out[start : start + chunk, j, has] = prefix_min[:, sizes[j][has] - 1]
        return out.reshape(len(points), -1) / self.dimension

    def measured_debias(self) -> float:
        """Median over public query pairs of dbar(y, y') / ||pi(y) - pi(y')||_1 (public; spec s5.3
        [beyond]); 1 (no debiasing) when the embedding maps at least half the pairs to one point, where the
        median ratio is 0 and its inverse would make every answer infinite."""
        ratios = query_pair_ratios(self, self.queries, self.metric)
        median = float(np.median(ratios)) if ratios.size else 0.0
        return 1.0 / median if median > 0 else 1.0

    def to_json(self) -> dict:
        return {
            "kind": self.kind,
            "metric": self.metric.value,
            "seed": self.seed,
            "queries": self.queries.tolist(),
            "uniforms": self.uniforms.tolist(),
            "debias": self.debias,
        }


def embedding_from_json(data: dict) -> IdentityEmbedding | RandomProjection | BourgainEmbedding:
    kind = data["kind"]
    if kind == "identity":
        return IdentityEmbedding(int(data["dims"]))
    if kind == "random-projection":
        return RandomProjection(np.asarray(data["matrix"], dtype=np.float64), int(data["seed"]))
    if kind == "bourgain":
        return BourgainEmbedding(
            Metric(data["metric"]),
            np.asarray(data["queries"], dtype=np.float64),
            np.asarray(data["uniforms"], dtype=np.float64),
            int(data["seed"]),
            float(data["debias"]),
        )
    raise ValueError(f"unknown embedding kind {kind!r}")


def query_pair_ratios(
    embedding: Embedding, queries: np.ndarray, metric: Metric, pairs: int = 20_000
) -> np.ndarray:
    """Ratios (embedded l1 x factor / diameter) / (true distance / diameter) over pairs of PUBLIC points.

    For the Bourgain embedding this is ||pi(y) - pi(y')||_1 / dbar(y, y') (before debiasing); for the random
    projection ||pi(y) - pi(y')||_1 / ||y - y'||_2. Pairs are the first ``pairs`` of a fixed enumeration.
    Only public points go in: the measured distortion is a public diagnostic.
    """
    queries = np.asarray(queries, dtype=np.float64)
    k = len(queries)
    first, second = np.triu_indices(k, 1)
    first, second = first[:pairs], second[:pairs]
    embedded = embedding.embed(queries)
    spread = np.abs(embedded[first] - embedded[second]).sum(axis=1)
    true = paired_distances(queries[first], queries[second], metric)
    keep = true > 1e-12
    scale = embedding.answer_factor / (embedding.debias if isinstance(embedding, BourgainEmbedding) else 1.0)
    return spread[keep] * scale / true[keep]


@dataclass(frozen=True)
class Distortion:
    """The measured ratio range (embedded / true distance) over public query pairs."""

    minimum: float
    median: float
    maximum: float
    pairs: int


def measured_distortion(embedding: Embedding, queries: np.ndarray, metric: Metric) -> Distortion:
    ratios = query_pair_ratios(embedding, queries, metric)
    if ratios.size == 0:
        return Distortion(1.0, 1.0, 1.0, 0)
    return Distortion(float(ratios.min()), float(np.median(ratios)), float(ratios.max()), int(ratios.size))
