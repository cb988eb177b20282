"""AboveThreshold: halts at its cap; accuracy within its bound; exact privacy on a tiny instance."""

import math

import numpy as np
import pytest

from dpgui.privacy.random import SeededRandom, discrete_laplace_pmf
from dpgui.privacy.sparse_vector import SparseVector, SparseVectorExhausted, SparseVectorParameters
from tests.exact import hockey_stick


def above_threshold_law(
    values: list[int], threshold: int, epsilon: float, query_noise: bool = True
) -> dict[object, float]:
    """Exact law of the index of the first 'above' answer (None: all below), by summing over rho."""
    rho_support = np.arange(-60, 61)
    rho_p = discrete_laplace_pmf(rho_support, 2 / epsilon)
    nu_support = np.arange(-120, 121) if query_noise else np.zeros(1, dtype=int)
    nu_p = discrete_laplace_pmf(nu_support, 4 / epsilon) if query_noise else np.ones(1)
    law: dict[object, float] = {}
    for rho, pr in zip(rho_support, rho_p, strict=True):
        still_below = 1.0
        for i, v in enumerate(values):
            p_above = nu_p[v + nu_support >= threshold + rho].sum()
            law[i] = law.get(i, 0.0) + pr * still_below * p_above
            still_below *= 1 - p_above
        law[None] = law.get(None, 0.0) + pr * still_below
    return law


def test_above_threshold_law_is_eps_dp_on_neighbouring_query_answers():
    epsilon = 1.0
    base = [2, 5, 3, 8]
    worst = 0.0
    for shift in np.array(np.meshgrid(*[[-1, 0, 1]] * 4)).T.reshape(-1, 4):
        other = (np.array(base) + shift).tolist()
        law, other_law = above_threshold_law(base, 6, epsilon), above_threshold_law(other, 6, epsilon)
        worst = max(worst, hockey_stick(law, other_law, epsilon))
    assert worst <= 1e-9


def test_above_threshold_with_too_little_noise_fails_the_check():
    """Control: the threshold noise alone (no per-query noise) is not eps-DP, and the check sees it."""
    epsilon = 1.0
    law = above_threshold_law([2, 5, 3, 8], 6, epsilon, query_noise=False)
    other = above_threshold_law([3, 4, 4, 7], 6, epsilon, query_noise=False)
    assert hockey_stick(law, other, epsilon) > 0.01


def test_sparse_vector_halts_after_its_cap():
    sv = SparseVector(SparseVectorParameters(threshold=0.0, epsilon=1.0, max_above=2), SeededRandom(41))
    answers = [sv.is_above(1000.0) for _ in range(2)]
    assert answers == [True, True] and sv.exhausted
    with pytest.raises(SparseVectorExhausted):
        sv.is_above(1000.0)


def test_sparse_vector_answers_are_accurate_within_the_bound():
    params = SparseVectorParameters(threshold=50.0, epsilon=1.0, max_above=1)
    alpha = params.accuracy(queries=20, beta=0.05)
    rng = SeededRandom(42)
    failures = 0
    for _ in range(300):
        sv = SparseVector(params, rng)
        for value in [50 - alpha - 1] * 19 + [50 + alpha + 1]:
            if sv.is_above(value) != (value > 50):
                failures += 1
                break
    assert failures <= 0.05 * 300 + 3 * math.sqrt(300 * 0.05)
