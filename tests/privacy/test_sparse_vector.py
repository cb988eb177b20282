"""The sparse vector: the law its recorded noise scales give is eps-DP; halts at its cap; accuracy bound."""

import itertools
import math

import numpy as np
import pytest

from dpgui.privacy.random import SeededRandom
from dpgui.privacy.sparse_vector import SparseVector, SparseVectorExhausted, SparseVectorParameters
from tests.exact import discrete_laplace_pmf, hockey_stick
from tests.recording import RecordingRandom


def observed_scales(epsilon: float, max_above: int) -> tuple[float, float]:
    """(threshold scale, query scale) the code requests: a 'below' then an 'above' answer, zero noise."""
    rng = RecordingRandom(zero=True)
    session = SparseVector(SparseVectorParameters(threshold=0.0, epsilon=epsilon, max_above=max_above), rng)
    session.is_above(-1.0)  # below: the threshold draw, then this query's draw
    session.is_above(1.0)  # above: this query's draw (then a fresh threshold if rounds remain)
    threshold_scale, query_scale, second_query_scale, *redraws = rng.laplace_scales
    assert second_query_scale == query_scale and all(r == threshold_scale for r in redraws)
    return threshold_scale, query_scale


def tail(k: np.ndarray, scale: float) -> np.ndarray:
    """P(Z >= k) for the discrete Laplace, elementwise over integer k (exact, no truncation)."""
    r = math.exp(-1 / scale)
    upper = np.power(r, np.abs(k).astype(np.float64)) / (1 + r)
    return np.where(k >= 0, upper, 1 - np.power(r, np.abs(1 - k).astype(np.float64)) / (1 + r))


def session_law(
    values: list[int], threshold: int, rounds: int, threshold_scale: float, query_scale: float
) -> dict[tuple[bool, ...], float]:
    """Exact law of the answers of a session with ``rounds`` 'above' answers allowed (the answers stop at
    the last one), by summing over each round's threshold noise rho (tail mass below 1e-15 dropped)."""
    reach = math.ceil(35 * threshold_scale) + 2
    rho = np.arange(-reach, reach + 1)
    rho_p = discrete_laplace_pmf(rho, threshold_scale)

    def from_query(start: int, rounds_left: int) -> dict[tuple[bool, ...], float]:
        law: dict[tuple[bool, ...], float] = {}
        still_below = np.ones_like(rho_p)
        for i in range(start, len(values)):
            p_above = tail(threshold + rho - values[i], query_scale)
            weight = float(np.sum(rho_p * still_below * p_above))
            prefix = (False,) * (i - start) + (True,)
            rest = from_query(i + 1, rounds_left - 1) if rounds_left > 1 else {(): 1.0}
            for suffix, p in rest.items():
                law[prefix + suffix] = law.get(prefix + suffix, 0.0) + weight * p
            still_below = still_below * (1 - p_above)
        law[(False,) * (len(values) - start)] = float(np.sum(rho_p * still_below))
        return law

    return from_query(0, rounds)


@pytest.mark.parametrize(("epsilon", "max_above"), [(1.0, 1), (0.5, 1), (1.0, 2)])
def test_sparse_vector_samples_an_eps_dp_law_on_neighbouring_query_answers(epsilon: float, max_above: int):
    """Every sensitivity-1 query moves by at most 1 between neighbours; the law of the answers built from
    the observed noise scales is eps-DP at the epsilon asked for (all rounds together)."""
    threshold_scale, query_scale = observed_scales(epsilon, max_above)
    base = [2, 5, 3, 8]
    law = session_law(base, 6, max_above, threshold_scale, query_scale)
    worst = 0.0
    for shift in itertools.product([-1, 0, 1], repeat=len(base)):
        other = (np.array(base) + shift).tolist()
        other_law = session_law(other, 6, max_above, threshold_scale, query_scale)
        worst = max(worst, hockey_stick(law, other_law, epsilon))
    assert worst <= 1e-9


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


@pytest.mark.parametrize(("epsilon", "max_above"), [(1.0, 1), (0.3, 4)])
def test_sparse_vector_uses_the_papers_scales_and_accuracy(epsilon: float, max_above: int):
    """Dwork-Roth Alg. 1 per round of eps / c: rho ~ Lap(2c/eps), nu_i ~ Lap(4c/eps), and the accuracy
    alpha = (8c/eps) ln(2mc/beta). The exact check above passes any larger scale (more noise is still
    private); this one fails on a scale or an accuracy constant that is not the paper's, either way."""
    c = max_above
    assert observed_scales(epsilon, max_above) == pytest.approx((2 * c / epsilon, 4 * c / epsilon), rel=1e-12)
    params = SparseVectorParameters(threshold=0.0, epsilon=epsilon, max_above=max_above)
    assert params.accuracy(queries=50, beta=0.1) == pytest.approx(
        8 * c / epsilon * math.log(2 * 50 * c / 0.1)
    )


def test_a_noisy_value_equal_to_the_noisy_threshold_is_above():
    """The paper's test is f + nu >= T + rho, the one the exact law above assumes (``tail`` is P(Z >= k)):
    with both noises 0, a value at the threshold is above and one just below is not."""
    params = SparseVectorParameters(threshold=5.0, epsilon=1.0, max_above=1)
    assert not SparseVector(params, RecordingRandom(zero=True)).is_above(4.0)
    assert SparseVector(params, RecordingRandom(zero=True)).is_above(5.0)
