"""Pins SanPoints' and SanThresholds' data flow and SanThresholds' blocks (mutation scan 20).

SanPoints (paper 000 Fig. 9; spec 000 s5.1) and SanThresholds (Fig. 11; spec 000 s5.3) are proved private
by counting mechanisms whose inputs have sensitivity 1: the choosing mechanism over the still-available
values' counts, a noisy count of the chosen value (SanPoints), and per range a noisy total, an EM over the
window levels and a choosing run over single points (z = 0) or the A/B blocks of width 2^(z+1)
(SanThresholds). These pins steer every mechanism and compare the inputs it receives and the released
points with the figures' steps.

Survivors this pins (non-keyword lines): slips in SanPoints' availability mask, release order and
clipping and ``predicted_error``; SanThresholds' ``_Data.blocks`` (offsets
first and first + 2^z, block widths, trimming at l), its stack order and ranges [b + 1, l], [k, a - 1].
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import san_points as points_module
from dpgui.algorithms import san_thresholds as thresholds_module
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom


class Noise:
    """BatchedLaplace stand-in: ``next()`` returns the preset draws in order."""

    def __init__(self, draws: list[int]) -> None:
        self.draws = list(draws)

    def __call__(self, rng: object, scale: float, limit: int) -> Noise:
        return self

    def next(self) -> int:
        return self.draws.pop(0)


def test_san_points_chooses_among_available_values_and_releases_clipped_frequencies(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Fig. 9: each iteration runs the choosing mechanism over the counts of the values not yet released,
    releases the chosen value with its count + Laplace noise over m, clipped to [0, 1]; bottom skips."""
    values = np.array([2, 5, 9, 11], dtype=np.uint64)
    counts = np.array([4, 1, 3, 2])
    asked: list[list[int]] = []
    picks = iter([2, None, 0, 1])

    def choosing(scores, params, rng):
        asked.append(np.asarray(scores).tolist())
        return next(picks)

    monkeypatch.setattr(points_module, "choosing_mechanism", choosing)
    monkeypatch.setattr(points_module, "BatchedLaplace", Noise([-1, -7, 20]))
    plan = points_module.SanPointsPlan.for_target(1.0, 1e-6, 0.5)
    assert plan.iterations == 4
    out = run_to_end(points_module.san_points(values, counts, plan, None))  # type: ignore[arg-type]
    assert asked == [[4, 1, 3, 2], [4, 1, 2], [4, 1, 2], [1, 2]]
    assert out.values == (9, 2, 11)
    assert out.frequencies == (0.2, 0.0, 1.0)
    assert out.frequency(9) == 0.2 and out.frequency(5) == 0.0


@pytest.mark.parametrize("m", [1, 50, 10**6, 10**9])
def test_san_points_predicted_error(m: int) -> None:
    """spec 000 s5.1: max(s2, s1 + m/I, Laplace bound) / m, capped at 1 (1 for an empty table)."""
    plan = points_module.SanPointsPlan.for_target(1.0, 1e-6, 0.05)
    s1, s2, laplace = plan.error_terms(m, 0.05)
    expected = min(1.0, max(s2, s1 + m / plan.iterations, laplace) / m)
    assert plan.predicted_error(m, 0.05) == pytest.approx(expected, rel=1e-12)
    assert plan.predicted_error(0, 0.05) == 1.0
    if m == 10**9:
        assert expected < 1 and s1 + m / plan.iterations > max(s2, laplace)


def blocks_brute(values: list[int], counts: list[int], first: int, last: int, z: int) -> tuple[list, list]:
    """Fig. 11 step 10: A-blocks [first + 2Z i, first + 2Z(i+1) - 1] then B-blocks shifted by Z, trimmed
    to [first, last], non-empty only, each scored by its count."""
    big = 2 ** (z + 1)
    scores, intervals = [], []
    for offset in (first, first + 2**z):
        if offset > last:
            continue
        start = offset
        while start <= last:
            end = min(start + big - 1, last)
            c = sum(n for v, n in zip(values, counts, strict=True) if start <= v <= end)
            if c:
                scores.append(c)
                intervals.append((start, end))
            start += big
    return scores, intervals


@pytest.mark.parametrize(("first", "last"), [(0, 63), (3, 40), (10, 10), (0, 5)])
@pytest.mark.parametrize("z", [0, 1, 2, 3, 5])
def test_san_thresholds_blocks(first: int, last: int, z: int) -> None:
    """The A- and B-blocks of width 2^(z+1) (2-bounded growth), with counts >= 1 and their intervals."""
    values = [0, 3, 4, 9, 10, 17, 31, 32, 40, 41, 63]
    counts = [2, 1, 5, 1, 1, 2, 3, 1, 1, 4, 2]
    data = thresholds_module._Data(np.array(values, dtype=np.uint64), np.array(counts))
    scores, intervals = data.blocks(first, last, z)
    expected_scores, expected_intervals = blocks_brute(values, counts, first, last, z)
    assert scores.tolist() == expected_scores
    assert intervals == expected_intervals


def test_san_thresholds_ranges_and_releases(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fig. 11: per range a noisy total (release (l, nh) below alpha m/8), else the EM over window levels,
    a choice [a, b], the release (b, #S[a, b] + noise), then ranges [b + 1, l] and [k, a - 1], the left one
    popped first. Steered: the first range chooses block (4, 7) at z = 1, the left range [0, 3] releases
    its total, the right range [8, 15] chooses single point 12 at z = 0, then [8, 11] releases a negative
    total (clamped to weight 0) and [13, 15] its total."""
    values = np.array([1, 5, 6, 12, 14], dtype=np.uint64)
    counts = np.array([3, 10, 9, 8, 2])
    m = 32
    zs = iter([1, 0])
    picks = iter([1, 0])
    asked: list[tuple[str, list]] = []

    def em(quality, eps, rng):
        asked.append(("em", np.asarray(quality).tolist()))
        return next(zs)

    def choosing(scores, params, rng):
        asked.append(("choose", np.asarray(scores).tolist()))
        return next(picks)

    plan = thresholds_module.SanThresholdsPlan.for_target(1.0, 1e-6, 1.0)
    # noise of: [0,15] (4,7) [0,3] [8,15] (12,12) [8,11] [13,15]
    draws = [0, 1, -1, 0, 2, -3, 0]
    monkeypatch.setattr(thresholds_module, "exponential_mechanism", em)
    monkeypatch.setattr(thresholds_module, "choosing_mechanism", choosing)
    monkeypatch.setattr(thresholds_module, "BatchedLaplace", Noise(draws))
    out = run_to_end(thresholds_module.san_thresholds(values, counts, 16, plan, None))  # type: ignore[arg-type]
    # A-blocks [0, 3], [4, 7], [12, 15]; B-blocks [2, 5], [6, 9], [10, 13], [14, 15] (non-empty only)
    assert asked[1] == ("choose", [3, 19, 10, 10, 9, 8, 2])
    assert asked[3] == ("choose", [8, 2])  # the single points 12 and 14 of [8, 15]
    assert [kind for kind, _ in asked] == ["em", "choose", "em", "choose"]
    assert out.points == (3, 7, 11, 12, 15)
    assert out.weights == (2.0, 20.0, 0.0, 10.0, 2.0)
    assert out.m == m


def test_san_points_never_offers_a_zero_count_value() -> None:
    """Fig. 9 over G(S): only values present in the data are candidates (the choosing mechanism takes the
    positive scores only; every other domain value has score 0 and is never chosen), so a listed value with
    count 0 is skipped rather than scored."""
    values = np.array([1, 2, 3], dtype=np.uint64)
    counts = np.array([400, 0, 300])
    plan = points_module.SanPointsPlan.for_target(8.0, 1e-3, 0.5)
    for seed in range(3):
        out = run_to_end(points_module.san_points(values, counts, plan, SeededRandom(seed)))
        assert 2 not in out.values


def test_san_points_frequency_is_over_the_actual_m_even_for_one_row(monkeypatch: pytest.MonkeyPatch) -> None:
    """Frequencies are noisy counts over the public m (spec 000 s5.1), m = 1 included (only m = 0 is
    guarded, where no value is ever chosen)."""
    monkeypatch.setattr(
        points_module, "choosing_mechanism", lambda scores, params, rng: 0 if len(scores) else None
    )
    monkeypatch.setattr(points_module, "BatchedLaplace", Noise([0, 0]))
    plan = points_module.SanPointsPlan.for_target(1.0, 1e-6, 1.0)
    out = run_to_end(points_module.san_points(np.array([4], dtype=np.uint64), np.array([1]), plan, None))  # type: ignore[arg-type]
    assert out.values == (4,) and out.frequencies == (1.0,)


def test_san_thresholds_blocks_of_2_to_the_63_split_a_64_bit_range() -> None:
    """At z = 62 on the 2^64-point grid the blocks are 2^63 wide: the A-blocks are the two halves, the
    B-blocks start at 2^62 (Fig. 11 step 10); only for z + 1 >= 64 does everything fall in block 0."""
    data = thresholds_module._Data(np.array([5, 2**63 + 5], dtype=np.uint64), np.array([2, 3]))
    scores, intervals = data.blocks(0, 2**64 - 1, 62)
    assert scores.tolist() == [2, 3, 3]
    assert intervals == [(0, 2**63 - 1), (2**63, 2**64 - 1), (2**62, 2**62 + 2**63 - 1)]
