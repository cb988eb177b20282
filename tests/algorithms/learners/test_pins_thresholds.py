"""Pins LearnThresholds' approximation alpha/2 and its sample bound's generalisation term (mutation scan 19).

Survivors this pins: the approximation LearnThresholds hands RecConcave written as alpha, 2 alpha, alpha/3
or alpha/4 (the existing tests check that a run releases a good cut, which it still does), and the
uniform-convergence term (200/alpha^2) ln(4/(alpha beta)) of learn_thresholds_min_n with 100, 199, 201 or
400, alpha^1, or alpha^2 multiplied (it only binds when RecConcave needs less, which no test checked).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.learners import thresholds as module
from dpgui.algorithms.learners.thresholds import Direction, learn_thresholds, learn_thresholds_min_n
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.recconcave import RecConcaveParameters, lemma_3_14_promise, levels, per_mechanism_cost
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom


@pytest.mark.parametrize(("size", "alpha"), [(20, 0.1), (2**40, 0.05), (2**40, 0.5)])
def test_recconcave_runs_at_approximation_alpha_over_2(monkeypatch, size: int, alpha: float) -> None:
    """Spec 000 s4.4 (paper 000 Thm 3.18): a_hat = alpha/2, the public promise r and the per-mechanism
    cost of the refined split (REVIEW-000-002 s3) are what RecConcave receives."""
    seen: list[RecConcaveParameters] = []

    def recconcave(quality, params, rng):
        seen.append(params)
        return 0
        yield  # a generator, like the real one

    monkeypatch.setattr(module, "recconcave", recconcave)
    total = PrivacyCost(1.0, 1e-6)
    values = np.array([3, 10], dtype=np.uint64)
    run_to_end(
        learn_thresholds(values, np.array([4, 0]), np.array([0, 5]), size, Direction.GE, total, alpha, 9.0,
                         SeededRandom(0))
    )  # fmt: skip
    [params] = seen
    assert params.alpha == pytest.approx(alpha / 2, rel=1e-15)
    assert params.promise == 9.0
    assert params.per_mechanism == per_mechanism_cost(total, size)


@pytest.mark.parametrize(("alpha", "beta"), [(0.05, 0.05), (0.2, 0.01)])
def test_min_n_generalisation_term_is_thm_3_18s(alpha: float, beta: float) -> None:
    """Spec 000 s4.4 (Thm 3.18, Thm 2.14 at VC dimension 1): m >= (200/alpha^2) ln(4/(alpha beta)); over a
    base-case domain (size 16) RecConcave needs far less, so this term is the bound (5.9e5 at
    alpha = beta = 0.05, the spec's number)."""
    total = PrivacyCost(1.0, 1e-6)
    generalisation = 200 / alpha**2 * math.log(4 / (alpha * beta))
    assert lemma_3_14_promise(16, alpha / 2, beta / 2, per_mechanism_cost(total, 16)) < generalisation
    assert learn_thresholds_min_n(16, total, alpha, beta) == math.ceil(generalisation)
    if alpha == beta == 0.05:
        assert learn_thresholds_min_n(16, total, alpha, beta) == pytest.approx(5.9e5, rel=0.01)


@pytest.mark.parametrize(("bits", "spec_number"), [(16, 3.13e6), (32, 3.22e6), (64, 4.43e7)])
def test_recconcave_term_fails_with_probability_at_most_beta_over_2(bits: int, spec_number: float) -> None:
    """Spec 000 s4.4 (Thm 3.18): m is the larger of the generalisation term and "RecConcave at alpha/2,
    beta/2", so RecConcave may fail w.p. <= beta/2. Lemma 3.14's promise fails w.p. <= 2 beta' N (spec 000
    s4.3), so it is taken at beta' = beta/(4N). With the spec's delta/(3(N-1)+1) this reproduces the spec's
    A_dist_safe column (3.13e6, 3.22e6, 4.43e7 at d = 16, 32, 64); the app splits delta by 2(N-1) instead
    (REVIEW-000-002 s3), which changes only the delta inside the logarithm."""
    size, alpha, beta, total = 2**bits, 0.05, 0.05, PrivacyCost(1.0, 1e-6)
    depth = levels(size)
    mechanisms = 3 * (depth - 1) + 1
    spec_cost = PrivacyCost(1.0 / mechanisms, 1e-6 / mechanisms)
    assert lemma_3_14_promise(size, alpha / 2, beta / (4 * depth), spec_cost) == pytest.approx(
        spec_number, rel=5e-3
    )
    recursion = lemma_3_14_promise(size, alpha / 2, beta / (4 * depth), per_mechanism_cost(total, size))
    assert learn_thresholds_min_n(size, total, alpha, beta) == math.ceil(recursion)
