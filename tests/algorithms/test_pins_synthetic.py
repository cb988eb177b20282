"""Pins of synthetic sampling's batching (dpgui/algorithms/synthetic.py, post-processing only).

Records are drawn SAMPLE_BATCH at a time (2^18) so memory does not grow with the row count; the tests
elsewhere draw fewer rows than one batch, so a later batch that asks for the wrong number of uniforms is
never exercised. Drawing in small batches must give the very records one batch gives from the same seed.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import synthetic
from dpgui.privacy.random import SeededRandom


@pytest.mark.parametrize("batch", [1, 3, 7])
def test_records_drawn_in_batches_are_the_records_of_one_batch(
    monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    """Each batch takes the next ``stop - start`` uniforms of the stream and fills rows [start, stop)."""
    cdf = np.array([0.1, 0.35, 0.35, 0.8, 1.0])
    whole = synthetic.sample_from_cdf(cdf, 20, SeededRandom(11))
    monkeypatch.setattr(synthetic, "SAMPLE_BATCH", batch)
    batched = synthetic.sample_from_cdf(cdf, 20, SeededRandom(11))
    assert batched.dtype == np.int64
    assert np.array_equal(batched, whole)
    assert set(np.unique(whole).tolist()) <= {0, 1, 3, 4}


def test_cdf_of_counts_is_the_normalised_running_sum_ending_at_one() -> None:
    """The released histogram's CDF: cumulative counts over the total, the last value exactly 1."""
    cdf = synthetic.cdf_of_counts(np.array([2.0, 0.0, 5.0, 1.0]))
    np.testing.assert_allclose(cdf, [0.25, 0.25, 0.875, 1.0], rtol=0, atol=1e-15)
    assert cdf[-1] == 1.0


def test_a_released_histogram_whose_total_is_below_one_keeps_its_shape() -> None:
    """Only an all-zero histogram (total <= 0) falls back to uniform; noisy released counts may add up to
    less than one record and still give the distribution."""
    cdf = synthetic.cdf_of_counts(np.array([0.0, 0.5, 0.25]))
    np.testing.assert_allclose(cdf, [0.0, 2 / 3, 1.0], rtol=0, atol=1e-15)


def test_a_histogram_whose_running_sum_rounds_below_its_total_still_ends_at_one() -> None:
    """Ten released fractions of 0.1: the running sum over the total rounds to 0.9999999999999999, so the
    CDF's last value is set to exactly 1 (else sampling refuses it as unfinished)."""
    counts = np.full(10, 0.1)
    assert np.cumsum(counts)[-1] / counts.sum() < 1.0
    assert synthetic.cdf_of_counts(counts)[-1] == 1.0
    draws = synthetic.sample_from_histogram(counts, 50, SeededRandom(2))
    assert draws.min() >= 0 and draws.max() <= 9
