"""Per-query baselines: sensitivity of the rounded distance sum by brute force, exact at huge epsilon."""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.distance import baselines
from dpgui.algorithms.distance.embeddings import Metric, metric_distances
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.random import SeededRandom
from tests.exact import discrete_gaussian_delta, laplace_log_ratio
from tests.recording import RecordingRandom


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


@pytest.mark.parametrize("gaussian", [False, True])
@pytest.mark.parametrize(("epsilon", "delta"), [(1.0, 1e-6), (0.3, 1e-8)])
def test_per_query_release_is_dp_at_the_asked_budget(gaussian, epsilon, delta):
    """k queries at a corner, one record moved to the opposite corner (every sum moves by its full
    sensitivity): the law at the recorded scale is eps-DP (Laplace) or (eps, delta)-DP (Gaussian, with rho
    from the asked budget as the distance task does), computed exactly."""
    k = 3
    rho = zcdp_rho_for(PrivacyCost(epsilon, delta)) if gaussian else None
    noise = baselines.per_query_noise(Metric.L1, 2, k, epsilon=epsilon, rho=rho, steps=4)
    queries = np.zeros((k, 2))
    first = np.array([[0.0, 0.0], [0.5, 0.25], [1.0, 1.0]])
    second = first.copy()
    second[0] = [1.0, 1.0]
    sums, requests = [], []
    for points in (first, second):
        rng = RecordingRandom(zero=True)
        answers = run_to_end(baselines.per_query_answers(points, queries, Metric.L1, noise, rng))
        sums.append(np.rint(answers * len(points) / noise.resolution).astype(np.int64))
        requests += rng.requests
    assert len(set(requests)) == 1
    [(kind, scale, size)] = set(requests)
    shift = sums[0] - sums[1]
    assert size == k and np.all(np.abs(shift) == 4)  # the full sensitivity on every query
    if gaussian:
        assert kind == "gaussian" and discrete_gaussian_delta(shift, scale, epsilon) <= delta
    else:
        assert kind == "laplace" and laplace_log_ratio(sums[0], sums[1], scale) <= epsilon * (1 + 1e-9)


def test_naive_gaussian_error_matches_the_spec_example():
    """Spec s6: naive Gaussian about 0.69 at n = 1e4, l = 10, eps 1, delta 1e-6, k = 1000."""
    rho = zcdp_rho_for(PrivacyCost(1.0, 1e-6))
    g = baselines.per_query_noise(Metric.L1, 10, 1000, epsilon=1.0, rho=rho)
    assert 0.6 < baselines.predicted_max_error(g, 10_000, 1000, 0.05) < 0.8
