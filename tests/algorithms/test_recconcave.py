"""RecConcave on step functions (paper 000 Fig. 5; spec 000 s4.3; REVIEW-000-002 s3)."""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Callable

import numpy as np
import pytest

from dpgui.algorithms import recconcave as recconcave_module
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.recconcave import (
    MechanismAccountant,
    RecConcaveParameters,
    RecConcaveStep,
    StepFunction,
    ceil_log2,
    exponential_mechanism_step,
    level_quality,
    levels,
    per_mechanism_cost,
    recconcave,
    top_two_blocks,
    window_minimum_profile,
)
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from dpgui.privacy.stability import StableSelectionParameters, stable_select
from tests.exact import adaptive_composition_delta, hockey_stick
from tests.privacy.test_stability import observe, safe_law
from tests.recording import SteeredRandom, UnreachablePath, enumerated_law, paired_selection_laws

# -- dense references ------------------------------------------------------------------------------------


def dense_profile(q: np.ndarray, max_exponent: int) -> list[int]:
    return [
        max(int(q[a : a + 2**j].min()) for a in range(q.size - 2**j + 1)) for j in range(max_exponent + 1)
    ]


def dense_blocks(q: np.ndarray, offset: int, period: int) -> list[int]:
    return [int(q[a : a + period].max()) for a in range(offset, q.size, period)]


def test_window_profile_equals_the_dense_computation() -> None:
    gen = np.random.default_rng(0)
    for _ in range(200):
        q = gen.integers(-3, 6, int(gen.integers(1, 70)))
        exponent = int(q.size).bit_length() - 1
        runs = StepFunction.dense(q)
        starts, ends = runs.piece_bounds()
        fast = window_minimum_profile(
            q.tolist(), [e - s + 1 for s, e in zip(starts, ends, strict=True)], exponent
        )
        assert fast == dense_profile(q, exponent)


def test_top_two_blocks_equal_the_dense_block_maxima() -> None:
    gen = np.random.default_rng(1)
    for _ in range(300):
        q = np.repeat(gen.integers(-2, 5, 12), gen.integers(1, 9, 12))
        shift = int(gen.integers(0, 5))
        offset = int(gen.choice([0, 2**shift // 2]))
        change = np.flatnonzero(np.diff(q))
        merged = StepFunction(change.astype(np.uint64), q[np.r_[0, change + 1]], q.size - 1)
        count, best = top_two_blocks(merged, offset, shift)
        maxima = dense_blocks(q, offset, 2**shift)
        assert count == len(maxima)
        order = sorted(range(len(maxima)), key=lambda t: (-maxima[t], t))[:2]
        assert best == [(t, maxima[t]) for t in order]


def test_top_two_blocks_on_a_64_bit_range_with_huge_blocks() -> None:
    q = StepFunction(np.array([2**40, 2**63, 2**64 - 1], dtype=np.uint64), np.array([1, 5, 3, 7]), 2**64)
    assert top_two_blocks(q, 0, 62) == (5, [(4, 7), (0, 5)])  # blocks 0-2 all reach 5: the smallest wins
    assert top_two_blocks(q, 0, 64) == (2, [(1, 7), (0, 5)])
    assert top_two_blocks(q, 2**63, 66) == (1, [(0, 7)])


def test_level_quality_is_quasi_concave_for_any_quality() -> None:
    """Claim 3.13: for any Q, q(j) = min(L(j) - a, b - L(j+1)) has interval super-level sets."""
    gen = np.random.default_rng(2)
    for _ in range(300):
        q = gen.integers(-5, 30, int(gen.integers(2, 65)))
        exponent = ceil_log2(q.size - 1)
        padded = np.concatenate([q, np.full(2**exponent + 1 - q.size, min(0, q[-1]))])
        profile = dense_profile(padded, exponent)
        assert all(a >= b for a, b in itertools.pairwise(profile))
        levels_q = level_quality([*profile, min(0, profile[-1])], float(gen.integers(1, 40)), 0.25)
        for cut in set(levels_q):
            above = np.flatnonzero(np.array(levels_q) >= cut)
            assert above[-1] - above[0] + 1 == above.size


def test_levels_and_the_refined_split() -> None:
    assert [levels(t) for t in (1, 32, 33, 2**32, 2**32 + 1, 2**64)] == [1, 1, 2, 2, 3, 3]
    assert levels(2**64, recursion_bound=2) == 2
    cost = per_mechanism_cost(PrivacyCost(1.0, 1e-6), 2**64)
    assert cost.epsilon == pytest.approx(1 / 7) and cost.delta == pytest.approx(1e-6 / 4)
    assert per_mechanism_cost(PrivacyCost(1.0), 32) == PrivacyCost(1.0)


def test_accountant_refuses_more_mechanisms_than_declared() -> None:
    accountant = MechanismAccountant(levels=2)
    assert accountant.declared == 4
    for mechanism in ("a_dist", "a_dist", "exponential"):
        accountant.charge(1, mechanism)
    accountant.charge(2, "exponential")
    with pytest.raises(RuntimeError):
        accountant.charge(2, "exponential")
    with pytest.raises(RuntimeError):
        MechanismAccountant(levels=2).charge(3, "exponential")


def test_a_run_charges_exactly_the_declared_mechanisms() -> None:
    q = StepFunction(np.array([2**40, 2**41], dtype=np.uint64), np.array([0, 50, 0]), 2**50)
    accountant = MechanismAccountant(levels(q.top))
    params = RecConcaveParameters(50, 0.5, per_mechanism_cost(PrivacyCost(1.0, 1e-6), q.top))
    steps = list(recconcave(q, params, SeededRandom(0), accountant))
    assert accountant.total == accountant.declared == 7
    assert [len(level) for level in accountant.used] == [3, 3, 1]
    assert {s.partial.level for s in steps if isinstance(s.partial, RecConcaveStep)} == {1, 2, 3}


def test_small_ranges_are_the_exponential_mechanism() -> None:
    q = StepFunction.dense(np.array([0, 3, 1, 4, 4, 2]))
    params = RecConcaveParameters(4, 0.5, PrivacyCost(1.0))
    for seed in range(20):
        direct = exponential_mechanism_step(q, 1.0, SeededRandom(seed))
        assert run_to_end(recconcave(q, params, SeededRandom(seed))) == direct


def test_noise_off_output_meets_the_promise_on_quasi_concave_qualities() -> None:
    gen = np.random.default_rng(3)
    for _ in range(40):
        top = int(gen.integers(33, 2**62))
        cuts = np.sort(gen.choice(top, 6, replace=False)).astype(np.uint64)
        values = np.array([0, 100, 300, 1000, 400, 200, 10])  # unimodal: quasi-concave
        q = StepFunction(cuts, values, top)
        params = RecConcaveParameters(1000, 0.1, PrivacyCost(1e6, 1e-6))
        k = run_to_end(recconcave(q, params, SeededRandom(int(gen.integers(1 << 30)))))
        assert q.values_at([k])[0] >= 900


# -- the law the code samples: a two-level run (T in [33, 64]), enumerated ---------------------------------


@functools.cache
def observed_a_dist(params: StableSelectionParameters) -> tuple[float, int]:
    return observe(params)


class SteeredADist:
    """RecConcave's A_dist_safe calls as selections over the blocks and None, which :mod:`tests.recording`
    can steer: a block wins with the law A_dist_safe samples at the parameters RecConcave hands it (scale
    and threshold observed from the code, tests/privacy/test_stability.py) on the block maxima RecConcave
    hands it (the last :func:`top_two_blocks` call says which blocks those are)."""

    def __init__(self) -> None:
        self.blocks: tuple[int, list[int]] = (0, [])

    def top_two_blocks(self, q: StepFunction, offset: int, shift: int) -> tuple[int, list[tuple[int, int]]]:
        count, best = top_two_blocks(q, offset, shift)
        self.blocks = (count, [block for block, _ in best])
        return count, best

    def stable_select(self, scores: np.ndarray, params: StableSelectionParameters, rng) -> int | None:
        if scores.size < 2:
            return stable_select(scores, params, rng)
        count, blocks = self.blocks
        law = safe_law(tuple(int(s) for s in scores), *observed_a_dist(params))
        weights = np.zeros(count + 1)
        weights[count] = law[None]
        for index, block in enumerate(blocks):
            weights[block] = law.get(index, 0.0)
        with np.errstate(divide="ignore"):
            taken = rng.choose_index(np.log(weights))
        if taken == count:
            return None
        if taken not in blocks:
            raise UnreachablePath  # a replayed block this input's A_dist cannot release
        return blocks.index(taken)


@pytest.fixture
def steered(monkeypatch: pytest.MonkeyPatch) -> None:
    steering = SteeredADist()
    monkeypatch.setattr(recconcave_module, "top_two_blocks", steering.top_two_blocks)
    monkeypatch.setattr(recconcave_module, "stable_select", steering.stable_select)


def runner(q: np.ndarray, promise: float, cost: PrivacyCost) -> Callable[[SteeredRandom], int]:
    params = RecConcaveParameters(promise, 0.5, cost)
    step = StepFunction.dense(q)
    return lambda rng: run_to_end(recconcave(step, params, rng))


def sampled_law(q: np.ndarray, promise: float, cost: PrivacyCost) -> dict[object, float]:
    """The exact output law of :func:`recconcave` on the dense quality ``q``, enumerated by steering every
    selection the code makes: its exponential mechanisms (the log-weights it hands to Gumbel-max), its
    uniform draws and its A_dist_safe calls (``steered``)."""
    return enumerated_law(runner(q, promise, cost))


def two_level_pair(gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A threshold-like quality on [0, T], T in [33, 64], and a neighbour differing by <= 1 everywhere."""
    top = int(gen.integers(33, 65))
    peak = int(gen.integers(0, top + 1))
    q = 40 - np.abs(np.arange(top + 1) - peak) * int(gen.integers(1, 4))
    return q, q + gen.integers(-1, 2, q.size)


def control_pair() -> tuple[np.ndarray, np.ndarray]:
    """A neighbour pair found by a hill-climbing search over the exact law (T = 33)."""
    q = np.array([29, 25, 16, 24, 1, 11, 19, 10, 2, 14, 3, 13, 12, 20, 19, 20, 24])
    q = np.concatenate([q, [13, 25, 1, 11, 10, 29, 1, 4, 15, 20, 1, 6, 0, 21, 11, 14, 20]])
    neighbour = q - 1
    neighbour[13] += 1
    neighbour[22] += 2
    return q, neighbour


def gap_pair() -> tuple[np.ndarray, np.ndarray]:
    """Two blocks whose gap sits near A_dist's threshold and moves by 2 (T = 33), the rest -1 but the
    weakest point +1 (the exponential mechanisms' worst case)."""
    q = np.zeros(34, dtype=np.int64)
    q[:16], q[16:] = 40, 12
    neighbour = q - 1
    neighbour[16:] += 2
    return q, neighbour


@pytest.mark.usefixtures("steered")
def test_sampled_two_level_law_is_private_under_the_refined_split() -> None:
    total = PrivacyCost(2.0, 1e-3)
    gen = np.random.default_rng(4)
    for _ in range(2):
        q, neighbour = two_level_pair(gen)
        per = per_mechanism_cost(total, q.size - 1)
        p, p2 = sampled_law(q, 40, per), sampled_law(neighbour, 40, per)
        assert math.fsum(p.values()) == pytest.approx(1.0)
        assert hockey_stick(p, p2, total.epsilon) <= total.delta


@pytest.mark.usefixtures("steered")
def test_sampled_law_is_private_on_the_searched_pair_and_a_forgotten_split_is_not() -> None:
    """On a pair found by a hill-climbing search the refined split holds; every mechanism at the full eps
    (no 3(L-1)+1 split) exceeds (eps, delta) on the same pair."""
    total = PrivacyCost(2.0, 1e-3)
    q, neighbour = control_pair()
    refined = per_mechanism_cost(total, q.size - 1)
    assert hockey_stick(sampled_law(q, 29, refined), sampled_law(neighbour, 29, refined), 2.0) <= 1e-3
    assert hockey_stick(sampled_law(q, 29, total), sampled_law(neighbour, 29, total), 2.0) > 100 * 1e-3


@pytest.mark.usefixtures("steered")
@pytest.mark.parametrize("pair", [control_pair, gap_pair])
def test_every_selection_fits_an_equal_share_of_the_asked_budget(pair) -> None:
    """REVIEW-000-002 s3 books each of the 3(L - 1) + 1 mechanisms at an equal share: after the same
    earlier outcomes, the laws each selection samples on neighbours (EM log-weights, A_dist's observed law)
    must compose, at eps / (number of selections) each, within the asked delta. Tighter than the end-to-end
    law, which tiny instances keep far inside (eps, delta)."""
    total = PrivacyCost(2.0, 1e-3)
    q, neighbour = pair()
    per = per_mechanism_cost(total, q.size - 1)
    paths = list(paired_selection_laws(runner(q, 40, per), runner(neighbour, 40, per)))
    count = max(len(path) for path in paths)
    assert count == 4  # the level-2 EM, two A_dist, the final EM
    assert adaptive_composition_delta(paths, total.epsilon / count) <= total.delta
