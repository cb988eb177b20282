"""Pins of inverse-CDF sampling's edges (dpgui/algorithms/synthetic.py; mutation scan b21).

- A record is the smallest grid index whose released CDF *reaches* U: a uniform that lands exactly on a
  CDF value takes that point, not the next one.
- Zero records is a valid request (an empty draw), and the CDF may be any array-like.
"""

from __future__ import annotations

import numpy as np

from dpgui.algorithms.synthetic import sample_from_cdf
from tests.recording import ScriptedRandom


class Uniforms(ScriptedRandom):
    """Hands out the scripted uniforms, in order."""

    def __init__(self, values: list[float]) -> None:
        self.values = list(values)

    def uniform01(self, size: int) -> np.ndarray:
        taken, self.values = self.values[:size], self.values[size:]
        return np.array(taken, dtype=np.float64)


def test_a_uniform_equal_to_a_cdf_value_takes_that_grid_point() -> None:
    cdf = np.array([0.25, 0.5, 0.5, 1.0])
    draws = sample_from_cdf(cdf, 4, Uniforms([0.25, 0.5, 0.25000000000000006, 0.75]))
    np.testing.assert_array_equal(draws, [0, 1, 1, 3])


def test_zero_records_is_an_empty_draw() -> None:
    draws = sample_from_cdf(np.array([0.5, 1.0]), 0, Uniforms([]))
    assert draws.dtype == np.int64 and draws.size == 0


def test_a_list_cdf_is_accepted() -> None:
    np.testing.assert_array_equal(sample_from_cdf([0.5, 1.0], 2, Uniforms([0.5, 0.75])), [0, 1])
