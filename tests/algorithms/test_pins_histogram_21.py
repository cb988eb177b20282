"""Pins of the geometric histogram's normalising and its error bound's input check (mutation scan b21).

- ``normalise`` is off by default: a plain release carries no fractions.
- The fractions are the clipped noisy counts over their total; only an all-zero release (total 0) falls
  back to the uniform 1/K, and a release whose total is one record keeps its one-hot shape.
- ``histogram_error_bound`` takes beta strictly inside (0, 1), as its union bound needs.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.histogram import geometric_histogram, histogram_error_bound
from dpgui.algorithms.progress import run_to_end
from tests.recording import RecordingRandom


def _release(counts: list[int], noise: list[int], **kwargs: bool):
    rng = RecordingRandom(zero=True, noise=noise)
    return run_to_end(geometric_histogram(np.array(counts), 1.0, rng, **kwargs))


def test_fractions_are_released_only_when_asked() -> None:
    assert _release([3, 1], []).fractions is None


def test_an_all_zero_release_normalises_to_the_uniform_fractions() -> None:
    """Noise -2 on the only record clips every count to 0: the fractions are 1/K each, not K or NaN."""
    result = _release([0, 2, 0, 0], [0, -2, 0, 0], normalise=True)
    np.testing.assert_array_equal(result.counts, [0, 0, 0, 0])
    np.testing.assert_array_equal(result.fractions, [0.25, 0.25, 0.25, 0.25])


def test_a_release_of_one_record_keeps_its_shape() -> None:
    result = _release([0, 1, 0], [], normalise=True)
    np.testing.assert_array_equal(result.fractions, [0.0, 1.0, 0.0])


@pytest.mark.parametrize("beta", [0.0, 1.0])
def test_the_error_bound_refuses_beta_at_the_ends_of_the_unit_interval(beta: float) -> None:
    with pytest.raises(ValueError, match="beta must lie"):
        histogram_error_bound(10, 1.0, beta)
