"""Pins of the CDF route's error predictions (spec 004 s7; REVIEW-001-003-004 s1.2, s6.2).

The existing tests check the realised error against the prediction and the certified bound (loose from
above) and the privacy of what is drawn. A smaller (understated) or larger prediction passes them. These pin
``predicted_max_error`` to tree_cdf's ``cdf_error_bound`` (the same linear argument, spec s7, union bound
over the queries), the tail multipliers to their closed forms, and the certified bound's order statistic
and budget rungs to their definitions.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binom

from dpgui.algorithms.distance import cdf_route
from dpgui.algorithms.distance.cdf_route import PrivacyBudget, predicted_max_error, support_points
from dpgui.algorithms.tree_cdf import TreeNoise, cdf_error_bound

BUDGETS = [PrivacyBudget(1.0), PrivacyBudget(0.4), PrivacyBudget(1.0, 0.3), PrivacyBudget(1.0, 0.05)]


@pytest.mark.parametrize("budget", BUDGETS)
@pytest.mark.parametrize("size", [2, 3, 17, 128])  # 2 and 3: tiny supports carry noise too
def test_one_coordinate_prediction_is_the_tree_cdf_bound_over_its_prefixes(
    budget: PrivacyBudget, size: int
) -> None:
    """One coordinate, weight 1, k = N - 1 queries: the noise part is tree_cdf's cdf_error_bound (sum of
    prefix noises with ||w||_2^2 <= D, CKS20 Cor. 9 / CSS11 L2.8 tails, union over N - 1), and the rest is
    the discretisation error of the support."""
    support = support_points(None, size)
    n, beta = 700, 0.05
    want = cdf_error_bound(size, n, budget.epsilon, beta, noise=budget.noise, rho=budget.rho)
    want += cdf_route.discretisation_error(support)
    got = predicted_max_error([support], np.ones(1), n, budget, size - 1, beta)
    assert got == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("budget", BUDGETS)
def test_prediction_over_weighted_coordinates_splits_the_budget_and_adds_weights_in_l2(
    budget: PrivacyBudget,
) -> None:
    """c coordinates at budget/c each (no parallel composition, spec s7), weights w_j: the noise parts add
    as sqrt(sum w_j^2) (||a||_2^2 <= sum_j w_j^2 D_j s_j^2 / n^2), the binning terms as sum w_j disc_j."""
    size, n, beta = 33, 1200, 0.1
    supports = [support_points(None, size)] * 3
    weights = np.array([1.0, 2.0, 3.0])
    each = budget.split(3)
    one = cdf_error_bound(size, n, each.epsilon, beta, noise=each.noise, rho=each.rho)
    binning = float(weights.sum()) * cdf_route.discretisation_error(supports[0])
    want = math.sqrt(float((weights**2).sum())) * one + binning
    got = predicted_max_error(supports, weights, n, budget, size - 1, beta)
    assert got == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("log_term", [0.3, 1.0, 1.5, 6.0])
def test_tail_multipliers_are_the_sub_gaussian_and_laplace_chernoff_closed_forms(log_term: float) -> None:
    """Gaussian: sqrt(2 L) (sigma^2-sub-Gaussian, CKS20 Cor. 9). Laplace (CSS11 L2.8 as tree_cdf states it):
    sqrt(8 L) for L <= 1, else sqrt(2) (L + 1)."""
    assert cdf_route._tail_multiplier(TreeNoise.GAUSSIAN, log_term) == pytest.approx(math.sqrt(2 * log_term))
    laplace = math.sqrt(8 * log_term) if log_term <= 1 else math.sqrt(2) * (log_term + 1)
    assert cdf_route._tail_multiplier(TreeNoise.LAPLACE, log_term) == pytest.approx(laplace, rel=1e-12)


def test_discretisation_error_is_the_largest_distance_to_the_nearest_support_point() -> None:
    """max over v in [0, 1] of the distance to the support: the ends' gaps in full, the inner ones halved."""
    support = np.array([0.1, 0.3, 0.9, 0.95])
    assert cdf_route.discretisation_error(support) == pytest.approx(0.3, rel=1e-12)  # (0.9 - 0.3) / 2
    assert cdf_route.discretisation_error(np.array([0.2, 0.3])) == pytest.approx(0.7, rel=1e-12)
    assert cdf_route.discretisation_error(np.array([0.15, 0.9])) == pytest.approx(0.375, rel=1e-12)
    v = np.linspace(0, 1, 100_001)
    brute = np.abs(v[:, None] - support[None, :]).min(axis=1).max()
    assert cdf_route.discretisation_error(support) == pytest.approx(brute, abs=1e-5)


@pytest.mark.parametrize("beta", [0.01, 0.05, 0.2])
@pytest.mark.parametrize("draws", [100, 37])
def test_upper_rank_is_the_binomial_order_statistic_bound(beta: float, draws: int) -> None:
    """REVIEW s6.2 item 2 (certified Monte Carlo): the k-th smallest of the draws is >= the (1 - beta)
    quantile with probability P(Bin(draws, 1 - beta) <= k - 1); k is the smallest with that >= 1 -
    CERTIFY_CONFIDENCE (or all the draws)."""
    ok = [
        k
        for k in range(1, draws + 1)
        if binom.cdf(k - 1, draws, 1 - beta) >= 1 - cdf_route.CERTIFY_CONFIDENCE
    ]
    want = ok[0] if ok else draws
    assert cdf_route._upper_rank(draws, beta) == want


@pytest.mark.parametrize("x", [0.013, 0.5, 1.0, 1.09, 3.7, 1000.0])
def test_certified_budget_is_rounded_down_to_the_eighth_root_of_two_rungs(x: float) -> None:
    """The simulated budget is the largest 2^(k/8) <= the asked one (less budget, more noise: the bound
    only loosens), for epsilon and rho alike."""
    rounded = cdf_route._rounded_down(PrivacyBudget(x, x))
    for value in (rounded.epsilon, rounded.rho):
        assert value is not None
        k = round(8 * math.log2(value))
        assert value == pytest.approx(2.0 ** (k / 8), rel=1e-12)
        assert value <= x * (1 + 1e-12) and value * 2 ** (1 / 8) > x
    assert cdf_route._rounded_down(PrivacyBudget(x)).rho is None
