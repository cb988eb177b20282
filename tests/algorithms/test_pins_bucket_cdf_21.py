"""Pins of the bucket partition's validation (dpgui/algorithms/bucket_cdf.py; mutation scan b21).

- ``check_partition`` returns int64 starts whatever array-like it is given, and refuses a last start at
  the grid's end (an empty bucket).
- ``bucket_cdf`` itself validates the partition it is handed before reading any count.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.bucket_cdf import bucket_cdf, check_partition
from dpgui.algorithms.progress import run_to_end
from tests.recording import RecordingRandom


def test_starts_come_back_as_int64_from_a_list_or_floats() -> None:
    for given in ([0, 2], np.array([0.0, 2.0])):
        starts = check_partition(given, 4)
        assert starts.dtype == np.int64 and starts.tolist() == [0, 2]


def test_a_start_at_the_grids_end_is_refused() -> None:
    with pytest.raises(ValueError, match="bucket starts"):
        check_partition(np.array([0, 4]), 4)


@pytest.mark.parametrize("starts", [[1, 3], [0, 0, 2], [0, 5]])
def test_bucket_cdf_refuses_a_bad_partition(starts: list[int]) -> None:
    with pytest.raises(ValueError, match="bucket starts"):
        run_to_end(
            bucket_cdf(np.array([1, 2, 3, 4, 5]), np.array(starts), 15, 1.0, RecordingRandom(zero=True))
        )
