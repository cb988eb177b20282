"""Pins the rectangle learner's encodings and its edge handling by steering the quantiles (mutation scan 20).

spec 000 s4.5 (REVIEW-000-002 s6): on each axis the "high" encoding puts negatives at the sentinel s (one
past the grid) and the quantile of rank k is the lower edge a; the "low" encoding shifts positives up by
one with negatives at 0, and the quantile of rank n - k, shifted back, is the upper edge b. A box edge at
grid point 0 is a real edge; only crossed or off-grid edges mean EMPTY.

Survivors this pins (non-keyword lines of rectangles.py): the EMPTY test ``upper < 0`` written
``upper <= 0`` (a box whose upper edge is grid point 0 became EMPTY), and slips in the sentinel encodings.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import rectangles as module
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.rectangles import AxisPositives, BoxParameters
from tests.recording import ScriptedRandom


class ZeroNoise(ScriptedRandom):
    is_private = False
    description = "zero noise"

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        return np.zeros(size, dtype=np.int64)


def steered(monkeypatch: pytest.MonkeyPatch, answers: list[int], axes: list[AxisPositives], n: int) -> tuple:
    seen: list[tuple[list[int], list[int], int]] = []
    replies = iter(answers)

    def em_quantile(values, counts, domain_size, q, epsilon, rng):
        seen.append((np.asarray(values).tolist(), np.asarray(counts).tolist(), domain_size))

        class Out:
            index = next(replies)

        yield from ()
        return Out()

    monkeypatch.setattr(module, "em_quantile", em_quantile)
    params = BoxParameters(n, tuple(a.size for a in axes), 1000.0, 0.1)
    assert params.min_positives < sum(int(a.counts.sum()) for a in axes[:1])
    release = run_to_end(module.quantile_box(axes, params, ZeroNoise()))
    return release, seen


def test_a_box_edge_at_grid_point_0_is_released(monkeypatch: pytest.MonkeyPatch) -> None:
    """All positives at 0 on an axis: the edges a = b = 0 are a box, not EMPTY (only b < 0, a > b or
    a >= s are)."""
    axes = [AxisPositives(np.array([0], dtype=np.uint64), np.array([60]), 10)]
    # "high" answers a = 0; "low" answers 1, shifted back to b = 0
    release, _ = steered(monkeypatch, [0, 1], axes, 100)
    assert release.box == ((0, 0),)
    assert release.contains(np.array([[0], [1]])).tolist() == [True, False]


def test_each_axis_gets_the_two_sentinel_encodings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every record contributes one entry per axis input: positives at their coordinate and negatives at
    the sentinel s ("high"), or positives at coordinate + 1 and negatives at 0 ("low"), over s + 1 values."""
    axes = [
        AxisPositives(np.array([2, 5], dtype=np.uint64), np.array([30, 40]), 8),
        AxisPositives(np.array([0, 7], dtype=np.uint64), np.array([50, 20]), 9),
    ]
    release, seen = steered(monkeypatch, [2, 6, 1, 8], axes, 100)
    assert seen == [
        ([2, 5, 8], [30, 40, 30], 9),
        ([0, 3, 6], [30, 30, 40], 9),
        ([0, 7, 9], [50, 20, 30], 10),
        ([0, 1, 8], [30, 50, 20], 10),
    ]
    assert release.box == ((2, 5), (1, 7))


def test_a_single_negative_still_gets_its_sentinel_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    """One negative record is one sentinel entry per encoding, so each axis input keeps exactly n entries
    (spec 000 s4.5: replacing a record replaces one entry of every axis input)."""
    axes = [AxisPositives(np.array([2, 5], dtype=np.uint64), np.array([60, 39]), 8)]
    _, seen = steered(monkeypatch, [2, 6], axes, 100)
    assert seen == [([2, 5, 8], [60, 39, 1], 9), ([0, 3, 6], [1, 60, 39], 9)]
