"""Pins of the per-query baselines' constants (spec 004 s11 "baseline comparison", module doc).

The existing tests check that the law is within the asked budget and that the naive Gaussian error is
near the spec's example; they pass with more noise than needed or an understated error bound. These pin the
noise scale as exactly the budget's (not more), the integer sensitivity as ceil(diam / r) with r = diam /
steps, and ``predicted_max_error`` as the union-bound tail the module doc states.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.distance import baselines
from dpgui.algorithms.distance.embeddings import Metric
from dpgui.privacy.random import discrete_laplace_tail


@pytest.mark.parametrize("metric", list(Metric))
@pytest.mark.parametrize("steps", [7, 64, baselines.DEFAULT_STEPS])
def test_resolution_and_sensitivity_are_diameter_over_steps_and_steps(metric: Metric, steps: int) -> None:
    """r = diam / steps on the normalised box, and one replaced record moves S_r by at most ceil(diam / r)
    = steps, plus one for two quotients rounded at a half in floating point (``PerQueryNoise``)."""
    dims = 3
    noise = baselines.per_query_noise(metric, dims, 5, epsilon=1.0, rho=None, steps=steps)
    assert noise.resolution == pytest.approx(metric.diameter(dims) / steps, rel=1e-12)
    assert noise.sensitivity == steps + 1


@pytest.mark.parametrize(("queries", "epsilon"), [(1, 1.0), (7, 0.3), (40, 2.5)])
def test_laplace_scale_spends_exactly_eps_over_the_k_queries(queries: int, epsilon: float) -> None:
    """Discrete Laplace at scale k Delta / eps: each query costs Delta / scale = eps / k, so the k queries
    cost exactly eps by basic composition (no more noise than that)."""
    noise = baselines.per_query_noise(Metric.L1, 2, queries, epsilon=epsilon, rho=None, steps=16)
    assert not noise.gaussian
    assert queries * noise.sensitivity / noise.scale == pytest.approx(epsilon, rel=1e-12)


@pytest.mark.parametrize(("queries", "rho"), [(1, 0.5), (7, 0.02), (40, 3.0)])
def test_gaussian_sigma_spends_exactly_rho_over_the_k_queries(queries: int, rho: float) -> None:
    """Discrete Gaussian sigma = Delta sqrt(k / (2 rho)): each query is Delta^2 / (2 sigma^2) = rho / k
    zCDP (Canonne-Kamath-Steinke 2020 Thm 4), so the k queries cost exactly rho."""
    noise = baselines.per_query_noise(Metric.L2, 2, queries, epsilon=1.0, rho=rho, steps=16)
    assert noise.gaussian
    assert queries * noise.sensitivity**2 / (2 * noise.scale**2) == pytest.approx(rho, rel=1e-12)


@pytest.mark.parametrize("gaussian", [False, True])
@pytest.mark.parametrize(("n", "queries", "beta"), [(1, 1, 0.05), (100, 1, 0.05), (5000, 30, 0.01)])
def test_predicted_max_error_is_the_union_bound_tail_plus_half_a_step(
    gaussian: bool, n: int, queries: int, beta: float
) -> None:
    """Module doc: t with P(|Z| > t) <= beta / k, i.e. scale ln(2k / beta) (discrete Laplace, P(|Z| >= t)
    <= 2 exp(-t / scale)) or sigma sqrt(2 ln(2k / beta)) (sub-Gaussian), times r / n, plus rounding r/2."""
    noise = baselines.PerQueryNoise(resolution=0.01, sensitivity=100, scale=37.0, gaussian=gaussian)
    log_term = math.log(2 * queries / beta)
    tail = 37.0 * (math.sqrt(2 * log_term) if gaussian else log_term)
    want = tail * 0.01 / n + 0.01 / 2
    assert baselines.predicted_max_error(noise, n, queries, beta) == pytest.approx(want, rel=1e-12)


def test_predicted_laplace_tail_holds_for_the_exact_discrete_laplace() -> None:
    """The tail the prediction uses is a true bound for the sampler's law: P(|Z| >= t) <= beta / k at the
    predicted t (exact discrete Laplace tail), and it is not loose by more than a factor 2 in probability."""
    scale, n, queries, beta = 53.0, 1, 20, 0.05
    noise = baselines.PerQueryNoise(resolution=1.0, sensitivity=1, scale=scale, gaussian=False)
    t = baselines.predicted_max_error(noise, n, queries, beta) - 0.5
    two_sided = 2 * discrete_laplace_tail(math.ceil(t), scale)
    assert two_sided <= beta / queries
    assert two_sided > beta / queries / 2.1
    assert np.isfinite(t)
