"""Pins from the privacy20 mutation scan of dpgui/privacy/cost.py (lines outside the keyword scan).

Basic composition sums the epsilons and the deltas (Dwork and Roth 2014, Thm 3.16) and, for two or more
costs, rounds each sum up to the next float, so a charge is never below the exact sum of its parts
(``round_up``: 'a conservative guard against rounding down'). 0-zCDP is 0-DP, so its delta is 0 at any
epsilon (Bun and Steinke 2016).
"""

from __future__ import annotations

import math
from fractions import Fraction

from dpgui.privacy.cost import PrivacyCost, basic_composition, round_up, zcdp_delta, zcdp_epsilon


def test_two_costs_compose_to_no_less_than_their_exact_sum() -> None:
    """Guards basic_composition's rounding (cost.py:61/62) for two costs: 0.1 + 0.7 and 1e-7 + 2e-6 round
    to nearest *below* their exact sums, so the figure must be the next float up (a mutant that rounds only
    from three costs on under-charges by one ulp)."""
    composed = basic_composition([PrivacyCost(0.1, 1e-7), PrivacyCost(0.7, 2e-6)])
    assert Fraction(math.fsum([0.1, 0.7])) < Fraction(0.1) + Fraction(0.7)  # the nearest float is below
    assert Fraction(composed.epsilon) >= Fraction(0.1) + Fraction(0.7)
    assert Fraction(composed.delta) >= Fraction(1e-7) + Fraction(2e-6)
    assert composed.epsilon == math.nextafter(math.fsum([0.1, 0.7]), math.inf)


def test_one_cost_composes_to_itself() -> None:
    """A single cost is its own composition, with nothing added (cost.py:61)."""
    assert basic_composition([PrivacyCost(0.7, 2e-6)]) == PrivacyCost(0.7, 2e-6)


def test_zero_rho_has_zero_delta() -> None:
    """Guards zcdp_delta's rho = 0 case (cost.py:191/192): 0-zCDP is (eps, 0)-DP for every eps >= 0."""
    assert zcdp_delta(0.0, 0.0) == 0.0
    assert zcdp_delta(0.0, 1.0) == 0.0


def test_zero_rho_converts_to_zero_epsilon() -> None:
    """Guards zcdp_epsilon's rho = 0 case (cost.py:217/218): a 0-zCDP mechanism costs epsilon 0 at any
    delta (so a release with no Gaussian noise adds nothing to the all-zCDP figure)."""
    assert zcdp_epsilon(0.0, 1e-6) == 0.0
    assert zcdp_epsilon(0.0, 0.5) == 0.0


def test_rho_one_converts_to_the_cks_epsilon() -> None:
    """Guards the rho = 0 test of zcdp_epsilon (cost.py:217) at rho = 1: the CKS 2020 (Cor. 13) conversion of
    1-zCDP at delta = 1e-6 is epsilon = 7.7662 (notes/mutscan.md), and its delta is at most 1e-6. A mutant
    that short-cuts rho == 1 to epsilon 0 would book a 1-zCDP release as free."""
    epsilon = zcdp_epsilon(1.0, 1e-6)
    assert 7.766 < epsilon < 7.767
    assert zcdp_delta(1.0, epsilon) <= 1e-6


def test_round_up_moves_every_positive_value_up_by_one_float() -> None:
    """Guards round_up (cost.py:24): the next float above x for every x > 0 (also below 1), x itself at 0."""
    for x in (1e-7, 0.5, 1.0, 3.0):
        assert round_up(x) == math.nextafter(x, math.inf)
    assert round_up(0.0) == 0.0
