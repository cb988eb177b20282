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
