import math

import numpy as np
import pytest

from dpgui.privacy.cost import (
    PrivacyCost,
    ZCDPCost,
    advanced_composition,
    advanced_composition_with_some_deltas,
    advanced_per_mechanism_epsilon,
    basic_composition,
    repeated,
    replace_one_from_add_remove,
    zcdp_rho_for,
)
from tests.exact import discrete_gaussian_delta, discrete_gaussian_renyi, gaussian_delta, gaussian_zcdp


def test_basic_composition_adds_epsilons_and_deltas_rounding_up():
    total = basic_composition([PrivacyCost(0.1, 1e-7)] * 10)
    assert total.epsilon >= 1.0 and total.epsilon < 1.0 + 1e-12
    assert total.delta >= 1e-6


def test_two_halves_compose_to_at_least_one():
    assert (PrivacyCost(0.5) + PrivacyCost(0.5)).epsilon >= 1.0


def test_invalid_costs_are_rejected():
    with pytest.raises(ValueError):
        PrivacyCost(-1.0)
    with pytest.raises(ValueError):
        PrivacyCost(1.0, 1.0)
    with pytest.raises(ValueError):
        PrivacyCost(math.inf)


def test_advanced_composition_matches_the_drv_formula_when_it_beats_basic():
    each = PrivacyCost(0.01, 1e-9)
    k, slack = 1000, 1e-6
    got = advanced_composition(each, k, slack)
    expected = math.sqrt(2 * k * math.log(1 / slack)) * 0.01 + k * 0.01 * math.expm1(0.01)
    assert got.epsilon == pytest.approx(expected, rel=1e-12)
    assert got.epsilon < 10.0  # basic would give 10
    assert got.delta == pytest.approx(k * 1e-9 + slack)


def test_advanced_composition_falls_back_to_basic_for_few_mechanisms():
    assert advanced_composition(PrivacyCost(1.0), 2, 1e-6).epsilon == pytest.approx(2.0)


def test_per_mechanism_epsilon_fits_the_total():
    eps = advanced_per_mechanism_epsilon(1.0, 400, 1e-7)
    assert advanced_composition(PrivacyCost(eps), 400, 1e-7).epsilon <= 1.0
    assert advanced_composition(PrivacyCost(eps * 1.01), 400, 1e-7).epsilon > 1.0
    assert eps > 1.0 / 400  # advanced composition must beat basic here


def test_zcdp_conversion_round_trip_fits_the_target():
    target = PrivacyCost(1.0, 1e-6)
    rho = zcdp_rho_for(target)
    assert ZCDPCost(rho).to_approx_dp(1e-6).epsilon <= 1.0
    assert ZCDPCost(rho * 1.001).to_approx_dp(1e-6).epsilon > 1.0


@pytest.mark.parametrize(("epsilon", "delta"), [(1.0, 1e-6), (0.5, 1e-8), (4.0, 1e-5)])
def test_the_discrete_gaussian_at_the_converted_rho_meets_the_target_exactly(epsilon, delta):
    """The rho the tasks run their Gaussian mechanisms at: sigma = 1 / sqrt(2 rho) for sensitivity 1 has
    exact hockey-stick divergence <= delta at epsilon (a hang here, the guard stepping a too-large rho down
    ulp by ulp, is caught by the planted-error runner's per-test time limit)."""
    rho = zcdp_rho_for(PrivacyCost(epsilon, delta))
    assert discrete_gaussian_delta([1], math.sqrt(1 / (2 * rho)), epsilon) <= delta


@pytest.mark.parametrize(("sensitivity", "sigma"), [(1, 2.0), (2, 3.5), (3, 1.2)])
def test_gaussian_rho_bounds_the_exact_renyi_divergences_of_the_discrete_gaussian(sensitivity, sigma):
    """rho-zCDP means D_alpha <= alpha rho for every alpha > 1: checked against the divergences summed over
    the discrete Gaussian's support at an integer shift of the sensitivity (tight: the ratio approaches 1)."""
    rho = gaussian_zcdp(sensitivity, sigma).rho
    ratios = [discrete_gaussian_renyi(sensitivity, sigma, a) / a for a in (1.01, 1.5, 2.0, 4.0, 16.0)]
    assert max(ratios) <= rho * (1 + 1e-9)
    assert max(ratios) >= 0.9 * rho


def test_zcdp_costs_add():
    assert (ZCDPCost(0.1) + ZCDPCost(0.2)).rho == pytest.approx(0.3)


@pytest.mark.parametrize("rho", [1e-4, 0.01, 0.3, 2.0])
@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-10])
def test_zcdp_to_approx_dp_holds_for_the_gaussian_mechanism(rho, delta):
    """The (discrete) Gaussian mechanism of sensitivity 1 and sigma^2 = 1 / (2 rho) is rho-zCDP, so a valid
    conversion must make its exact hockey-stick divergence at the converted epsilon at most delta."""
    epsilon = ZCDPCost(rho).to_approx_dp(delta).epsilon
    sigma = 1 / math.sqrt(2 * rho)
    assert gaussian_delta(1 / sigma, epsilon) <= delta
    assert discrete_gaussian_delta([1], sigma, epsilon) <= delta


def test_add_remove_to_replace_one_doubles_epsilon():
    got = replace_one_from_add_remove(PrivacyCost(0.5, 1e-6))
    assert got.epsilon == pytest.approx(1.0)
    assert got.delta == pytest.approx((1 + math.exp(0.5)) * 1e-6)


def test_advanced_composition_never_overflows_for_huge_epsilon():
    assert advanced_composition(PrivacyCost(2000.0), 3, 1e-6).epsilon == pytest.approx(6000.0)
    assert advanced_per_mechanism_epsilon(5000.0, 10, 1e-6) == pytest.approx(500.0, rel=1e-6)


def test_repeated_equals_basic_composition_of_copies():
    each = PrivacyCost(0.013, 3e-9)
    for k in (1, 2, 7, 1000):
        assert repeated(each, k).epsilon == pytest.approx(basic_composition([each] * k).epsilon, rel=1e-12)
        assert repeated(each, k).epsilon >= k * 0.013 * (1 - 1e-15)


def test_advanced_composition_with_some_deltas_adds_only_the_approximate_runs_deltas():
    """SanPoints and SanThresholds book k runs of which some are (eps, delta_each): delta'' is the slack
    plus exactly those runs' deltas (never fewer), at the pure runs' advanced epsilon."""
    k, slack = 1000, 1e-6
    got = advanced_composition_with_some_deltas(0.01, k, 3, 1e-7, slack)
    assert got.epsilon == advanced_composition(PrivacyCost(0.01), k, slack).epsilon
    assert got.delta == pytest.approx(slack + 3 * 1e-7, rel=1e-12)
    assert got.delta >= slack + 3 * 1e-7


def test_deltas_summing_past_a_half_are_kept_and_capped_just_below_one():
    """Composition never reports less delta than the sum (a cap lower than 1 would), and a sum of 1 or more
    stays a valid, vacuous delta just below 1."""
    assert basic_composition([PrivacyCost(1.0, 0.3)] * 2).delta >= 0.6
    assert repeated(PrivacyCost(1.0, 0.3), 2).delta >= 0.6
    assert basic_composition([PrivacyCost(1.0, 0.6)] * 2).delta == math.nextafter(1.0, 0.0)
    assert repeated(PrivacyCost(1.0, 0.6), 2).delta == math.nextafter(1.0, 0.0)


@pytest.mark.parametrize(("rho", "epsilon"), [(0.0244, 1.0), (0.1, 3.0), (1.0, 1.0), (0.002, 0.3)])
def test_zcdp_delta_is_the_cks_bound_at_its_best_alpha(rho: float, epsilon: float):
    """Every alpha gives a valid delta, so a wrong minimiser stays private but wastes budget (less rho for
    the same guarantee): the code's delta must be the infimum, found here by a fine search over alpha."""
    from dpgui.privacy.cost import zcdp_delta

    alphas = np.exp(np.linspace(math.log(1.0001), math.log(1e4), 200_001))
    log_deltas = (alphas - 1) * (alphas * rho - epsilon) + alphas * np.log1p(-1 / alphas) - np.log(alphas - 1)
    best = math.exp(float(log_deltas.min()))
    assert zcdp_delta(rho, epsilon) == pytest.approx(best, rel=1e-6)
    assert zcdp_delta(rho, epsilon) <= best * (1 + 1e-9)
