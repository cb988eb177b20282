"""Pins the sanitizers' delta splits and stated error bounds to the spec (mutation scan 18).

Survivors this pins: SanPoints' delta' = delta/10 or delta/6 (its cost stays within the target, so the
"<= target" tests pass, but eps_t is computed from the smaller slack); SanThresholds' beta split
beta/(2c) or beta/(4c) in its guarantee; the public-data CDF's noise bound with ln(n_cells/beta) or
ln(3 n_cells/beta).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.public_assisted import PublicCells, cover_gap, dkw, noise_bound, predicted_error
from dpgui.algorithms.san_points import ROUNDING_GUARD, SanPointsPlan
from dpgui.algorithms.san_thresholds import SanThresholdsPlan
from dpgui.privacy.cost import advanced_per_mechanism_epsilon


@pytest.mark.parametrize(("epsilon", "delta", "alpha"), [(1.0, 1e-6, 0.05), (2.0, 1e-5, 0.1)])
def test_san_points_splits_delta_as_the_spec(epsilon: float, delta: float, alpha: float) -> None:
    """Spec 000 s5.1: I = ceil(2/alpha), delta_t = 2 delta/(5I), Thm 2.5 with delta' = delta/5 over the 2I
    mechanisms (each shrunk by the rounding guard); the cost booked is I delta_t + delta' = 3 delta/5."""
    plan = SanPointsPlan.for_target(epsilon, delta, alpha)
    iterations = math.ceil(2 / alpha)
    assert plan.iterations == iterations
    assert plan.delta_slack == pytest.approx(delta / 5 * ROUNDING_GUARD, rel=1e-15)
    assert plan.delta_slack <= delta / 5
    assert plan.mechanism_delta == pytest.approx(2 * delta / (5 * iterations) * ROUNDING_GUARD, rel=1e-15)
    assert plan.mechanism_epsilon == advanced_per_mechanism_epsilon(epsilon, 2 * iterations, plan.delta_slack)
    assert plan.cost.delta == pytest.approx(3 * delta / 5, rel=1e-6)


def test_san_points_choosing_and_error_terms_are_the_specs() -> None:
    """The quality q_R has 1-bounded growth, so the choosing mechanism runs with k = 1 at min(eps_t, 2)
    (REVIEW-000-002 s2b); the error terms split beta into beta/(2I) per choosing run and per Laplace draw,
    and a Laplace draw exceeds ln(2/share)/eps_t w.p. <= share (module doc)."""
    plan = SanPointsPlan.for_target(1.0, 1e-6, 0.05)
    assert plan.choosing.k == 1
    assert plan.choosing.epsilon == min(plan.mechanism_epsilon, 2.0)
    assert plan.choosing.delta == plan.mechanism_delta
    share = 0.05 / (2 * plan.iterations)
    s1, s2, laplace = plan.error_terms(10**6, 0.05)
    assert s1 == pytest.approx(plan.choosing.utility_error(10**6, share), rel=1e-12)
    assert s2 == pytest.approx(plan.choosing.min_opt_for_output(share), rel=1e-12)
    assert laplace == pytest.approx(math.log(2 / share) / plan.mechanism_epsilon, rel=1e-12)


def san_thresholds_events(plan: SanThresholdsPlan, m: int, domain_size: int, beta: float) -> bool:
    """Events B1-B3 of san_thresholds' module doc, each of the 3c events failing w.p. beta/(3c)."""
    beta_m = beta / (3 * plan.cap)
    eps, alpha = plan.mechanism_epsilon, plan.alpha
    b1 = math.log(2 / beta_m) / eps <= alpha * m / (16 * plan.cap)
    b2 = (2 / eps) * math.log(((domain_size - 1).bit_length() + 1) / beta_m) <= alpha * m / 128
    b3 = alpha * m / 64 >= max(
        plan.choosing.min_opt_for_output(beta_m), plan.choosing.utility_error(m, beta_m)
    )
    return b1 and b2 and b3


@pytest.mark.parametrize(("epsilon", "alpha", "domain_size"), [(1.0, 0.5, 2**32), (4.0, 0.9, 1000)])
def test_san_thresholds_guarantee_splits_beta_over_3c_events(
    epsilon: float, alpha: float, domain_size: int
) -> None:
    """Spec 000 s5.3 (Claims 4.10-4.11, Lemma 4.12): the guarantee holds from the first m where B1-B3 all
    hold at beta/(3c) each, and not one record earlier."""
    plan = SanThresholdsPlan.for_target(epsilon, 1e-6, alpha)
    m = plan.min_n_for_guarantee(domain_size, 0.05)
    assert san_thresholds_events(plan, m, domain_size, 0.05)
    assert not san_thresholds_events(plan, m - 1, domain_size, 0.05)
    assert plan.guarantee_met(m, domain_size, 0.05) and not plan.guarantee_met(m - 1, domain_size, 0.05)


@pytest.mark.parametrize(
    ("n_cells", "n", "epsilon", "beta"), [(10, 1000, 1.0, 0.05), (400, 10**5, 0.5, 0.01)]
)
def test_public_cdf_noise_bound_is_chan_shi_song(n_cells: int, n: int, epsilon: float, beta: float) -> None:
    """Spec 001 s4.3 (Chan-Shi-Song Cor. 2.9): every prefix sum of <= K discrete Laplace(b = 2/eps) draws is
    within max(b sqrt(K), b sqrt(ln(2K/beta))) sqrt(8 ln(2K/beta)) w.p. >= 1 - beta, in CDF units / n."""
    b = 2 / epsilon
    log_term = math.log(2 * n_cells / beta)
    expected = max(b * math.sqrt(n_cells), b * math.sqrt(log_term)) * math.sqrt(8 * log_term) / n
    assert noise_bound(n_cells, n, epsilon, beta) == pytest.approx(expected, rel=1e-12)


def test_public_cdf_predicted_error_splits_beta_in_thirds() -> None:
    """Noise + stride x cover gap + 2 DKW, each at beta/3 (spec 001 s4: gamma(m) = 1 - (beta/(2(m+1)))^(1/m),
    DKW sqrt(ln(2/beta)/(2n)))."""
    n, m, cells, stride, epsilon, beta = 20_000, 300, 50, 2, 1.0, 0.06
    assert cover_gap(100, 0.05) == pytest.approx(1 - (0.05 / 202) ** (1 / 100), rel=1e-12)
    assert cover_gap(100, 0.05) == pytest.approx(0.080, abs=5e-4)  # the spec's gamma(100) = 0.080
    assert cover_gap(1, 0.05) == pytest.approx(1 - 0.05 / 4, rel=1e-12)
    assert cover_gap(0, 0.05) == 1.0  # no public point: the whole mass may sit in one gap
    assert dkw(n, 0.05) == pytest.approx(math.sqrt(math.log(40) / (2 * n)), rel=1e-12)
    expected = noise_bound(cells, n, epsilon, 0.02) + stride * cover_gap(m, 0.02) + 2 * dkw(n, 0.02)
    assert predicted_error(n, m, cells, stride, epsilon, beta) == pytest.approx(expected, rel=1e-12)


def test_public_share_of_a_one_point_public_sample() -> None:
    """The shift diagnostic compares the release with the public sample's own cell shares: a public sample
    of one point puts all of its mass in that point's cell."""
    cells = PublicCells.from_public(np.array([5], dtype=np.uint64), 10)
    assert cells.public_share().tolist() == [1.0, 0.0]
