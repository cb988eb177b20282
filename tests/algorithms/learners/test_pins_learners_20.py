"""Pins helper steps of the learners to their definitions (mutation scan 20).

- The hashing point learner (spec 003 A5) draws R uniformly over bit masks as wide as the grid index, so
  that two distinct grid points collide with probability 2^-k; narrower masks make the top point of a
  2^j + 1 grid hash like 0.
- The IP reduction (spec 000 s7.1 "efficient instantiations"; spec 002 s8) hands the interior-point
  solver the k largest positives (as their smallest correct cuts v + 1) and the k smallest negatives.
- ``threshold_log_probabilities`` (tests/exact.py) is the exact law of the EM threshold learner.
- ``smallest_alpha`` inverts a stated sample bound (the error the app shows the user).

Survivors this pins (non-keyword lines of learners/*.py): slips in the mask width, ``_take``,
``positive_cuts``, the merge of the two classes, the log-sum-exp's peak, and the bisection.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.learners import ip_threshold as ip_module
from dpgui.algorithms.learners import points as points_module
from dpgui.algorithms.learners import thresholds as thresholds_module
from dpgui.algorithms.progress import run_to_end
from tests.exact import threshold_log_probabilities
from tests.recording import ScriptedRandom


class Recorder(ScriptedRandom):
    """randbelow records n and returns 0; the exponential mechanism picks index 0."""

    is_private = False
    description = "recorder"

    def __init__(self) -> None:
        self.ranges: list[int] = []

    def randbelow(self, n: int) -> int:
        self.ranges.append(n)
        return 0

    def choose_index(self, log_weights: np.ndarray) -> int:
        return 0


@pytest.mark.parametrize(("size", "width"), [(3, 2), (4, 2), (5, 3), (8, 3), (9, 4), (2**20 + 1, 21)])
def test_hashing_rows_are_masks_as_wide_as_the_grid_index(size: int, width: int) -> None:
    """spec 003 A5: each row of R is uniform over the masks of ceil(log2 size) bits, so every grid index
    [0, size) is hashed by all its bits (one bit narrower, the top point of a 2^j + 1 grid hashes like 0).
    Grids of 1 or 2 points are left out: there any mask width labels the grid alike."""
    rng = Recorder()
    values = np.array([0], dtype=np.uint64)
    run_to_end(points_module.hashing_point(values, np.array([1]), np.array([0]), size, 1.0, 0.1, 0.1, rng))
    assert rng.ranges == [2**width] * points_module.hash_bits(0.1, 0.1)
    assert (size - 1) < 2**width


def test_take_is_the_first_k_records_of_a_run_length_list() -> None:
    """The first k records in the given order, as (values, counts) with the last run cut short."""
    values = np.array([9, 7, 4, 2], dtype=np.uint64)
    counts = np.array([2, 0, 3, 5])
    for k, expected in [
        (0, ([], [])),
        (1, ([9], [1])),
        (2, ([9], [2])),
        (4, ([9, 4], [2, 2])),
        (5, ([9, 4], [2, 3])),
        (7, ([9, 4, 2], [2, 3, 2])),
        (20, ([9, 4, 2], [2, 3, 5])),
    ]:
        got_values, got_counts = ip_module._take(values, counts, k)
        assert (got_values.tolist(), got_counts.tolist()) == expected, k


def test_positive_cuts_are_v_plus_one_capped_at_the_last_cut() -> None:
    """A positive at v is classified correctly by h_j(x) = 1[x < j] iff j >= v + 1; the smallest such cut
    is v + 1, capped at the last cut (cut_count - 1)."""
    values = np.array([0, 3, 6, 7, 8], dtype=np.uint64)
    assert ip_module.positive_cuts(values, 9).tolist() == [1, 4, 7, 8, 8]
    top = np.array([2**64 - 2, 2**64 - 1], dtype=np.uint64)
    assert ip_module.positive_cuts(top, 2**64).tolist() == [2**64 - 1, 2**64 - 1]


def test_threshold_log_probabilities_survive_far_apart_families() -> None:
    """The exact law of em_threshold: families picked by their log-masses, then a cut; it must stay a
    probability law when the two masses differ by far more than a float's exponent range (large eps n)."""
    values = np.arange(0, 400, dtype=np.uint64)
    positives = (values >= 200).astype(np.int64)  # "ge" fits all 400 rows, "le" at best 200
    negatives = 1 - positives
    law = threshold_log_probabilities(
        values, positives, negatives, 401, thresholds_module.Direction.AUTO, 20.0
    )
    logs = np.array(list(law.values()))
    assert np.all(np.isfinite(logs[logs > -1e300]))
    assert math.fsum(np.exp(logs)) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("n", [40, 41, 50, 1234, 10**6])
def test_smallest_alpha_inverts_a_decreasing_bound(n: int) -> None:
    """The smallest alpha in (0, 0.999] with min_n(alpha) <= n, to float precision; inf when alpha = 0.999
    already needs more than n (n = 40 here)."""

    def need(alpha: float) -> float:
        return 40 / alpha**2

    alpha = thresholds_module.smallest_alpha(need, n)
    exact = math.sqrt(40 / n)
    if exact >= 0.999:
        assert alpha == math.inf
    else:
        assert need(alpha) <= n
        assert alpha == pytest.approx(exact, rel=1e-12)  # 60 halvings of the log-range
    assert thresholds_module.smallest_alpha(need, 0) == math.inf


def test_cut_candidates_cut_at_each_point_or_just_after_it() -> None:
    """spec 000 s7.1 "efficient instantiations" (spec 001 s6 cover): "ge" hypotheses 1[x >= j] realise
    every labelling of the points with cuts at the points, "le" hypotheses 1[x < j] with cuts just after
    them; both add the constant hypotheses (cuts 0 and size)."""
    points = np.array([3, 0, 7, 3], dtype=np.uint64)
    assert thresholds_module.cut_candidates(points, 10, thresholds_module.Direction.GE) == [0, 3, 7, 10]
    assert thresholds_module.cut_candidates(points, 10, thresholds_module.Direction.LE) == [0, 1, 4, 8, 10]


def test_smallest_alpha_accepts_a_bound_met_exactly_at_0_999() -> None:
    """A bound of exactly n records at alpha = 0.999 is met (min_n <= n), so the answer is finite: here
    ceil(40/alpha^2) <= 41 from alpha = sqrt(40/41) on."""

    def need(alpha: float) -> float:
        return math.ceil(40 / alpha**2)

    assert need(0.999) == 41
    assert thresholds_module.smallest_alpha(need, 41) == pytest.approx(math.sqrt(40 / 41), rel=1e-9)
    assert thresholds_module.smallest_alpha(need, 40) == math.inf
