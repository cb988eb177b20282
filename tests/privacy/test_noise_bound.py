"""64-bit integer noise: the secure samplers never saturate at 2^31 - 1, and over-large scales are refused.

OpenDP saturates a draw at its integer type's bound; a saturated draw releases the statistic plus the
bound, i.e. the statistic itself. These tests run the SECURE path (OpenDP, not the seeded stand-in) at the
scales where 32-bit noise was seen to saturate (issue 13): laplace-per-query at eps 0.1 with 1000 queries,
Huang-Roth online on 10 columns at n = 10^4, eps 1, and gaussian-per-query at large k.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.distance import baselines, huang_roth
from dpgui.algorithms.distance.embeddings import Metric
from dpgui.cli import main
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.random import (
    MAX_NOISE_SCALE,
    NOISE_BOUND,
    NoiseScaleTooLarge,
    SecureRandom,
    SeededRandom,
    discrete_laplace_tail,
)

INT32_MAX = 2**31 - 1


def beyond_int32(draws: np.ndarray) -> int:
    return int(np.count_nonzero(np.abs(draws) > INT32_MAX))


def test_laplace_per_query_noise_at_eps_0_1_and_1000_queries_reaches_past_32_bits_unsaturated():
    noise = baselines.per_query_noise(Metric.L1, 1, 1000, epsilon=0.1, rho=None)
    draws = SecureRandom().discrete_laplace(noise.scale, 4000)
    assert draws.dtype == np.int64
    assert not np.any(np.abs(draws) == INT32_MAX), "a draw saturated at the 32-bit bound"
    expected = 4000 * 2 * discrete_laplace_tail(INT32_MAX + 1, noise.scale)
    assert expected > 100  # the regime of the leak: many draws beyond 2^31 - 1
    assert beyond_int32(draws) > expected / 2  # 32-bit noise gives 0 here


def test_huang_roth_online_tangent_noise_on_ten_columns_is_drawn_unsaturated():
    n = 10_000
    calibration = huang_roth.calibrate(n, 10, 1.0, 0.0, 0.05, online=True, k_max=1000)
    scale = huang_roth.noise_scales(calibration, n).tangent_value
    draws = SecureRandom().discrete_laplace(scale, 2000)
    assert not np.any(np.abs(draws) == INT32_MAX)
    expected = 2000 * 2 * discrete_laplace_tail(INT32_MAX + 1, scale)
    assert expected > 100
    assert beyond_int32(draws) > expected / 2
    spread = np.median(np.abs(draws))  # median |Z| = scale ln 2 for the (discrete) Laplace
    assert 0.8 * scale * math.log(2) < spread < 1.25 * scale * math.log(2)


def test_gaussian_per_query_noise_at_large_k_is_drawn_unsaturated():
    rho = zcdp_rho_for(PrivacyCost(1.0, 1e-6))
    noise = baselines.per_query_noise(Metric.L1, 1, 3 * 10**7, epsilon=1.0, rho=rho)
    assert noise.scale > INT32_MAX / 2
    draws = SecureRandom().discrete_gaussian(noise.scale, 2000)
    assert not np.any(np.abs(draws) == INT32_MAX)
    assert beyond_int32(draws) > 50
    assert 0.9 < np.std(draws) / noise.scale < 1.1


def test_the_largest_accepted_scale_keeps_every_draw_far_below_the_64_bit_bound():
    """A draw that saturates releases the statistic plus a known bound. The bound must sit inside i64
    (where the sampler saturates, at 2^63 - 1), and at the largest accepted scale a Laplace draw reaches
    it with probability at most 2 e^-64 (the Gaussian's tail is far smaller)."""
    assert 2**40 < NOISE_BOUND < 2**63 - 1
    assert 2 * discrete_laplace_tail(NOISE_BOUND, MAX_NOISE_SCALE) <= 2 * math.exp(-64)


@pytest.mark.parametrize("rng", [SecureRandom(), SeededRandom(0)], ids=["secure", "seeded"])
def test_a_scale_whose_tail_could_reach_the_64_bit_bound_is_refused_before_any_draw(rng):
    for draw in (rng.discrete_laplace, rng.discrete_gaussian):
        with pytest.raises(NoiseScaleTooLarge):
            draw(MAX_NOISE_SCALE * 2, 1)
        assert draw(MAX_NOISE_SCALE / 2, 1).dtype == np.int64  # control: the largest allowed scales draw


def test_a_distance_release_needing_too_much_noise_exits_2_before_the_charge(tmp_path, capsys):
    data = tmp_path / "d.csv"
    data.write_text("a\n" + "\n".join(str(i % 10) for i in range(100)) + "\n")
    queries = tmp_path / "q.csv"
    queries.write_text("a\n1\n")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    arguments = ["--columns", "a", "--bounds", "0", "10", "--epsilon", "1e-13"]
    arguments += ["--algorithm", "laplace-per-query", "--queries", str(queries), "--out", str(tmp_path / "o")]
    capsys.readouterr()
    assert main(["release", "distance", "--data", str(data), *arguments]) == 2
    assert "64-bit" in capsys.readouterr().err
    assert main(["budget", "show", "--data", str(data)]) == 0
    assert "spent ε=0;" in capsys.readouterr().out
    assert not (tmp_path / "o").exists()
