"""The exponential mechanism: the law it samples (its recorded log-weights) is eps-DP; sampling matches it."""

import itertools
import math

import numpy as np
import pytest

from dpgui.privacy.exponential import (
    PiecewiseScore,
    exponential_mechanism,
    gumbel_max,
    sample_piecewise,
)
from dpgui.privacy.random import SeededRandom
from tests.exact import log_probabilities, max_log_ratio
from tests.recording import RecordingRandom, chosen_law


def empirical(draws: list[int], k: int) -> np.ndarray:
    return np.bincount(np.array(draws), minlength=k) / len(draws)


def test_gumbel_max_samples_the_softmax():
    rng = SeededRandom(11)
    log_w = np.array([0.0, 1.0, 2.0, -np.inf, 0.5])
    draws = [gumbel_max(log_w, rng) for _ in range(40_000)]
    expected = np.exp(log_probabilities(log_w))
    freq = empirical(draws, 5)
    assert freq[3] == 0
    assert np.all(np.abs(freq - expected) < 4 * np.sqrt(expected * (1 - expected) / 40_000) + 1e-9)


def test_gumbel_max_draws_through_the_rng_exactly_as_argmax_of_weights_plus_gumbel_noise():
    """The observation hook changes nothing: the same seed gives the same index as the direct formula."""
    log_w = np.array([0.0, 1.0, 2.0, -np.inf, 0.5])
    for seed in range(50):
        direct = int(np.argmax(log_w + SeededRandom(seed).gumbel(log_w.size)))
        assert gumbel_max(log_w, SeededRandom(seed)) == direct == SeededRandom(seed).choose_index(log_w)


def observed_law(scores: np.ndarray, epsilon: float, sensitivity: float) -> dict[object, float]:
    """The law the code samples from: the log-weights it hands to Gumbel-max, normalised."""
    rng = RecordingRandom(1)
    exponential_mechanism(scores, epsilon, rng, sensitivity)
    [log_weights] = rng.log_weights
    return dict(enumerate(chosen_law(log_weights)))


def observed_point_law(score: PiecewiseScore, epsilon: float, sensitivity: float) -> dict[object, float]:
    """P(point) of the piecewise sampler: its recorded piece law, spread uniformly inside each piece."""
    rng = RecordingRandom(2)
    sample_piecewise(score, epsilon, rng, sensitivity)
    [log_weights] = rng.log_weights
    law: dict[object, float] = {}
    for piece, p in enumerate(chosen_law(log_weights)):
        start, end = int(score.starts[piece]), int(score.ends[piece])
        law.update({point: p / (end - start + 1) for point in range(start, end + 1)})
    return law


NEIGHBOUR_SHIFTS = list(itertools.product([-1, 0, 1], repeat=4))


@pytest.mark.parametrize(("epsilon", "sensitivity"), [(0.8, 1.0), (0.3, 2.5)])
def test_exponential_mechanism_samples_an_eps_dp_law_on_neighbouring_scores(epsilon, sensitivity):
    """Every score moves by at most the sensitivity: every output's probability moves by at most e^eps."""
    base = np.array([3.0, 5.0, 4.0, 0.0]) * sensitivity
    worst = max(
        max_log_ratio(
            observed_law(base, epsilon, sensitivity),
            observed_law(base + sensitivity * np.array(shift), epsilon, sensitivity),
        )
        for shift in NEIGHBOUR_SHIFTS
    )
    assert epsilon / 2 < worst <= epsilon * (1 + 1e-9)


@pytest.mark.parametrize(("epsilon", "sensitivity"), [(0.8, 1.0), (0.3, 2.5)])
def test_piecewise_sampler_samples_an_eps_dp_law_over_points_on_neighbouring_scores(epsilon, sensitivity):
    starts, ends = np.array([0, 5, 6, 12]), np.array([4, 5, 11, 15])
    base = np.array([0.0, 3.0, 1.0, 2.0]) * sensitivity
    worst = max(
        max_log_ratio(
            observed_point_law(PiecewiseScore(starts, ends, base), epsilon, sensitivity),
            observed_point_law(
                PiecewiseScore(starts, ends, base + sensitivity * np.array(shift)), epsilon, sensitivity
            ),
        )
        for shift in NEIGHBOUR_SHIFTS
    )
    assert epsilon / 2 < worst <= epsilon * (1 + 1e-9)


def test_piecewise_sampler_matches_the_dense_sampler_in_distribution():
    score = PiecewiseScore(
        starts=np.array([0, 5, 6, 12]), ends=np.array([4, 5, 11, 15]), scores=np.array([0.0, 3.0, 1.0, 0.0])
    )
    rng = SeededRandom(12)
    draws = [sample_piecewise(score, 1.0, rng).point for _ in range(40_000)]
    dense = np.repeat(score.scores, (score.ends - score.starts + 1).astype(np.int64))
    expected = np.array(list(observed_law(dense, 1.0, 1.0).values()))
    freq = empirical(draws, 16)
    assert np.all(np.abs(freq - expected) < 4 * np.sqrt(expected * (1 - expected) / 40_000) + 1e-9)


def test_piecewise_sampler_handles_the_full_64_bit_domain():
    top = 2**64 - 1
    score = PiecewiseScore(
        starts=np.array([0, top - 1], dtype=np.uint64),
        ends=np.array([top - 2, top], dtype=np.uint64),
        scores=np.array([0.0, 200.0]),
    )
    rng = SeededRandom(13)
    points = {sample_piecewise(score, 1.0, rng).point for _ in range(50)}
    assert points <= {top - 1, top}


@pytest.mark.parametrize(
    ("starts", "ends"),
    [([0, 3], [2, 5]), ([0, 4], [2, 5]), ([0, 2], [2, 5]), ([0, 0], [2**64 - 1, 5])],
    ids=["ok", "gap", "overlap", "overlap-by-wrapping-around"],
)
def test_pieces_must_tile_the_domain(starts, ends):
    make = lambda: PiecewiseScore(  # noqa: E731
        np.array(starts, dtype=np.uint64), np.array(ends, dtype=np.uint64), np.array([0.0, 1.0])
    )
    if starts == [0, 3]:
        make()
    else:
        with pytest.raises(ValueError, match="tile"):
            make()


def test_exponential_mechanism_rejects_bad_epsilon():
    with pytest.raises(ValueError):
        exponential_mechanism(np.array([1.0]), 0.0, SeededRandom(1))
    with pytest.raises(ValueError):
        exponential_mechanism(np.array([1.0]), math.nan, SeededRandom(1))


def test_without_a_sensitivity_the_score_moves_by_one():
    """Most callers pass no sensitivity: the default is 1, the weights exp(eps q / 2) of McSherry-Talwar
    (unit pieces, so the piecewise sampler's length terms are 0)."""
    scores = np.array([3.0, 5.0, 4.0])
    unit_pieces = PiecewiseScore(np.arange(3), np.arange(3), scores)
    for sample in (
        lambda rng: exponential_mechanism(scores, 0.8, rng),
        lambda rng: sample_piecewise(unit_pieces, 0.8, rng),
    ):
        rng = RecordingRandom(3)
        sample(rng)
        [log_weights] = rng.log_weights
        np.testing.assert_allclose(log_weights - log_weights[0], 0.4 * (scores - scores[0]), rtol=1e-12)
