"""Per-query baselines: sensitivity of the rounded distance sum by brute force, exact at huge epsilon."""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.distance import baselines
from dpgui.algorithms.distance.embeddings import Metric, metric_distances
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom


@pytest.mark.parametrize("metric", list(Metric))
def test_rounded_distance_sum_sensitivity_is_at_most_the_declared_one(metric):
    g = np.random.default_rng(1)
    noise = baselines.per_query_noise(metric, 3, 10, epsilon=1.0, rho=None, steps=64)
    queries = np.vstack([g.random((20, 3)), [[0, 0, 0], [1, 1, 1]]])
    worst = 0
    for _ in range(200):
        a = g.random((8, 3))
        b = a.copy()
        b[g.integers(8)] = g.choice([0.0, 1.0], 3)
        diff = baselines.rounded_distance_sums(a, queries, metric, noise.resolution)
        diff = diff - baselines.rounded_distance_sums(b, queries, metric, noise.resolution)
        worst = max(worst, int(np.abs(diff).max()))
    assert worst <= noise.sensitivity
    assert worst > noise.sensitivity // 2  # control: half the sensitivity would be wrong


@pytest.mark.parametrize("rho", [None, 1e12])
def test_per_query_answers_exact_up_to_rounding_at_huge_budget(rho):
    g = np.random.default_rng(2)
    points, queries = g.random((30, 2)), g.random((10, 2))
    noise = baselines.per_query_noise(Metric.L1, 2, 10, epsilon=1e12, rho=rho)
    answers = run_to_end(baselines.per_query_answers(points, queries, Metric.L1, noise, SeededRandom(0)))
    truth = metric_distances(points, queries, Metric.L1).mean(axis=0)
    assert np.max(np.abs(answers - truth)) <= noise.resolution / 2 + 1e-12


def test_laplace_scale_is_k_times_sensitivity_over_epsilon_and_gaussian_splits_rho():
    laplace = baselines.per_query_noise(Metric.L1, 10, 1000, epsilon=1.0, rho=None)
    assert laplace.scale == 1000 * laplace.sensitivity
    gauss = baselines.per_query_noise(Metric.L1, 10, 1000, epsilon=1.0, rho=0.5)
    assert np.isclose(gauss.scale, gauss.sensitivity * np.sqrt(1000))
    # spec s6: naive Gaussian about 0.69 at n = 1e4, l = 10, eps 1, delta 1e-6, k = 1000
    from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for

    rho = zcdp_rho_for(PrivacyCost(1.0, 1e-6))
    g = baselines.per_query_noise(Metric.L1, 10, 1000, epsilon=1.0, rho=rho)
    assert 0.6 < baselines.predicted_max_error(g, 10_000, 1000, 0.05) < 0.8
