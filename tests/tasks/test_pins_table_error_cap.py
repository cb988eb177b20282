"""Pins expected_tv's cap: a total variation is at most 1, so a hopeless marginal predicts exactly 1 (not a
smaller or larger cap), and a well-measured one stays far below it."""

from __future__ import annotations

import pytest

from dpgui.tasks.table_error import expected_tv


@pytest.mark.parametrize("noise", ["discrete Gaussian", "discrete Laplace"])
def test_expected_tv_caps_at_exactly_one(noise: str) -> None:
    assert expected_tv(noise, 50.0, 10_000, 10) == 1.0
    assert expected_tv(noise, 5.0, 100, 5000) < 0.1
    assert 0.5 < expected_tv(noise, 10.0, 1000, 5000) < 1.0
