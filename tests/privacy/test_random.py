"""The samplers draw from the distributions they name (both the secure and the seeded kind)."""

import math

import numpy as np
import pytest

from dpgui.privacy.random import (
    VECTOR_SAMPLER_MIN_SIZE,
    PrivateRandom,
    SecureRandom,
    SeededRandom,
    discrete_laplace_tail,
)
from tests.exact import discrete_laplace_pmf


def chi_square_statistic(samples: np.ndarray, pmf: dict[int, float]) -> tuple[float, int]:
    """Pearson statistic over the support cells with expected count >= 5; the rest are pooled into one
    cell, which joins the smallest of those cells when its own expected count is below 5 (a cell expecting
    0.07 samples would add 49 to the statistic for two rare samples, a false alarm about once in 50 runs)."""
    n = samples.size
    values, counts = np.unique(samples, return_counts=True)
    observed = dict(zip(values.tolist(), counts.tolist(), strict=True))
    cells = [(observed.get(z, 0), n * p) for z, p in pmf.items() if n * p >= 5]
    pooled = (n - sum(o for o, _ in cells), n - sum(e for _, e in cells))
    if pooled[1] >= 5:
        cells.append(pooled)
    else:
        smallest = min(range(len(cells)), key=lambda k: cells[k][1])
        o, e = cells[smallest]
        cells[smallest] = (o + pooled[0], e + pooled[1])
    stat = sum((o - e) ** 2 / e for o, e in cells)
    return stat, len(cells) - 1


def chi_square_critical(dof: int) -> float:
    """A generous (about 1e-6 tail) critical value via the Wilson-Hilferty approximation."""
    z = 4.9
    return dof * (1 - 2 / (9 * dof) + z * math.sqrt(2 / (9 * dof))) ** 3


SAMPLES = 20_000
PATHS = {"vectorised": SAMPLES, "opendp": VECTOR_SAMPLER_MIN_SIZE // 2}
"""Draws per call: the secure sampler takes its vectorised path for one large call and OpenDP's for small
ones, so each law is checked on both."""


def draw(sample, scale: float, per_call: int) -> np.ndarray:
    """SAMPLES values of ``sample(scale, size)``, drawn ``per_call`` at a time."""
    return np.concatenate([sample(scale, per_call) for _ in range(SAMPLES // per_call)])


@pytest.mark.parametrize(
    ("rng", "per_call"),
    [(SecureRandom(), n) for n in PATHS.values()] + [(SeededRandom(1), SAMPLES)],
    ids=[f"secure-{path}" for path in PATHS] + ["seeded"],
)
@pytest.mark.parametrize("scale", [0.7, 2.0, 9.0])
def test_discrete_laplace_matches_its_pmf(rng: PrivateRandom, per_call: int, scale: float):
    samples = draw(rng.discrete_laplace, scale, per_call)
    support = range(-int(15 * scale) - 5, int(15 * scale) + 6)
    pmf = dict(zip(support, discrete_laplace_pmf(np.array(list(support)), scale).tolist(), strict=True))
    stat, dof = chi_square_statistic(samples, pmf)
    assert stat < chi_square_critical(dof)


def test_the_chi_square_check_rejects_a_wrong_scale():
    samples = SeededRandom(2).discrete_laplace(2.4, 20_000)
    support = range(-40, 41)
    pmf = dict(zip(support, discrete_laplace_pmf(np.array(list(support)), 2.0).tolist(), strict=True))
    stat, dof = chi_square_statistic(samples, pmf)
    assert stat > chi_square_critical(dof)


@pytest.mark.parametrize(
    ("rng", "per_call"),
    [(SecureRandom(), n) for n in PATHS.values()] + [(SeededRandom(3), SAMPLES)],
    ids=[f"secure-{path}" for path in PATHS] + ["seeded"],
)
@pytest.mark.parametrize("sigma", [0.8, 3.0])
def test_discrete_gaussian_matches_its_pmf(rng: PrivateRandom, per_call: int, sigma: float):
    samples = draw(rng.discrete_gaussian, sigma, per_call)
    support = np.arange(-int(8 * sigma) - 3, int(8 * sigma) + 4)
    weights = np.exp(-(support**2) / (2 * sigma**2))
    pmf = dict(zip(support.tolist(), (weights / weights.sum()).tolist(), strict=True))
    stat, dof = chi_square_statistic(samples, pmf)
    assert stat < chi_square_critical(dof)


def test_discrete_laplace_tail_sums_the_pmf():
    scale = 1.7
    z = np.arange(3, 400)
    assert discrete_laplace_tail(3, scale) == pytest.approx(discrete_laplace_pmf(z, scale).sum(), rel=1e-12)
    assert discrete_laplace_tail(0, scale) == pytest.approx(
        discrete_laplace_pmf(np.arange(0, 400), scale).sum()
    )


@pytest.mark.parametrize("rng", [SecureRandom(), SeededRandom(4)], ids=["secure", "seeded"])
def test_uniform01_is_open_and_uniform(rng: PrivateRandom):
    u = rng.uniform01(50_000)
    assert u.min() > 0 and u.max() < 1
    counts = np.bincount(np.floor(u * 10).astype(int), minlength=10)
    assert np.all(np.abs(counts - 5000) < 5 * math.sqrt(5000 * 0.9))


@pytest.mark.parametrize("rng", [SecureRandom(), SeededRandom(5)], ids=["secure", "seeded"])
def test_randbelow_covers_huge_ranges_uniformly(rng: PrivateRandom):
    n = 2**64 + 3
    draws = [rng.randbelow(n) for _ in range(4000)]
    assert all(0 <= d < n for d in draws)
    top_half = sum(d >= n // 2 for d in draws)
    assert abs(top_half - 2000) < 5 * math.sqrt(1000)


def test_seeded_random_is_reproducible_and_marked_not_private():
    a, b = SeededRandom(7), SeededRandom(7)
    assert np.array_equal(a.discrete_laplace(3.0, 100), b.discrete_laplace(3.0, 100))
    assert not a.is_private and SecureRandom().is_private
    assert "NOT PRIVATE" in a.description


def test_gumbel_has_the_standard_mean():
    g = SeededRandom(8).gumbel(200_000)
    assert abs(g.mean() - 0.5772156649) < 0.01


def noisy_count_law(count: int, scale: float, support: range) -> dict[int, float]:
    """Exact law of count + discrete Laplace noise on a wide support."""
    z = np.array(list(support))
    return dict(zip(support, discrete_laplace_pmf(z - count, scale).tolist(), strict=True))


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0])
def test_discrete_laplace_on_a_count_is_exactly_eps_dp(epsilon: float):
    """A count changes by at most 1 between neighbours; noise of scale 1/eps gives hockey-stick 0 at eps."""
    from tests.exact import hockey_stick

    support = range(-2000, 2001)
    for count in (0, 5, 40):
        p = noisy_count_law(count, 1 / epsilon, support)
        q = noisy_count_law(count + 1, 1 / epsilon, support)
        assert hockey_stick(p, q, epsilon) <= 1e-12


def test_discrete_laplace_with_half_the_scale_fails_the_exact_check():
    from tests.exact import hockey_stick

    support = range(-200, 201)
    p, q = noisy_count_law(3, 0.5, support), noisy_count_law(4, 0.5, support)
    assert hockey_stick(p, q, 1.0) > 0.1
