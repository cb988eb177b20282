"""Naive per-query baselines for average-distance queries (spec 004 s11 "baseline comparison").

Each query y is answered by noising the sum of distances S(y) = sum_x d(x, y) over the records (normalised
units, any metric of embeddings.Metric). To keep noise discrete on an integer, each record's distance is first
rounded to the declared public resolution r: S_r(y) = sum_x round(d(x, y) / r), an integer. Under replace-one
(n public) one term changes, by at most ceil(diam / r) where diam is the metric's diameter on the normalised
box: that is the sensitivity of S_r (L1 and L2 alike for one query). The answer is r (S_r + noise) / n; the
rounding moves it by at most r / 2.

* ``laplace_per_query``: discrete Laplace with scale k Delta / eps per query: eps/k each, eps in total by
basic
  composition over the k declared queries (pure eps-DP).
* ``gaussian_per_query``: discrete Gaussian with sigma = Delta sqrt(k / (2 rho)): rho/k-zCDP each, rho-zCDP in
  total (Canonne-Kamath-Steinke 2020 Thm 4; zCDP composition), with rho = zcdp_rho_for(eps, delta).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.distance.embeddings import Metric, metric_distances
from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.random import PrivateRandom

DEFAULT_STEPS = 1 << 16
"""Default resolution r = diam / 2^16: rounding error r/2 is negligible next to the noise."""

_ROWS_PER_BLOCK = 1 << 20


@dataclass(frozen=True)
class PerQueryNoise:
    """Public parameters: resolution r, integer sensitivity Delta = ceil(diam / r) + 1, and the noise scale.

    By the triangle inequality one record moves d(x, y) / r by at most diam / r, for a query anywhere; two
    such quotients computed in floating point, each rounded to an integer, can land one further apart when
    both sit at a half (an audit's note), so Delta has one more step: at the default 2^16 steps it costs
    a relative 1.5e-5 of noise."""

    resolution: float
    sensitivity: int
    scale: float
    gaussian: bool


def per_query_noise(
    metric: Metric, dims: int, queries: int, *, epsilon: float, rho: float | None, steps: int = DEFAULT_STEPS
) -> PerQueryNoise:
    """Laplace scale k Delta / eps (rho None) or Gaussian sigma Delta sqrt(k / (2 rho))."""
    resolution = metric.diameter(dims) / steps
    sensitivity = math.ceil(metric.diameter(dims) / resolution - 1e-9) + 1
    if rho is None:
        return PerQueryNoise(resolution, sensitivity, queries * sensitivity / epsilon, False)
    return PerQueryNoise(resolution, sensitivity, sensitivity * math.sqrt(queries / (2 * rho)), True)


MAX_QUOTIENT = 2.0**36
"""The largest d(x, y) / r a query may reach. Each quotient is computed within a few units in the last place
of its magnitude (the distance's sum of terms, root and division), so two records' quotients for a query
far outside the box differ by up to diam / r plus about |d / r| 2^-50, rounding aside: at 2^36 that is
below 2^-14, which the sensitivity's extra step covers. A query at 10^11 box widths moved a sum by 65,538
against a sensitivity of 65,537 (privacy review, session 34)."""


def farthest_quotient(queries: np.ndarray, metric: Metric, resolution: float) -> float:
    """The largest d(x, y) / r over the ``queries`` (normalised units) and every x of the unit box: at most
    (d(centre, y) + diam) / r by the triangle inequality. Public: the queries are declared."""
    if len(queries) == 0:
        return 0.0
    centre = np.full((1, queries.shape[1]), 0.5)
    reach = metric_distances(centre, queries, metric).max() + metric.diameter(queries.shape[1])
    return float(reach / resolution)


def rounded_distance_sums(
    points: np.ndarray, queries: np.ndarray, metric: Metric, resolution: float
) -> np.ndarray:
    """S_r(y) = sum_x round(d(x, y) / r) for every query (int64; PRIVATE, sensitivity ceil(diam / r) + 1)."""
    sums = np.zeros(len(queries), dtype=np.int64)
    block = max(1, _ROWS_PER_BLOCK // max(len(queries) * points.shape[1], 1))
    for start in range(0, len(points), block):
        distances = metric_distances(points[start : start + block], queries, metric)
        sums += np.rint(distances / resolution).astype(np.int64).sum(axis=0)
    return sums


def per_query_answers(
    points: np.ndarray, queries: np.ndarray, metric: Metric, noise: PerQueryNoise, rng: PrivateRandom
) -> AlgorithmRun[np.ndarray]:
    """Noisy averages r (S_r(y) + Z) / n for the declared queries (normalised units)."""
    n = len(points)
    yield Progress(0.1, f"summing distances for {len(queries)} queries")
    sums = rounded_distance_sums(points, queries, metric, noise.resolution)
    draw = rng.discrete_gaussian if noise.gaussian else rng.discrete_laplace
    noisy = sums + draw(noise.scale, len(queries))
    yield Progress(1.0, "noised every query")
    return noise.resolution * noisy / n


def predicted_max_error(noise: PerQueryNoise, n: int, queries: int, beta: float) -> float:
    """Max error over k queries w.p. >= 1 - beta: tail t with P(|Z| > t) <= beta / k, times r / n, plus r / 2.

    Discrete Laplace: P(|Z| >= t) <= 2 exp(-t / scale); discrete Gaussian: sub-Gaussian with proxy sigma^2.
    """
    per_query = beta / max(queries, 1)
    if noise.gaussian:
        tail = noise.scale * math.sqrt(2 * math.log(2 / per_query))
    else:
        tail = noise.scale * math.log(2 / per_query)
    return tail * noise.resolution / max(n, 1) + noise.resolution / 2
