"""Pins from the privacy20 mutation scan of dpgui/privacy/accountant.py (lines outside the keyword scan).

Sources: a pure epsilon-DP release is (epsilon^2 / 2)-zCDP (Bun and Steinke 2016, Prop. 1.4); the
composition of k runs is the k-fold self-composition of one run's privacy loss distribution (Kairouz, Oh
and Viswanath 2015; dp-accounting's PLD API); TOLERANCE and MATERIAL_SAVING as their docstrings state.
"""

from __future__ import annotations

import math

import pytest

from dpgui.privacy import accountant
from dpgui.privacy.accountant import BookedRelease, Composition, compose
from dpgui.privacy.cost import PrivacyCost, round_up, zcdp_epsilon
from dpgui.privacy.curve import DpSteps, NoiseKind, NoiseRounds, PrivacyCurve

DELTA = 1e-6


@pytest.mark.parametrize(("epsilon", "rho"), [(0.5, 0.125), (1.0, 0.5), (3.0, 4.5)])
def test_a_pure_release_is_epsilon_squared_over_two_zcdp(epsilon: float, rho: float) -> None:
    """Guards BookedRelease.rho (accountant.py:63): epsilon^2 / 2, rounded up. epsilon * 2 / 2 (= epsilon)
    under-states rho for every epsilon > 2, and the all-zCDP figure is then too small."""
    assert BookedRelease(PrivacyCost(epsilon)).rho == round_up(rho)


@pytest.mark.parametrize(
    "curve_of",
    [
        lambda count: PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 2.0, 1, count),)),
        lambda count: PrivacyCurve(steps=(DpSteps(PrivacyCost(0.5), count),)),
    ],
    ids=["noise-rounds", "pure-steps"],
)
def test_a_release_of_two_rounds_is_charged_as_two_releases_of_one(curve_of) -> None:
    """Guards _self_composed (accountant.py:187): count = 2 rounds compose twice. The mutant that returns
    the single PLD for times == 2 charges two noisy answers (or two exponential-mechanism steps) as one.
    The composition must match two separate one-round releases, and exceed one."""
    accountant._compose.cache_clear()
    one = BookedRelease(PrivacyCost(0.5), curve_of(1))
    two = BookedRelease(PrivacyCost(1.0), curve_of(2))
    together = compose([two], DELTA).tight_epsilon
    apart = compose([one, one], DELTA).tight_epsilon
    single = compose([one], DELTA).tight_epsilon
    assert math.isclose(together, apart, rel_tol=1e-9)
    assert together > 1.5 * single


def test_basic_composition_fits_within_a_relative_slack_of_one_billionth() -> None:
    """Guards TOLERANCE = 1e-9 (accountant.py:39): basic composition's delta fits the dataset's delta up to a
    relative 1e-9 (rounding up of ten 1e-7 deltas), no more."""
    assert Composition(DELTA, PrivacyCost(1.0, DELTA * (1 + 0.7e-9)), 0.5, None).basic_fits
    assert not Composition(DELTA, PrivacyCost(1.0, DELTA * (1 + 1.5e-9)), 0.5, None).basic_fits


@pytest.mark.parametrize(
    ("tight", "charged"), [(0.985, 0.985), (0.993, 1.0), (0.9905, 1.0), (0.9895, 0.9895)]
)
def test_the_accountant_replaces_basic_composition_only_for_a_saving_of_one_percent(
    tight: float, charged: float
) -> None:
    """Guards MATERIAL_SAVING = 0.01 (accountant.py:42, used at :98): the accountant's epsilon is charged only
    when it is at least 1 % below basic composition's."""
    spent = Composition(DELTA, PrivacyCost(1.0, 0.0), tight, None).spent
    assert spent.epsilon == charged
    assert spent.delta == (0.0 if charged == 1.0 else DELTA)


def test_no_release_composes_to_nothing() -> None:
    """Guards the empty composition (accountant.py:133/134): zero spent and an accountant's figure of 0."""
    assert compose([], DELTA) == Composition(DELTA, PrivacyCost(0.0, 0.0), 0.0, None)


def test_a_pld_release_and_a_zcdp_only_release_take_the_best_delta_split() -> None:
    """Guards _pld_epsilon's minimum over DELTA_SPLITS (accountant.py:154-157): any split is valid, so the
    charge is no more than the PLD part at the smallest share (at most 0.37 for a pure Laplace release) plus
    the zCDP part at the rest of delta. A max over the splits is +inf and falls back to basic composition."""
    accountant._compose.cache_clear()
    laplace = BookedRelease(
        PrivacyCost(0.37), PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 1 / 0.37),))
    )
    rho_only = BookedRelease(PrivacyCost(2.0, 1e-7), PrivacyCurve(rho=0.0123))
    composed = compose([laplace, rho_only], DELTA)
    bound = 0.37 + zcdp_epsilon(0.0123, (1 - accountant.DELTA_SPLITS[-1]) * DELTA)
    assert composed.tight_epsilon <= bound * (1 + 1e-9)
    assert composed.spent == PrivacyCost(composed.tight_epsilon, DELTA)
