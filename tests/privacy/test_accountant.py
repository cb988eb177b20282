"""The ledger's accountant: tight composition of recorded curves, checked against exact output laws."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dpgui.privacy.accountant import BookedRelease, compose
from dpgui.privacy.cost import PrivacyCost, ZCDPCost, zcdp_delta, zcdp_epsilon, zcdp_rho_for
from dpgui.privacy.curve import NoiseKind, NoiseRounds, PrivacyCurve

DATASET_DELTA = 1e-6


def discrete_laplace_law(scale: float, support: np.ndarray) -> np.ndarray:
    r = math.exp(-1 / scale)
    return (1 - r) / (1 + r) * r ** np.abs(support)


def discrete_gaussian_law(sigma: float, support: np.ndarray) -> np.ndarray:
    weights = np.exp(-(support.astype(float) ** 2) / (2 * sigma**2))
    return weights / weights.sum()


def exact_delta_of_pair(laplace_scale: float, sigma: float, epsilon: float) -> float:
    """The hockey-stick divergence of (DL(0) x DG(0)) against (DL(1) x DG(1)) at ``epsilon``, computed on
    the product law over a grid whose outside mass (< 1e-17) is added, so the figure is an upper bound.

    Both mechanisms' laws are symmetric, so the reverse direction gives the same divergence."""
    x = np.arange(-int(60 * laplace_scale) - 2, int(60 * laplace_scale) + 3)
    y = np.arange(-int(12 * sigma) - 2, int(12 * sigma) + 3)
    p_x, q_x = discrete_laplace_law(laplace_scale, x), discrete_laplace_law(laplace_scale, x - 1)
    wide = np.arange(-int(40 * sigma) - 2, int(40 * sigma) + 3)  # normalise the Gaussian on a wider grid
    p_y = np.exp(-(y.astype(float) ** 2) / (2 * sigma**2)) / np.exp(-(wide**2) / (2 * sigma**2)).sum()
    q_y = np.exp(-((y - 1).astype(float) ** 2) / (2 * sigma**2)) / np.exp(-(wide**2) / (2 * sigma**2)).sum()
    p, q = np.outer(p_x, p_y), np.outer(q_x, q_y)
    outside = max(0.0, 1 - p.sum())
    return float(np.maximum(0.0, p - math.exp(epsilon) * q).sum()) + outside


def exact_epsilon_of_pair(laplace_scale: float, sigma: float, delta: float) -> float:
    lo, hi = 0.0, 1 / laplace_scale + 10.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if exact_delta_of_pair(laplace_scale, sigma, mid) <= delta else (mid, hi)
    return hi


@pytest.mark.parametrize(("laplace_scale", "sigma"), [(2.0, 3.0), (5.0, 8.0)])
def test_accountant_epsilon_of_a_composed_pair_holds_on_the_exact_product_law(
    laplace_scale: float, sigma: float
) -> None:
    laplace = BookedRelease(
        PrivacyCost(1 / laplace_scale),
        PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, laplace_scale),)),
    )
    gaussian_rounds = NoiseRounds(NoiseKind.DISCRETE_GAUSSIAN, sigma)
    gaussian_cost = ZCDPCost(gaussian_rounds.rho or 0.0).to_approx_dp(DATASET_DELTA / 2)
    gaussian = BookedRelease(gaussian_cost, PrivacyCurve.gaussian_rounds(gaussian_rounds))
    reported = compose([laplace, gaussian], DATASET_DELTA).spent
    assert reported.delta <= DATASET_DELTA
    assert exact_delta_of_pair(laplace_scale, sigma, reported.epsilon) <= DATASET_DELTA
    # ... and tight: within 1% (plus the PLD grid's 1e-4 per release) of the exact epsilon.
    exact = exact_epsilon_of_pair(laplace_scale, sigma, DATASET_DELTA)
    assert exact <= reported.epsilon <= exact * 1.01 + 2e-4


def test_accountant_saves_on_a_pair_against_basic_composition() -> None:
    laplace = BookedRelease(PrivacyCost(0.5), PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 2.0),)))
    gaussian_rounds = NoiseRounds(NoiseKind.DISCRETE_GAUSSIAN, 3.0)
    gaussian = BookedRelease(
        ZCDPCost(gaussian_rounds.rho or 0.0).to_approx_dp(5e-7), PrivacyCurve.gaussian_rounds(gaussian_rounds)
    )
    composition = compose([laplace, gaussian], DATASET_DELTA)
    assert composition.spent.epsilon < 0.95 * composition.basic.epsilon  # each release already CKS-tight
    assert composition.saving > 0


def test_cks_conversion_is_tighter_than_bun_steinke_and_meets_its_delta() -> None:
    for rho in (1e-4, 0.003, 0.05, 0.5, 3.0):
        for delta in (1e-9, 1e-6, 1e-3):
            eps = zcdp_epsilon(rho, delta)
            assert eps <= ZCDPCost(rho).to_approx_dp(delta).epsilon
            assert zcdp_delta(rho, eps) <= delta
            assert zcdp_delta(rho, eps * 0.999) > delta  # and the bisection found the boundary


def test_cks_conversion_of_one_gaussian_matches_its_exact_curve() -> None:
    """A Gaussian with sensitivity / sigma = mu is mu^2/2-zCDP; CKS's delta bounds its exact delta."""
    mu = 0.5
    for eps in (0.5, 1.0, 2.0):
        exact = _gaussian_delta(mu, eps)
        assert exact <= zcdp_delta(mu**2 / 2, eps) <= 5 * exact


def _gaussian_delta(mu: float, eps: float) -> float:
    """Balle-Wang 2018, Thm 8: delta(eps) of the Gaussian mechanism with sensitivity / sigma = mu."""
    phi = lambda t: 0.5 * math.erfc(-t / math.sqrt(2))  # noqa: E731
    return phi(mu / 2 - eps / mu) - math.exp(eps) * phi(-mu / 2 - eps / mu)


curves = st.one_of(
    st.none(),
    st.builds(
        lambda kind, scale, count: PrivacyCurve((NoiseRounds(kind, scale, 1, count),)),
        st.sampled_from([NoiseKind.DISCRETE_LAPLACE, NoiseKind.LAPLACE]),
        st.floats(1.0, 20.0),
        st.integers(1, 8),
    ),
)


@settings(max_examples=20, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0.1, 0.5, 1.0]), st.sampled_from([0.0, 1e-8, 1e-7])),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from([0.0, 1e-7, 1e-6, 1e-5]),
)
def test_the_charge_is_never_more_than_basic_composition(
    costs: list[tuple[float, float]], delta: float
) -> None:
    releases = [BookedRelease(PrivacyCost(eps, d)) for eps, d in costs]
    composition = compose(releases, delta)
    if composition.basic_fits:
        assert composition.spent.epsilon <= composition.basic.epsilon
        assert composition.spent.delta <= max(delta, composition.basic.delta)
    else:
        assert composition.spent == composition.basic  # refused by the ledger on delta


def test_pure_releases_at_delta_zero_are_their_sum_and_need_no_library() -> None:
    releases = [BookedRelease(PrivacyCost(0.25))] * 4
    composition = compose(releases, 0.0)
    assert composition.spent.epsilon == pytest.approx(1.0, rel=1e-15)
    assert composition.spent.delta == 0.0
    assert compose([BookedRelease(PrivacyCost(0.25, 1e-7))], 0.0).spent.delta == 1e-7


def test_ten_gaussian_rounds_cost_less_than_half_of_basic_composition() -> None:
    cost = PrivacyCost(0.5, 1e-7)
    rho = zcdp_rho_for(cost)
    height = 6
    rounds = NoiseRounds(NoiseKind.DISCRETE_GAUSSIAN, math.sqrt(2 * height / (2 * rho)), 1, 2 * height)
    composition = compose([BookedRelease(cost, PrivacyCurve.gaussian_rounds(rounds))] * 10, 1e-6)
    assert composition.spent.epsilon <= composition.basic.epsilon / 2
    assert composition.zcdp_epsilon is not None
    assert composition.spent.epsilon <= composition.zcdp_epsilon


def test_curves_round_trip_through_json() -> None:
    curve = PrivacyCurve.gaussian_rounds(NoiseRounds(NoiseKind.DISCRETE_GAUSSIAN, 12.5, 1, 8))
    assert PrivacyCurve.from_json(curve.to_json()) == curve
    assert PrivacyCurve.from_json({"noise": [], "rho": 0.01}) == PrivacyCurve(rho=0.01)
    with pytest.raises(ValueError):
        NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 1.0, 0.5)


def _optimal_composition_delta(epsilon_step: float, k: int, epsilon: float) -> float:
    """delta(epsilon) of k adaptive epsilon_step-DP mechanisms at their worst (Kairouz, Oh, Viswanath 2015,
    Thm 3.3: randomized response composed k times), written from the formula and not from the library."""
    total = sum(
        math.comb(k, i) * max(0.0, math.exp((k - i) * epsilon_step) - math.exp(epsilon + i * epsilon_step))
        for i in range(k + 1)
    )
    return total / (1 + math.exp(epsilon_step)) ** k


def _optimal_composition_epsilon(epsilon_step: float, k: int, delta: float) -> float:
    lo, hi = 0.0, k * epsilon_step
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if _optimal_composition_delta(epsilon_step, k, mid) <= delta else (mid, hi)
    return hi


@pytest.mark.parametrize(("epsilon_step", "k"), [(0.05, 40), (0.2, 12), (0.5, 6)])
@pytest.mark.parametrize("form", ["pure steps", "discrete Laplace rounds"])
def test_k_repeated_steps_are_charged_their_optimal_composition(
    epsilon_step: float, k: int, form: str
) -> None:
    """k pure steps, or k discrete Laplace answers of sensitivity 1 (exactly randomized response at 1/scale),
    in one release: the charge at delta is the optimal composition's epsilon, neither below it (the k-fold
    composition is really done) nor much above (the PLD's grid only)."""
    curve = (
        PrivacyCurve.pure_steps(epsilon_step, k)
        if form == "pure steps"
        else PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 1 / epsilon_step, 1, k),))
    )
    charged = compose([BookedRelease(PrivacyCost(k * epsilon_step), curve)], DATASET_DELTA).spent.epsilon
    exact = _optimal_composition_epsilon(epsilon_step, k, DATASET_DELTA)
    assert _optimal_composition_delta(epsilon_step, k, charged) <= DATASET_DELTA * (1 + 1e-9)
    assert exact <= charged <= exact + 1e-3 * k


@pytest.mark.parametrize(("epsilon_step", "k"), [(0.05, 40), (0.2, 12)])
def test_k_pure_releases_booked_one_by_one_are_charged_no_less_than_their_optimal_composition(
    epsilon_step: float, k: int
) -> None:
    """Pure releases without curves: the accountant may take the PLD of each or their zCDP bound
    (epsilon^2 / 2 each, Bun-Steinke Prop. 1.4), but the charge never falls below what k adaptive
    epsilon-DP mechanisms can really lose."""
    releases = [BookedRelease(PrivacyCost(epsilon_step))] * k
    charged = compose(releases, DATASET_DELTA).spent.epsilon
    exact = _optimal_composition_epsilon(epsilon_step, k, DATASET_DELTA)
    assert exact <= charged <= exact + 1e-3 * k


def test_a_pld_part_and_a_zcdp_part_share_the_datasets_delta(monkeypatch) -> None:
    """A release known by its noise (a PLD) composed with one known only by its rho: every split of the
    dataset's delta gives the PLD part share * delta and the zCDP part the rest, never more in total
    (basic composition of the two parts; ``accountant`` module doc)."""
    from dpgui.privacy import accountant

    asked: list[tuple[str, float]] = []
    pld_epsilon, zcdp = accountant._epsilon_for_delta, accountant.zcdp_epsilon
    monkeypatch.setattr(
        accountant, "_epsilon_for_delta", lambda pld, d: asked.append(("pld", d)) or pld_epsilon(pld, d)
    )
    monkeypatch.setattr(accountant, "zcdp_epsilon", lambda rho, d: asked.append(("zcdp", d)) or zcdp(rho, d))
    laplace = BookedRelease(
        PrivacyCost(0.37), PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 1 / 0.37),))
    )
    rho_only = BookedRelease(PrivacyCost(0.9, 1e-7), PrivacyCurve(rho=0.0123))
    accountant._compose.cache_clear()  # a cached composition would skip the calls observed here
    charged = compose([laplace, rho_only], DATASET_DELTA).spent.epsilon
    assert charged >= max(0.37, zcdp(0.0123, DATASET_DELTA))  # no less than either part alone
    pairs = [
        (asked[i][1], asked[i + 1][1])
        for i in range(len(asked) - 1)
        if (asked[i][0], asked[i + 1][0]) == ("pld", "zcdp")
    ]
    assert len(pairs) >= 10
    assert all(p + z <= DATASET_DELTA * (1 + 1e-12) and p > 0 and z > 0 for p, z in pairs)


def test_basic_composition_fits_only_within_the_datasets_delta_and_the_saving_is_the_difference() -> None:
    """Ten deltas of 1e-7 fit 1e-6 despite rounding up (TOLERANCE); half as much again does not, and only
    the accountant's epsilon at the dataset's delta can be charged. The saving shown is what the accountant
    charges less than basic composition."""
    from dpgui.privacy.accountant import Composition

    fits = Composition(1e-6, PrivacyCost(2.0, 1e-6 * (1 + 1e-12)), 1.5, None)
    assert fits.basic_fits and fits.spent == PrivacyCost(1.5, 1e-6)
    assert fits.saving == pytest.approx(0.5)
    over = Composition(1e-6, PrivacyCost(2.0, 1.5e-6), 1.5, None)
    assert not over.basic_fits and over.spent == PrivacyCost(1.5, 1e-6) and over.saving == 0.0


def test_noise_rounds_state_their_rho_and_epsilon_for_any_sensitivity() -> None:
    """k Gaussian answers of sensitivity D and sigma s are k D^2 / (2 s^2)-zCDP (Bun-Steinke Prop. 1.6); k
    Laplace answers of sensitivity D and scale b are k D / b-DP. Sensitivity 2 (replace-one histograms)
    tells D from D^2 and D from 1 / D."""
    gaussian = NoiseRounds(NoiseKind.DISCRETE_GAUSSIAN, 3.0, 2, 3)
    assert gaussian.rho == pytest.approx(3 * 2**2 / (2 * 3.0**2)) and gaussian.epsilon is None
    laplace = NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 5.0, 2, 3)
    assert laplace.epsilon == pytest.approx(3 * 2 / 5.0) and laplace.rho is None
