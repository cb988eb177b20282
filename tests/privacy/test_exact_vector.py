"""The vectorised exact samplers (CKS 2020) draw exactly the law they name, piece by piece and as a whole.

Words come from a seeded generator here, so every bound is deterministic; each bound is wide enough for
the right law (|z| below 6 standard errors, or a chi-square p-value above 1e-6 at these seeds) and is
missed by a wrong constant (exp(-2) for exp(-1), a scale off by 10%, a missing rejection of negative 0).
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from dpgui.privacy import exact_vector
from dpgui.privacy.exact_vector import NoiseOverflow, _Uniform
from dpgui.privacy.random import SecureRandom
from tests.exact import discrete_laplace_pmf


def seeded_words(seed: int) -> exact_vector.WordSource:
    generator = np.random.Generator(np.random.PCG64(seed))
    return lambda count: generator.integers(0, 2**64, size=count, dtype=np.uint64)


def assert_frequency(hits: np.ndarray, probability: float) -> None:
    n = hits.size
    error = math.sqrt(probability * (1 - probability) / n) + 1e-12
    assert abs(hits.mean() - probability) < 6 * error, (hits.mean(), probability)


def chi_square_p_value(draws: np.ndarray, pmf: dict[int, float]) -> float:
    """Chi-square goodness of fit over the listed values plus one pooled bin for all others."""
    values = np.array(sorted(pmf))
    observed = np.array([np.count_nonzero(draws == v) for v in values] + [0])
    observed[-1] = draws.size - observed[:-1].sum()
    expected_p = np.array([pmf[v] for v in values] + [max(0.0, 1 - sum(pmf.values()))])
    keep = expected_p * draws.size >= 5
    expected = expected_p[keep] * draws.size
    observed_kept = observed[keep]
    expected *= observed_kept.sum() / expected.sum()
    return float(stats.chisquare(observed_kept, expected).pvalue)


def laplace_pmf_table(scale: float) -> dict[int, float]:
    support = np.arange(-int(12 * scale) - 2, int(12 * scale) + 3)
    return dict(zip(support.tolist(), discrete_laplace_pmf(support, scale).tolist(), strict=True))


@pytest.mark.parametrize("gamma", [Fraction(0), Fraction(1, 2), Fraction(1), Fraction(27, 10), Fraction(7)])
def test_bernoulli_exp_has_probability_exp_minus_gamma(gamma: Fraction) -> None:
    uniform = _Uniform(seeded_words(1))
    n = 200_000
    hits = uniform.bernoulli_exp(
        np.full(n, gamma.numerator, dtype=np.int64), np.full(n, gamma.denominator, dtype=np.int64)
    )
    assert_frequency(hits, math.exp(-gamma))


def test_geometric_count_has_tail_exp_minus_k() -> None:
    counts = _Uniform(seeded_words(2)).count_exp_thresholds(400_000)
    for k in range(1, 6):
        assert_frequency(counts >= k, math.exp(-k))


def test_exp_words_are_the_binary_expansion_of_exp_minus_k() -> None:
    for k in (1, 2, 20, 40):
        words = exact_vector._EXP_NEG[k - 1]
        approx = sum(w * 2.0 ** (-64 * (i + 1)) for i, w in enumerate(words))
        assert math.isclose(approx, math.exp(-k), rel_tol=1e-15)


def test_a_tie_on_the_leading_word_is_settled_by_the_next_words() -> None:
    leading, second, _ = exact_vector._EXP_NEG[0]  # exp(-1)
    for next_word, below in ((second - 1, True), (second + 1, False)):
        script = iter([np.array([leading], dtype=np.uint64), np.array([next_word, 0], dtype=np.uint64)])
        count = _Uniform(lambda count, script=script: next(script)).count_exp_thresholds(1)
        assert int(count[0]) == (1 if below else 0)  # the leading word exceeds exp(-2)'s


def test_an_impossible_run_is_refused_not_clamped() -> None:
    zeros = _Uniform(lambda count: np.zeros(count, dtype=np.uint64))
    with pytest.raises(NoiseOverflow):
        zeros.count_exp_thresholds(4)


@pytest.mark.parametrize("scale", [0.3, 1.0, 10 / 3, 7.0])
def test_discrete_laplace_law(scale: float) -> None:
    draws = exact_vector.discrete_laplace(scale, 300_000, seeded_words(3))
    assert chi_square_p_value(draws, laplace_pmf_table(scale)) > 1e-6
    assert draws.dtype == np.int64


def test_discrete_laplace_large_scale_moments() -> None:
    scale = 1e6
    draws = exact_vector.discrete_laplace(scale, 200_000, seeded_words(4)).astype(np.float64)
    r = math.exp(-1 / scale)
    mean_abs = 2 * r / (1 - r * r)  # E|Z| of the discrete Laplace
    assert abs(draws.mean()) < 6 * math.sqrt(2) * scale / math.sqrt(draws.size)
    assert abs(np.abs(draws).mean() / mean_abs - 1) < 0.01


def test_a_wrong_scale_fails_the_law_test() -> None:
    draws = exact_vector.discrete_laplace(2.2, 300_000, seeded_words(3))
    assert chi_square_p_value(draws, laplace_pmf_table(2.0)) < 1e-6


def discrete_gaussian_pmf_table(variance: float) -> dict[int, float]:
    support = np.arange(-int(12 * math.sqrt(variance)) - 2, int(12 * math.sqrt(variance)) + 3)
    weights = np.exp(-(support.astype(np.float64) ** 2) / (2 * variance))
    tail = np.arange(int(12 * math.sqrt(variance)) + 3, int(40 * math.sqrt(variance)) + 10)
    total = weights.sum() + 2 * np.exp(-(tail.astype(np.float64) ** 2) / (2 * variance)).sum()
    return dict(zip(support.tolist(), (weights / total).tolist(), strict=True))


@pytest.mark.parametrize("sigma", [1.0, 1.7, 6.5])
def test_discrete_gaussian_law(sigma: float) -> None:
    draws = exact_vector.discrete_gaussian(sigma, 200_000, seeded_words(5))
    variance = float(exact_vector.gaussian_variance(sigma))
    assert chi_square_p_value(draws, discrete_gaussian_pmf_table(variance)) > 1e-6


def test_discrete_gaussian_large_sigma_variance() -> None:
    sigma = 2000.0
    draws = exact_vector.discrete_gaussian(sigma, 100_000, seeded_words(6)).astype(np.float64)
    assert abs(draws.var() / sigma**2 - 1) < 6 * math.sqrt(2 / draws.size)


def test_gaussian_variance_is_rounded_up_by_at_most_a_millionth() -> None:
    for sigma in (1.0, 1.3, 2.0 / 3.0 + 1, 47.123, 2048.0):
        rounded = exact_vector.gaussian_variance(sigma)
        exact = Fraction(sigma) ** 2
        assert exact <= rounded <= exact * (1 + Fraction(1, 2**20))


def test_supported_ranges() -> None:
    assert exact_vector.laplace_supported(2**56) and not exact_vector.laplace_supported(2.0**57)
    assert not exact_vector.laplace_supported(1e-30)
    assert exact_vector.gaussian_supported(1.0) and not exact_vector.gaussian_supported(0.5)
    assert not exact_vector.gaussian_supported(4096.0)


def test_secure_random_uses_the_vector_sampler_for_large_vectors(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[float, int]] = []

    def recording(scale: float, size: int, words: object) -> np.ndarray:
        calls.append((scale, size))
        return np.zeros(size, dtype=np.int64)

    monkeypatch.setattr(exact_vector, "discrete_laplace", recording)
    monkeypatch.setattr(exact_vector, "discrete_gaussian", recording)
    rng = SecureRandom()
    rng.discrete_laplace(3.0, 5000)
    rng.discrete_gaussian(3.0, 5000)
    small = rng.discrete_laplace(3.0, 10)  # OpenDP
    assert calls == [(3.0, 5000), (3.0, 5000)]
    assert small.shape == (10,)
