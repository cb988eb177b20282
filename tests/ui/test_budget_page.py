"""The Budget page's pieces: ε as odds, and the three-segment bar of spent / this release / remaining."""

from __future__ import annotations

import math

import pytest

from dpgui.ui.budget_page import odds_text
from dpgui.ui.budget_panel import BudgetBar


def test_odds_are_e_to_the_epsilon():
    assert "× 2.72" in odds_text(1.0)
    assert f"× {math.exp(0.1):,.3g}" in odds_text(0.1)
    assert "× 1.1 " not in odds_text(1.0)  # control: a different ε gives different odds


def test_the_bar_splits_the_total_into_spent_release_and_remaining(qtbot):
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.show_budget(10.0, 2.0, 1.0)
    assert bar.fractions == pytest.approx((0.2, 0.1, 0.7))
    assert "spent 20%" in bar.caption and "does not fit" not in bar.caption


def test_a_release_that_does_not_fit_is_clipped_and_flagged(qtbot):
    bar = BudgetBar()
    qtbot.addWidget(bar)
    bar.show_budget(1.0, 0.8, 0.5)
    assert bar.fractions == pytest.approx((0.8, 0.2, 0.0))
    assert "does not fit" in bar.caption
    bar.show_budget(None, 0.0, 0.0)
    assert bar.fractions == (0.0, 0.0, 0.0) and bar.caption == "no total budget set"
    bar.grab()  # paints without error
