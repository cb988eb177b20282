"""A_dist_safe: exact hockey-stick <= delta; the paper's original variant fails the same check."""

import itertools
import math

import numpy as np
import pytest

from dpgui.privacy.random import SeededRandom, discrete_laplace_tail
from dpgui.privacy.stability import StableSelectionParameters, stable_select, top_two
from tests.exact import binomial_upper, hockey_stick


def discrete_tail(k: int, scale: float) -> float:
    """P(Z >= k) for any integer k."""
    return discrete_laplace_tail(k, scale) if k >= 0 else 1 - discrete_laplace_tail(1 - k, scale)


def safe_law(scores: tuple[int, ...], params: StableSelectionParameters) -> dict[object, float]:
    first, second = top_two(np.array(scores))
    gap = scores[first] - scores[second]
    p_out = discrete_tail(params.threshold - gap, params.noise_scale)
    return {first: p_out, None: 1 - p_out}


def paper_law(scores: tuple[int, ...], epsilon: float, delta: float) -> dict[object, float]:
    """Paper 000 Prop. 2.26 as printed: continuous Lap(1/eps), threshold (1/eps) ln(1/delta)."""
    first, second = top_two(np.array(scores))
    gap = scores[first] - scores[second]
    t = math.log(1 / delta) / epsilon
    x = t - gap
    p_out = 0.5 * math.exp(-x * epsilon) if x >= 0 else 1 - 0.5 * math.exp(x * epsilon)
    return {first: p_out, None: 1 - p_out}


def replace_one_neighbours(scores: tuple[int, ...]):
    """Move one record between candidates, or between a candidate and the rest of the data."""
    k = len(scores)
    for i, j in itertools.permutations(range(k), 2):
        if scores[i] > 0:
            moved = list(scores)
            moved[i] -= 1
            moved[j] += 1
            yield tuple(moved)
    for i in range(k):
        for d in (-1, 1):
            if scores[i] + d >= 0:
                moved = list(scores)
                moved[i] += d
                yield tuple(moved)


def score_vectors(top: int):
    """Three candidates: every best score below ``top``, a runner-up at every gap near 0 or the best's,
    and a third candidate at 0 or 1 (only the two best scores matter to A_dist)."""
    for best in range(top):
        runners = {0, 1, 2} | set(range(max(0, best - 3), best + 1))
        for runner in sorted(r for r in runners if r <= best):
            for third in (0, 1):
                yield best, runner, third


def worst_divergence(law, epsilon: float, top: int) -> float:
    worst = 0.0
    for scores in score_vectors(top):
        for other in replace_one_neighbours(scores):
            worst = max(worst, hockey_stick(law(scores), law(other), epsilon))
    return worst


@pytest.mark.parametrize(("epsilon", "delta"), [(1.0, 1e-6), (0.5, 1e-6), (0.1, 1e-9), (2.0, 1e-3)])
def test_a_dist_safe_is_eps_delta_dp_exactly(epsilon: float, delta: float):
    params = StableSelectionParameters(epsilon, delta)
    worst = worst_divergence(lambda s: safe_law(s, params), epsilon, params.threshold + 7)
    assert worst <= delta * (1 + 1e-9)


def test_the_papers_a_dist_fails_the_same_check():
    worst = worst_divergence(lambda s: paper_law(s, 1.0, 1e-6), 1.0, 24)
    assert worst > 0.3  # REVIEW-000-002 s1: about 0.36 at eps = 1


def test_sampled_output_matches_the_exact_law():
    params = StableSelectionParameters(1.0, 1e-3)
    rng = SeededRandom(21)
    scores = np.array([4, params.threshold + 3, 1])
    law = safe_law(tuple(scores.tolist()), params)
    trials = 20_000
    hits = sum(stable_select(scores, params, rng) == 1 for _ in range(trials))
    assert abs(hits - trials * law[1]) < 4 * math.sqrt(trials * law[1] * (1 - law[1])) + 1


def test_clear_winner_is_selected_at_the_utility_gap():
    params = StableSelectionParameters(1.0, 1e-6)
    beta = 0.05
    gap = math.ceil(params.gap_for_success(beta))
    rng = SeededRandom(22)
    trials = 2000
    misses = sum(stable_select(np.array([0, gap, 0]), params, rng) != 1 for _ in range(trials))
    assert misses <= binomial_upper(trials, beta)


def test_single_candidate_and_empty_sets_are_data_independent():
    params = StableSelectionParameters(1.0, 1e-6)
    assert stable_select(np.array([7]), params, SeededRandom(1)) == 0
    assert stable_select(np.array([], dtype=np.int64), params, SeededRandom(1)) is None
