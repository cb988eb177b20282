"""Pins from the privacy20 mutation scan of dpgui/privacy/curve.py (lines outside the keyword scan).

PrivacyCurve.form is what the budget page and `dpgui budget` print next to each release ("[pure-epsilon]"):
it must not call a release pure when one of its steps carries a delta (module docstring: 'pure-epsilon'
only when every step is pure).
"""

from __future__ import annotations

import math

import pytest

from dpgui.privacy import accountant
from dpgui.privacy.accountant import BookedRelease, compose
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.curve import DpSteps, NoiseKind, NoiseRounds, PrivacyCurve


@pytest.mark.parametrize(
    ("curve", "form"),
    [
        (PrivacyCurve.pure_steps(0.5, 3), "pure-epsilon"),
        (PrivacyCurve(steps=(DpSteps(PrivacyCost(0.5, 1e-7)),)), "epsilon-delta"),
        (PrivacyCurve(steps=(DpSteps(PrivacyCost(0.5)), DpSteps(PrivacyCost(0.5, 1e-7)))), "epsilon-delta"),
        (PrivacyCurve(), "epsilon-delta"),
        (PrivacyCurve(rho=0.01), "zcdp"),
        (PrivacyCurve.gaussian_rounds(NoiseRounds(NoiseKind.GAUSSIAN, 3.0)), "pld"),
    ],
)
def test_the_form_names_the_most_precise_description(curve: PrivacyCurve, form: str) -> None:
    """Guards PrivacyCurve.form (curve.py:152-157): 'pure-epsilon' needs steps and every step pure."""
    assert curve.form == form


@pytest.mark.parametrize(
    "curve",
    [PrivacyCurve(steps=(DpSteps(PrivacyCost(0.5)),)), PrivacyCurve.pure_steps(0.5)],
    ids=["DpSteps", "pure_steps"],
)
def test_one_step_is_the_default_count(curve: PrivacyCurve) -> None:
    """Guards the default count = 1 of DpSteps and PrivacyCurve.pure_steps (curve.py:107/145; tasks/registry
    books ``DpSteps(cost)``): one 0.5-DP step composes to 0.5, not to the 1.0 of two steps."""
    assert curve.steps[0].count == 1
    accountant._compose.cache_clear()
    composed = compose([BookedRelease(PrivacyCost(0.5), curve)], 1e-6)
    assert composed.tight_epsilon <= 0.5 + 1e-3


@pytest.mark.parametrize(("sensitivity", "rho"), [(1, 1 / 9), (3, 1.0), (5, 25 / 9)])
def test_gaussian_rounds_state_count_times_sensitivity_squared_over_two_sigma_squared(
    sensitivity: int, rho: float
) -> None:
    """Guards NoiseRounds.rho (curve.py:73): k Delta^2 / (2 sigma^2) (Bun and Steinke 2016, Prop. 1.6). The
    existing test uses Delta = 2, where Delta * 2 = Delta^2; at Delta = 3 the mutant under-states rho."""
    rounds = NoiseRounds(NoiseKind.DISCRETE_GAUSSIAN, 3.0, sensitivity, 2)
    assert math.isclose(rounds.rho, rho, rel_tol=1e-15)
    assert rounds.rho >= rho
