"""Pins the promise and approximation RecConcave hands each deeper level (mutation scan 18: a deeper
promise of alpha r, 2 alpha r, alpha r/3, alpha r/4 or alpha/(2r) survived every existing test).

Paper 000 Fig. 5 step 5-6 (spec 000 s4.3): the recursive call solves the level quality q with the new
promise R = alpha r / 2 and approximation 1/4 at every deeper level, on the range [0, ceil(log2 T)], with
the same per-mechanism (eps, delta). The utility argument (spec 000 s4.3, Lemma 3.14: "the promise
R = alpha r / 2 holds for q") needs exactly this R; privacy does not depend on it, which is why only an
observation of the call catches a wrong one.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import recconcave as module
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.recconcave import RecConcaveParameters, StepFunction, ceil_log2, per_mechanism_cost
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom


def observed_levels(monkeypatch: pytest.MonkeyPatch, q: StepFunction, params: RecConcaveParameters) -> list:
    """(level, range top, params) of every RecConcave call of one run, outermost first."""
    seen: list[tuple[int, int, RecConcaveParameters]] = []
    real = module.recconcave

    def recording(quality, level_params, rng, accountant=None, level=1):
        seen.append((level, quality.top, level_params))
        return real(quality, level_params, rng, accountant, level)

    monkeypatch.setattr(module, "recconcave", recording)
    run_to_end(module.recconcave(q, params, SeededRandom(4)))
    return seen


@pytest.mark.parametrize(("promise", "alpha"), [(1000.0, 0.1), (640.0, 0.5), (77.0, 0.3)])
def test_deeper_levels_get_promise_alpha_r_over_2_and_approximation_one_quarter(
    monkeypatch: pytest.MonkeyPatch, promise: float, alpha: float
) -> None:
    top = 2**50
    q = StepFunction(np.array([2**40, 2**41], dtype=np.uint64), np.array([0, int(promise), 0]), top)
    per_mechanism = per_mechanism_cost(PrivacyCost(1.0, 1e-6), top)
    seen = observed_levels(monkeypatch, q, RecConcaveParameters(promise, alpha, per_mechanism))
    assert [level for level, _, _ in seen] == [1, 2, 3]
    expected_promise, expected_alpha, expected_top = promise, alpha, top
    for level, range_top, params in seen:
        assert range_top == expected_top, level
        assert params.promise == pytest.approx(expected_promise, rel=1e-12), level
        assert params.alpha == expected_alpha, level
        assert params.per_mechanism == per_mechanism
        expected_promise, expected_alpha = expected_alpha * expected_promise / 2, 0.25
        expected_top = ceil_log2(expected_top)


@pytest.mark.parametrize("bound", [2, 3])
def test_a_recursion_bound_of_n_runs_exactly_n_levels(monkeypatch: pytest.MonkeyPatch, bound: int) -> None:
    """Spec 000 s4.3 (the optional recursion bound N): each deeper call gets N - 1, so a run stops after N
    levels, the count the per-mechanism budget eps / (3(N - 1) + 1) was split for (REVIEW-000-002 s3)."""
    top = 2**50
    q = StepFunction(np.array([2**40, 2**41], dtype=np.uint64), np.array([0, 1000, 0]), top)
    per_mechanism = per_mechanism_cost(PrivacyCost(1.0, 1e-6), top, bound)
    seen = observed_levels(monkeypatch, q, RecConcaveParameters(1000.0, 0.1, per_mechanism, bound))
    assert [(level, params.recursion_bound) for level, _, params in seen] == [
        (level, bound - level + 1) for level in range(1, bound + 1)
    ]


@pytest.mark.parametrize(("top", "bound"), [(20, None), (2**50, None), (2**50, 2)])
def test_lemma_3_14_promise_is_the_specs(top: int, bound: int | None) -> None:
    """Spec 000 s4.3 with eps halved for A_dist_safe: r = 8^N (4/(alpha eps/2)) (log2(32/(beta delta)) +
    log^{(N)}(T)); the base case (T <= 32) alone needs the EM's (2/(alpha eps)) log2(T/beta)."""
    alpha, beta, cost = 0.1, 0.05, PrivacyCost(0.2, 1e-7)
    depth = module.levels(top, bound)
    if depth == 1:
        expected = 2 / (alpha * 0.2) * np.log2(top / beta)
    else:
        iterated = top
        for _ in range(depth):
            iterated = ceil_log2(iterated)
        expected = 8**depth * 4 / (alpha * 0.2 / 2) * (np.log2(32 / (beta * 1e-7)) + iterated)
    assert module.lemma_3_14_promise(top, alpha, beta, cost, bound) == pytest.approx(expected, rel=1e-12)
