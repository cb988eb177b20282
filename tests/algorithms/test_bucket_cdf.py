"""The second stage of PrivTree and DAWA: a tree over the buckets, each spread uniformly over its points."""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.bucket_cdf import bucket_cdf, check_partition, expand_uniformly
from dpgui.algorithms.progress import Progress, run_to_end
from dpgui.algorithms.tree_cdf import CdfSoFar
from dpgui.privacy.random import SeededRandom
from tests.algorithms.test_tree_cdf import RecordingRandom


def test_each_bucket_is_spread_uniformly_between_its_neighbours_values():
    cdf = expand_uniformly(np.array([0.5, 0.5, 1.0]), np.array([0, 2, 3]), 7)
    np.testing.assert_allclose(cdf, [0.25, 0.5, 0.5, 0.625, 0.75, 0.875, 1.0])


def test_bad_partitions_are_refused():
    for starts in ([1, 3], [0, 3, 3], [0, 9], []):
        with pytest.raises(ValueError, match="bucket starts"):
            check_partition(np.array(starts, dtype=np.int64), 5)


def test_the_tree_runs_over_the_buckets_and_partials_sit_on_grid_points():
    counts = np.zeros(100, dtype=np.int64)
    counts[[3, 40, 41, 90]] = [10, 5, 5, 20]
    starts = np.array([0, 10, 40, 50, 90])
    rng = RecordingRandom(0)
    run = bucket_cdf(counts, starts, 40, 1.0, rng, branching=2)
    steps: list[Progress] = []
    while True:
        try:
            steps.append(next(run))
        except StopIteration as stop:
            release = stop.value
            break
    assert sum(size for *_, size in rng.requests) <= 2 * starts.size  # noise on bucket nodes only
    ends = {int(i) for step in steps if isinstance(step.partial, CdfSoFar) for i in step.partial.indices}
    assert ends <= {9, 39, 49, 89, 99}
    assert release.cdf[-1] == 1.0 and np.all(np.diff(release.cdf) >= 0)


def test_huge_epsilon_gives_the_bucket_totals_exactly():
    counts = np.array([1, 2, 3, 4, 0, 0, 5, 5])
    starts = np.array([0, 4, 6])
    cdf = run_to_end(bucket_cdf(counts, starts, 20, 1e9, SeededRandom(1))).cdf
    np.testing.assert_allclose(cdf[[3, 5, 7]], [0.5, 0.5, 1.0])
