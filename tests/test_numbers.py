"""The one number formatter: about four significant digits, separators for large magnitudes."""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.numbers import readable


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1234.5678, "1235"),
        (12345.678, "12,346"),
        (0.012345678, "0.01235"),
        (0.5, "0.5"),
        (1.0, "1"),
        (0.0, "0"),
        (-2.71828, "-2.718"),
        (28155, "28,155"),
        (1988, "1988"),
        (np.int64(65536), "65,536"),
        (np.float64(0.99951), "0.9995"),
        (123456789.0, "123,456,789"),
        (1000.4, "1000"),  # rounded to a whole number: its zeros are digits, not decimals to strip
        (20000.2, "20,000"),
        (3.2e-7, "3.2e-07"),
        (2.5e18, "2.5e+18"),
        (float("inf"), "inf"),
        ("yes", "yes"),
        (True, "True"),
    ],
)
def test_values_read_with_about_four_significant_digits(value: object, text: str):
    assert readable(value) == text
