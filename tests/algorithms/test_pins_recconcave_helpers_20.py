"""Pins RecConcave's step-function machinery against brute force over every point (mutation scan 20).

The step-function RecConcave (spec 000 s4.3 [ours]; REVIEW-000-002 s5) works piece by piece so it can run
on 2^64 + 1 thresholds. Each helper must agree exactly with the dense definition it replaces: a wrong piece
length changes the exponential mechanism's law (and so its privacy proof, which is per point), a wrong
window profile L(j) or block maximum changes the quality that A_dist and the deeper level score.

Survivors this pins (non-keyword lines of recconcave.py): off-by-one and operator slips in
``StepFunction.lengths``/``values_at``/``to_dense``, ``_window``, ``_piece_start``, the
exponential mechanism's piece weights and output offset, ``log_mass``, ``_merged_runs``,
``window_minimum_profile``, ``top_two_blocks``, ``ceil_log2`` and ``levels``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import recconcave as module
from tests.recording import ScriptedRandom


def random_step(rng: np.random.Generator, top: int, pieces: int) -> module.StepFunction:
    """A step function on [0, top] with at most ``pieces`` pieces and small integer values."""
    cuts = np.sort(rng.choice(top, size=min(pieces - 1, top), replace=False)).astype(np.uint64)
    values = rng.integers(-3, 6, size=cuts.size + 1)
    return module.StepFunction(cuts, values, top)


def dense(q: module.StepFunction) -> np.ndarray:
    """Q(k) for every k of [0, top], from the definition (piece i ends at cuts[i])."""
    out = np.empty(q.top + 1, dtype=np.int64)
    start = 0
    for end, value in zip([*q.cuts.tolist(), q.top], q.values.tolist(), strict=True):
        out[start : end + 1] = value
        start = end + 1
    return out


def step_functions() -> list[module.StepFunction]:
    rng = np.random.default_rng(20)
    out = [module.StepFunction(np.array([], dtype=np.uint64), np.array([4]), 0)]
    out.append(module.StepFunction(np.array([], dtype=np.uint64), np.array([2]), 7))
    out.append(module.StepFunction(np.array([0, 1, 2], dtype=np.uint64), np.array([1, 5, 5, 0]), 3))
    for top, pieces in [(1, 2), (5, 3), (9, 10), (17, 4), (40, 7), (64, 12), (100, 30)]:
        out.extend(random_step(rng, top, pieces) for _ in range(4))
    return out


STEPS = step_functions()


@pytest.mark.parametrize("q", STEPS)
def test_step_function_point_queries_match_the_dense_values(q: module.StepFunction) -> None:
    """Piece i is [cuts[i-1] + 1, cuts[i]] (the last one ends at top): lengths, values_at and to_dense
    must all read the same Q(k)."""
    truth = dense(q)
    assert np.array_equal(q.to_dense(), truth)
    runs = [*np.diff([-1, *q.cuts.tolist(), q.top])]
    assert q.lengths() == [int(r) for r in runs]
    assert q.values_at(list(range(q.top + 1))).tolist() == truth.tolist()
    assert q.values_at([0, q.top]).tolist() == [truth[0], truth[-1]]


def windows_of(q: module.StepFunction) -> list[tuple[int, int]]:
    top = q.top
    spots = sorted({0, min(1, top), top // 3, top // 2, max(top - 1, 0), top})
    return [(lo, hi) for lo in spots for hi in spots if lo <= hi]


@pytest.mark.parametrize("q", STEPS)
def test_window_clips_pieces_exactly(q: module.StepFunction) -> None:
    """_window(q, lo, hi): the pieces meeting [lo, hi], their lengths clipped to the window (the weights
    the exponential mechanism gives each piece) and their values; the first index names the piece."""
    truth = dense(q)
    piece_of = np.searchsorted(q.cuts, np.arange(q.top + 1, dtype=np.uint64), side="left")
    for lo, hi in windows_of(q):
        first, lengths, values = module._window(q, lo, hi)
        ids = piece_of[lo : hi + 1]
        expected_ids = sorted(set(ids.tolist()))
        assert first == expected_ids[0]
        assert lengths.tolist() == [float(np.sum(ids == i)) for i in expected_ids]
        assert values.tolist() == [int(q.values[i]) for i in expected_ids]
        assert values.tolist() == [int(truth[lo : hi + 1][ids == i][0]) for i in expected_ids]


class Steered(ScriptedRandom):
    """Returns preset choices: the exponential mechanism's piece index and the uniform offset in it."""

    is_private = False
    description = "steered"

    def __init__(self, index: int, offset: int) -> None:
        self.index, self.offset = index, offset
        self.log_weights: list[np.ndarray] = []
        self.ranges: list[int] = []

    def choose_index(self, log_weights: np.ndarray) -> int:
        self.log_weights.append(np.array(log_weights))
        return self.index

    def randbelow(self, n: int) -> int:
        self.ranges.append(n)
        return min(self.offset, n - 1)


@pytest.mark.parametrize("q", STEPS[:12] + STEPS[-6:])
def test_exponential_mechanism_weighs_each_piece_and_outputs_inside_it(q: module.StepFunction) -> None:
    """Spec 000 s3.2 over pieces: P(piece) ∝ len * exp(eps Q / 2), then uniform inside the piece ∩ window.
    So the log-weights are ln(len) + eps Q/2 per clipped piece, and choosing piece c with offset o outputs
    the o-th point of that clipped piece: exactly the per-point mechanism's law."""
    eps = 0.7
    truth = dense(q)
    piece_of = np.searchsorted(q.cuts, np.arange(q.top + 1, dtype=np.uint64), side="left")
    spots = windows_of(q)
    cases = [None, (spots[len(spots) // 2],)]
    if q.top >= 6:
        cases.append(((0, 1), (q.top - 2, q.top)))
    for windows in cases:
        points = (
            list(range(q.top + 1))
            if windows is None
            else [k for lo, hi in windows for k in range(lo, hi + 1)]
        )
        groups: list[list[int]] = []
        for k in points:  # clipped pieces in order, split at window boundaries
            if groups and piece_of[groups[-1][-1]] == piece_of[k] and groups[-1][-1] == k - 1:
                groups[-1].append(k)
            else:
                groups.append([k])
        expected_w = [math.log(len(g)) + eps * truth[g[0]] / 2 for g in groups]
        for index, group in enumerate(groups):
            for offset in sorted({0, len(group) - 1}):
                rng = Steered(index, offset)
                out = module.exponential_mechanism_step(q, eps, rng, windows)
                assert np.allclose(rng.log_weights[0], expected_w, rtol=0, atol=1e-12)
                assert rng.ranges == [len(group)]
                assert out == group[offset]


@pytest.mark.parametrize("q", STEPS)
def test_log_mass_is_the_normaliser_over_every_point(q: module.StepFunction) -> None:
    """ln sum_k exp(eps Q(k)/2) over [0, top]: picks among the threshold families (spec 000 s4.4)."""
    eps = 0.9
    truth = dense(q).astype(np.float64)
    expected = math.log(math.fsum(np.exp(eps * truth / 2)))
    assert module.log_mass(q, eps) == pytest.approx(expected, rel=0, abs=1e-9)


def profile_brute(values: list[int], max_exponent: int) -> list[int]:
    """L(j) = max over windows of 2^j consecutive points of their minimum (spec 000 s4.3 step 3)."""
    return [
        max(min(values[i : i + 2**j]) for i in range(len(values) - 2**j + 1)) for j in range(max_exponent + 1)
    ]


@pytest.mark.parametrize("q", STEPS)
def test_window_minimum_profile_is_the_dense_definition(q: module.StepFunction) -> None:
    """The monotonic-stack profile over (values, lengths) must equal the dense L(j) for every j with
    2^j <= T + 1, also for runs of equal values (merged first) and the exact-power-of-two lengths."""
    truth = dense(q).tolist()
    max_exponent = (len(truth)).bit_length() - 1
    profile = module.window_minimum_profile(q.values.tolist(), q.lengths(), max_exponent)
    assert profile == profile_brute(truth, max_exponent)


def test_merged_runs_joins_equal_neighbours() -> None:
    """Equal neighbouring values are one run whose length is the sum (the profile needs maximal runs)."""
    assert module._merged_runs([3, 3, 1, 1, 1, 4, 3], [2, 1, 1, 5, 1, 2, 3]) == ([3, 1, 4, 3], [3, 7, 2, 3])
    assert module._merged_runs([], []) == ([], [])


def blocks_brute(q: module.StepFunction, offset: int, shift: int) -> tuple[int, list[tuple[int, int]]]:
    """Blocks [offset + t P, offset + (t+1) P - 1] ∩ [0, top], P = 2^shift: their maxima, best two, ties to
    the smaller block index (spec 000 s4.3 step 6 [ours])."""
    truth = dense(q).tolist()
    if offset > q.top:
        return 0, []
    size = 2**shift
    maxima = []
    start = offset
    while start <= q.top:
        maxima.append(max(truth[start : min(q.top, start + size - 1) + 1]))
        start += size
    order = sorted(range(len(maxima)), key=lambda t: (-maxima[t], t))[:2]
    return len(maxima), [(t, maxima[t]) for t in order]


@pytest.mark.parametrize("q", STEPS)
def test_top_two_blocks_are_the_two_best_block_maxima(q: module.StepFunction) -> None:
    """A_dist scores the blocks of 8 * 2^k points at offsets 0 and 4 * 2^k by their maxima; the vectorised
    piece reports must give the same count and best two blocks as scanning every point."""
    for shift in range(0, 7):
        for offset in sorted({0, 1, 2**shift, 4 * 2**shift, q.top // 2, q.top, q.top + 1}):
            assert module.top_two_blocks(q, offset, shift) == blocks_brute(q, offset, shift), (offset, shift)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (1, 0),
        (2, 1),
        (3, 2),
        (4, 2),
        (5, 3),
        (31, 5),
        (32, 5),
        (33, 6),
        (64, 6),
        (65, 7),
        (2**64, 64),
        (2**64 + 1, 65),
    ],
)
def test_ceil_log2(value: int, expected: int) -> None:
    """ceil(log2 T): the next level's range (paper 000 Fig. 5 step 3 over [0, 2^ceil(log2 T)])."""
    assert module.ceil_log2(value) == expected


@pytest.mark.parametrize(
    ("top", "bound", "expected"),
    [
        (32, None, 1),
        (33, None, 2),
        (2**32, None, 2),
        (2**33, None, 3),
        (2**64, None, 3),
        (2**64, 2, 2),
        (2**64, 1, 1),
        (33, 5, 2),
    ],
)
def test_levels_counts_ranges_down_to_the_base_case(top: int, bound: int | None, expected: int) -> None:
    """T -> ceil(log2 T) until T <= 32 (or the recursion bound N): the N that splits the budget as
    eps/(3(N-1)+1) (REVIEW-000-002 s3)."""
    assert module.levels(top, bound) == expected


def test_window_at_the_last_uint64_point_of_a_2_to_the_64_range() -> None:
    """On the 2^64 + 1 thresholds of a 64-bit grid a piece may end at 2^64 - 1 (the last uint64): the
    window [2^64 - 1, 2^64] then meets that piece (one point) and the last piece [2^64, 2^64], and a window
    ending at 2^64 - 1 stops inside that piece."""
    top = 2**64
    q = module.StepFunction(np.array([5, 2**64 - 1], dtype=np.uint64), np.array([1, 2, 3]), top)
    first, lengths, values = module._window(q, 2**64 - 1, top)
    assert (first, lengths.tolist(), values.tolist()) == (1, [1.0, 1.0], [2, 3])
    first, lengths, values = module._window(q, top, top)
    assert (first, lengths.tolist(), values.tolist()) == (2, [1.0], [3])
    first, lengths, values = module._window(q, 6, 2**64 - 1)  # ends with the piece ending at 2^64 - 1
    assert (first, lengths.tolist(), values.tolist()) == (1, [float(2**64 - 6)], [2])


@pytest.mark.parametrize(
    ("values", "lengths", "max_exponent", "expected"),
    [([5], [4], 2, [5, 5, 5]), ([3, 7], [4, 4], 3, [7, 7, 7, 3]), ([2, 9, 2], [1, 2, 1], 2, [9, 9, 2])],
)
def test_window_minimum_profile_on_exact_powers_of_two(
    values: list[int], lengths: list[int], max_exponent: int, expected: list[int]
) -> None:
    """A run starting at the first point and spanning exactly 2^j points reaches level j: the run lengths
    are prefix-sum differences from prefix[0] = 0."""
    assert module.window_minimum_profile(values, lengths, max_exponent) == expected


@pytest.mark.parametrize("shift", [62, 65])
def test_top_two_blocks_at_offset_2_to_the_64(shift: int) -> None:
    """On a 64-bit grid (T = 2^64) the second A_dist offset 4 * 2^k is 2^64 itself at k = 62: its only
    block is {2^64}, in the last piece; no uint64 can hold the offset, so the piece ends are not scanned."""
    q = module.StepFunction(np.array([5, 2**64 - 1], dtype=np.uint64), np.array([1, 2, 3]), 2**64)
    assert module.top_two_blocks(q, 2**64, shift) == (1, [(0, 3)])


@pytest.mark.parametrize(
    ("cuts", "top", "offset", "shift", "expected"),
    [
        ([5, 2**40], 2**41, 2**33, 33, (256, [(0, 5), (1, 5)])),
        ([5, 2**64 - 1], 2**64, 2**63, 62, (3, [(0, 5), (1, 5)])),
        ([5, 2**64 - 1], 2**64, 0, 63, (3, [(0, 5), (1, 5)])),
    ],
)
def test_top_two_blocks_scan_every_piece_at_large_offsets(
    cuts: list[int], top: int, offset: int, shift: int, expected: tuple[int, list[tuple[int, int]]]
) -> None:
    """Offsets above 2^32 or 2^63 (4 * 2^k on 40- and 64-bit grids) still scan the middle pieces, and
    blocks of 2^63 points split a 64-bit range in two: the best blocks here lie in the middle piece
    (value 5), not the last one (value 3)."""
    q = module.StepFunction(np.array(cuts, dtype=np.uint64), np.array([1, 5, 3]), top)
    assert module.top_two_blocks(q, offset, shift) == expected


def test_point_queries_at_the_top_of_a_2_to_the_64_range() -> None:
    """Q(2^64 - 1) lies in the piece ending there, Q(2^64) in the last piece (no uint64 holds 2^64)."""
    q = module.StepFunction(np.array([5, 2**64 - 1], dtype=np.uint64), np.array([1, 2, 3]), 2**64)
    assert q.values_at([5, 6, 2**64 - 1, 2**64]).tolist() == [1, 2, 2, 3]
