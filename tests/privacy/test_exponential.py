"""The exponential mechanism: sampled law equals the closed form; piecewise sampling equals dense sampling."""

import math

import numpy as np
import pytest

from dpgui.privacy.exponential import (
    PiecewiseScore,
    exponential_mechanism,
    gumbel_max,
    log_probabilities,
    sample_piecewise,
)
from dpgui.privacy.random import SeededRandom
from tests.exact import hockey_stick


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


def test_exponential_mechanism_law_is_eps_dp_on_neighbouring_scores():
    eps = 0.8
    base = np.array([3.0, 5.0, 4.0, 0.0])
    for shift in np.array(np.meshgrid(*[[-1, 0, 1]] * 4)).T.reshape(-1, 4):
        p = dict(enumerate(np.exp(log_probabilities(eps * base / 2))))
        q = dict(enumerate(np.exp(log_probabilities(eps * (base + shift) / 2))))
        assert hockey_stick(p, q, eps) <= 1e-12


def test_exponential_mechanism_with_half_the_exponent_would_fail_the_check():
    """Control: weights exp(eps q) (no 1/2) violate eps-DP, so the exact check can fail."""
    eps = 0.8
    base = np.array([3.0, 5.0, 4.0, 0.0])
    shifted = base + np.array([1, -1, -1, -1])
    p = dict(enumerate(np.exp(log_probabilities(eps * base))))
    q = dict(enumerate(np.exp(log_probabilities(eps * shifted))))
    assert hockey_stick(p, q, eps) > 1e-3


def dense_probabilities(score: PiecewiseScore, epsilon: float) -> np.ndarray:
    size = int(score.ends[-1]) + 1
    dense = np.array([score.score_at(y) for y in range(size)])
    return np.exp(log_probabilities(epsilon * dense / 2))


def test_piecewise_sampler_matches_the_dense_sampler_in_distribution():
    score = PiecewiseScore(
        starts=np.array([0, 5, 6, 12]), ends=np.array([4, 5, 11, 15]), scores=np.array([0.0, 3.0, 1.0, 0.0])
    )
    rng = SeededRandom(12)
    draws = [sample_piecewise(score, 1.0, rng).point for _ in range(40_000)]
    expected = dense_probabilities(score, 1.0)
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
    [([0, 3], [2, 5]), ([0, 4], [2, 5]), ([0, 2], [2, 5])],
    ids=["ok", "gap", "overlap"],
)
def test_pieces_must_tile_the_domain(starts, ends):
    make = lambda: PiecewiseScore(np.array(starts), np.array(ends), np.array([0.0, 1.0]))  # noqa: E731
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
