"""Pins TreeLog's prefix-tree helpers against brute force on small domains (mutation scan 20).

TreeLog never builds the binary tree over L-bit values (paper 002 Alg. 1; spec 002 s4): node weights are
binary searches, fall-off levels are a XOR and a bit length, a step's log-weights are its logits.
Each must equal its definition exactly: the path argument (Obs. 3.1-3.4) and the HeavyBin/EM steps are
proved for the true node weights, the true fall-off database D and the score q(S, y) = min(#{x <= y},
#{x >= y}) of sensitivity 1.

Survivors this pins (non-keyword lines of treelog.py): slips in ``bit_length_u64``'s shift ladder,
``fall_off_levels``, ``node_range``/``node_weight``, ``step_log_weights``' forced steps and logits,
``sample_path``'s walk, ``next_database``'s counting sort, ``leaf_candidates`` and ``interior_scores``,
and ``lift``'s labels and candidates.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import treelog as module
from dpgui.privacy.heavy_bin import HeavyBinParameters
from tests.recording import ScriptedRandom


def sorted_points(seed: int, bits: int, size: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    words = np.frombuffer(rng.bytes(8 * size), dtype=np.uint64)
    return np.sort(words >> np.uint64(64 - bits))


def test_bit_length_u64_is_pythons_bit_length() -> None:
    """bit_length of every uint64 by the shift-and-compare ladder (spec 002 s4), at every power-of-two
    edge of the 64-bit range."""
    values = [0, 1, 2, 3]
    for k in range(2, 64):
        values += [2**k - 1, 2**k, 2**k + 1]
    values += [2**64 - 1, 2**63 + 12345]
    got = module.bit_length_u64(np.array(values, dtype=np.uint64))
    assert got.tolist() == [v.bit_length() for v in values]


def common_prefix(x: int, bits: int, length: int, path: int) -> int:
    """The largest l <= length with x's top l bits equal to path's top l bits (path has ``length`` bits)."""
    level = 0
    while level < length and (x >> (bits - level - 1)) & 1 == (path >> (length - level - 1)) & 1:
        level += 1
    return level


@pytest.mark.parametrize(("bits", "seed"), [(1, 0), (3, 1), (5, 2), (8, 3), (64, 4)])
def test_fall_off_levels_are_common_prefix_lengths(bits: int, seed: int) -> None:
    """l(x) = the level at which x leaves the path (ℓ_last, P) (Alg. 1 step 5): x's common prefix length
    with P, for every path length 0..L (1 included: one step, then a fall-off at 0 or 1)."""
    points = sorted_points(seed, bits, 40)
    for length in sorted({0, 1, 2, bits // 2, bits - 1, bits} - {-1}):
        if not 0 <= length <= bits:
            continue
        path = int(points[7]) >> (bits - length) if length else 0  # a path some point follows all the way
        got = module.fall_off_levels(points, bits, length, path)
        assert got.tolist() == [common_prefix(int(x), bits, length, path) for x in points], length


@pytest.mark.parametrize("bits", [1, 3, 6])
def test_node_range_and_weight(bits: int) -> None:
    """Node (l, p) holds the values whose top l bits are p; its weight is their count in S (spec 002 s4)."""
    points = sorted_points(bits, bits, 30)
    for level in range(bits + 1):
        for prefix in range(2**level):
            members = [v for v in range(2**bits) if v >> (bits - level) == prefix]
            assert module.node_range(bits, level, prefix) == (members[0], members[-1])
            expected = sum(1 for x in points.tolist() if x >> (bits - level) == prefix)
            assert module.node_weight(points, bits, level, prefix) == expected


@pytest.mark.parametrize(
    ("w_left", "w_right", "eps0"),
    [(3, 5, 0.4), (5, 3, 0.4), (7, 7, 1.0), (0, 4, 0.2), (4, 0, 0.2), (1, 1000, 2.0)],
)
def test_step_log_weights(w_left: int, w_right: int, eps0: float) -> None:
    """P(right) = e^{eps0 w1}/(e^{eps0 w0} + e^{eps0 w1}) as the logits (0, eps0 (w1 - w0)); an empty child
    is never stepped into (Alg. 1 step 4; spec 002 s9 item 2)."""
    got = module.step_log_weights(w_left, w_right, eps0)
    if w_right == 0:
        assert got.tolist() == [0.0, -math.inf]
    elif w_left == 0:
        assert got.tolist() == [-math.inf, 0.0]
    else:
        assert got[0] == 0.0 and got[1] == pytest.approx(eps0 * (w_right - w_left), rel=1e-15)


def test_step_log_weights_stay_finite_for_far_apart_children() -> None:
    """Logits, not probabilities: a million-record gap is a finite log-weight for the exact sampler (the
    probability it stood for was 0 in floating point)."""
    assert module.step_log_weights(10**6, 1, 1.0).tolist() == [0.0, 1.0 - 10**6]


class FixedUniform(ScriptedRandom):
    """Each step goes right iff u < P(right) under the log-weights it is drawn with."""

    is_private = False
    description = "fixed"

    def __init__(self, u: float) -> None:
        self.u = u
        self.draws = 0

    def choose_index(self, log_weights: np.ndarray) -> int:
        self.draws += 1
        assert log_weights.size == 2
        right = float(np.exp(log_weights[1] - np.logaddexp(log_weights[0], log_weights[1])))
        return int(self.u < right)


def walk(points: list[int], bits: int, t: int, eps0: float, u: float) -> tuple[int, int, int]:
    """Alg. 1 step 4 from the definition: (level, prefix, number of steps)."""
    level, prefix, steps = 0, 0, 0
    weight = len(points)
    while level < bits and weight > t:
        left = sum(1 for x in points if x >> (bits - level - 1) == 2 * prefix)
        right = weight - left
        p = 0.0 if right == 0 else 1.0 if left == 0 else 1 / (1 + math.exp(eps0 * (left - right)))
        step = int(u < p)
        prefix, level, weight, steps = 2 * prefix + step, level + 1, right if step else left, steps + 1
    return level, prefix, steps


@pytest.mark.parametrize(("bits", "t"), [(4, 0), (4, 3), (6, 5), (6, 40), (8, 2)])
@pytest.mark.parametrize("u", [0.01, 0.5, 0.99])
def test_sample_path_walks_to_weight_at_most_t_or_a_leaf(bits: int, t: int, u: float) -> None:
    """The random heavy path stops at the first node of weight <= t or at a leaf, one uniform per step."""
    points = sorted_points(bits + t, bits, 30)
    rng = FixedUniform(u)
    level, prefix, steps = walk(points.tolist(), bits, t, 0.3, u)
    assert module.sample_path(points, bits, t, 0.3, rng) == (level, prefix)
    assert rng.draws == steps


@pytest.mark.parametrize(
    ("bits", "length", "size"), [(4, 2, 30), (4, 2, 10), (6, 1, 25), (6, 6, 40), (5, 0, 5)]
)
def test_next_database_is_the_smallest_fall_off_levels(bits: int, length: int, size: int) -> None:
    """D = the ``size`` smallest fall-off levels with multiplicities, sorted (Alg. 1 step 5)."""
    points = sorted_points(bits * 7 + length, bits, 40)
    path = int(points[20]) >> (bits - length) if length else 0
    levels = sorted(common_prefix(int(x), bits, length, path) for x in points)
    got = module.next_database(points, bits, length, path, size)
    assert got.dtype == np.uint64
    assert got.tolist() == levels[:size]


@pytest.mark.parametrize("bits", [1, 2, 4])
def test_leaf_candidates_are_the_nodes_four_leaves(bits: int) -> None:
    """{left, inner-left, inner-right, right} leaves of node (l, p): the ends of its two children's ranges;
    the leaf itself at l = L (Alg. 1 step 9; spec 002 s4)."""
    for level in range(bits + 1):
        for prefix in range(2**level):
            members = [v for v in range(2**bits) if v >> (bits - level) == prefix]
            if level == bits:
                expected = [prefix]
            else:
                half = len(members) // 2
                expected = sorted({members[0], members[half - 1], members[half], members[-1]})
            assert module.leaf_candidates(bits, level, prefix) == expected


def test_interior_scores_are_min_of_the_two_counts() -> None:
    """q(S, y) = min(#{x <= y}, #{x >= y}) (sensitivity 1; Alg. 1 step 9)."""
    points = np.array([1, 1, 3, 5, 5, 5, 9], dtype=np.uint64)
    candidates = [0, 1, 2, 3, 5, 8, 9, 15]
    expected = [
        min(sum(1 for x in points.tolist() if x <= y), sum(1 for x in points.tolist() if x >= y))
        for y in candidates
    ]
    assert module.interior_scores(points, candidates).tolist() == expected


def test_lift_picks_a_node_of_the_returned_level_then_scores_its_leaves(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Alg. 1 steps 7-9: HeavyBin over the counts of the non-empty nodes of level l* in the trimmed data,
    then the exponential mechanism over that node's leaves scored on the whole level's S."""
    bits, level = 4, 2
    points = np.array([0, 1, 4, 5, 5, 6, 9, 12, 13, 15], dtype=np.uint64)
    trimmed = points[1:-1]
    seen: dict[str, object] = {}

    def fake_heavy_bin(counts: np.ndarray, heavy: HeavyBinParameters, rng: object) -> int:
        seen["counts"] = np.asarray(counts).tolist()
        return 1  # the second non-empty node: prefix 1 (values 4..7)

    def fake_em(scores: np.ndarray, epsilon: float, rng: object) -> int:
        seen["scores"] = np.asarray(scores).tolist()
        seen["eps"] = epsilon
        return 2

    monkeypatch.setattr(module, "heavy_bin", fake_heavy_bin)
    monkeypatch.setattr(module, "exponential_mechanism", fake_em)
    out = module.lift(points, trimmed, bits, level, HeavyBinParameters(0.5, 1e-6), 0.25, None)  # type: ignore[arg-type]
    labels = sorted({int(x) >> (bits - level) for x in trimmed.tolist()})
    assert seen["counts"] == [sum(1 for x in trimmed.tolist() if x >> (bits - level) == p) for p in labels]
    candidates = [4, 5, 6, 7]
    assert seen["scores"] == module.interior_scores(points, candidates).tolist()
    assert seen["eps"] == 0.25
    assert out == candidates[2]
