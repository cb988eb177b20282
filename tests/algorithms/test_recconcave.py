"""RecConcave on step functions (paper 000 Fig. 5; spec 000 s4.3; REVIEW-000-002 s3)."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

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
from dpgui.privacy.random import SeededRandom, discrete_laplace_tail
from dpgui.privacy.stability import StableSelectionParameters
from tests.exact import hockey_stick

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
        assert q.value_at(k) >= 900


# -- exact law of a two-level run (T in [33, 64]) ---------------------------------------------------------


def softmax(logw: np.ndarray) -> np.ndarray:
    w = np.exp(logw - logw.max())
    return w / w.sum()


def a_dist_law(maxima: list[int], stable: StableSelectionParameters) -> dict[int | None, float]:
    if len(maxima) == 1:
        return {0: 1.0}
    order = sorted(range(len(maxima)), key=lambda t: (-maxima[t], t))
    gap = maxima[order[0]] - maxima[order[1]]
    need = stable.threshold - gap  # P[gap + Z >= tau] = P[Z >= need]
    p = (
        discrete_laplace_tail(need, stable.noise_scale)
        if need >= 0
        else 1 - discrete_laplace_tail(1 - need, stable.noise_scale)
    )
    return {order[0]: p, None: 1 - p}


def exact_law(q: np.ndarray, promise: float, alpha: float, cost: PrivacyCost) -> np.ndarray:
    """The output law of a two-level RecConcave, enumerated from dense references."""
    top = q.size - 1
    exponent = ceil_log2(top)
    padded = np.concatenate([q, np.full(2**exponent - top, min(0, q[-1]))])
    profile = dense_profile(padded, exponent)
    qual = level_quality([*profile, min(0, profile[-1])], promise, alpha)
    stable = StableSelectionParameters(cost.epsilon, cost.delta)
    law = np.zeros(q.size)
    for k, pk in enumerate(softmax(cost.epsilon * np.array(qual, float) / 2)):
        width = 2**k
        outcomes = []
        for offset in (0, 4 * width):
            maxima = dense_blocks(padded, offset, 8 * width)
            outcomes.append({None: 1.0} if not maxima else a_dist_law(maxima, stable))
        for a, pa in outcomes[0].items():
            for b, pb in outcomes[1].items():
                mask = np.zeros(q.size, bool)
                for block, offset in ((a, 0), (b, 4 * width)):
                    if block is not None:
                        mask[offset + block * 8 * width : offset + (block + 1) * 8 * width] = True
                if not mask.any():
                    mask[:] = True
                em = np.where(mask, cost.epsilon * q / 2, -np.inf)
                law += pk * pa * pb * softmax(em)
    return law


def as_law(p: np.ndarray) -> dict[int, float]:
    return {i: float(v) for i, v in enumerate(p)}


def two_level_pair(gen: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """A threshold-like quality on [0, T], T in [33, 64], and a neighbour differing by <= 1 everywhere."""
    top = int(gen.integers(33, 65))
    peak = int(gen.integers(0, top + 1))
    q = 40 - np.abs(np.arange(top + 1) - peak) * int(gen.integers(1, 4))
    return q, q + gen.integers(-1, 2, q.size)


def test_exact_two_level_law_is_private_under_the_refined_split() -> None:
    total = PrivacyCost(2.0, 1e-3)
    gen = np.random.default_rng(4)
    worst = 0.0
    for _ in range(60):
        q, neighbour = two_level_pair(gen)
        per = per_mechanism_cost(total, q.size - 1)
        p, p2 = exact_law(q, 40, 0.5, per), exact_law(neighbour, 40, 0.5, per)
        worst = max(worst, hockey_stick(as_law(p), as_law(p2), total.epsilon))
    assert worst <= total.delta


def control_pair() -> tuple[np.ndarray, np.ndarray]:
    """A neighbour pair found by a hill-climbing search over the exact law (T = 33)."""
    q = np.array([29, 25, 16, 24, 1, 11, 19, 10, 2, 14, 3, 13, 12, 20, 19, 20, 24])
    q = np.concatenate([q, [13, 25, 1, 11, 10, 29, 1, 4, 15, 20, 1, 6, 0, 21, 11, 14, 20]])
    neighbour = q - 1
    neighbour[13] += 1
    neighbour[22] += 2
    return q, neighbour


def test_control_forgotten_budget_split_is_detected_by_the_exact_law() -> None:
    """Every mechanism at the full eps (no 3(L-1)+1 split) exceeds (eps, delta); the refined split passes
    on the same pair."""
    total = PrivacyCost(2.0, 1e-3)
    q, neighbour = control_pair()
    refined = per_mechanism_cost(total, q.size - 1)
    assert (
        hockey_stick(
            as_law(exact_law(q, 29, 0.5, refined)), as_law(exact_law(neighbour, 29, 0.5, refined)), 2.0
        )
        <= 1e-3
    )
    forgotten = hockey_stick(
        as_law(exact_law(q, 29, 0.5, total)), as_law(exact_law(neighbour, 29, 0.5, total)), 2.0
    )
    assert forgotten > 100 * total.delta


def test_monte_carlo_audit_of_the_implementation_against_its_exact_law() -> None:
    """Frequencies of the real implementation on neighbours: P(o) <= e^eps P'(o) + delta + CI, and each
    frequency within binomial error of the exact law (so the exact checks above cover the code)."""
    total = PrivacyCost(2.0, 1e-3)
    gen = np.random.default_rng(5)
    q, neighbour = two_level_pair(gen)
    per = per_mechanism_cost(total, q.size - 1)
    runs = 1500
    freqs = []
    for seed, quality in enumerate((q, neighbour)):
        params = RecConcaveParameters(40, 0.5, per)
        rng = SeededRandom(100 + seed)
        step = StepFunction.dense(quality)
        outs = np.bincount([run_to_end(recconcave(step, params, rng)) for _ in range(runs)], minlength=q.size)
        exact = exact_law(quality, 40, 0.5, per)
        sigma = np.sqrt(exact * (1 - exact) / runs)
        assert np.all(np.abs(outs / runs - exact) <= 5 * sigma + 2 / runs)
        freqs.append(outs / runs)
    slack = 5 * np.sqrt(0.25 / runs)
    for a, b in ((0, 1), (1, 0)):
        heavy = freqs[a] > 0.02
        assert np.all(freqs[a][heavy] <= math.exp(total.epsilon) * freqs[b][heavy] + total.delta + slack)


def monte_carlo_violation(
    q: np.ndarray, neighbour: np.ndarray, per: PrivacyCost, total: PrivacyCost
) -> float:
    """max over outputs with >= 2% mass of P(o) - e^eps P'(o) - delta - 5 sigma, from 800 runs each (the
    control pair's violation is 0.25, the slack 0.09)."""
    runs = 800
    freqs = []
    for seed, quality in enumerate((q, neighbour)):
        rng = SeededRandom(200 + seed)
        params = RecConcaveParameters(float(q.max()), 0.5, per)
        step = StepFunction.dense(quality)
        freqs.append(
            np.bincount([run_to_end(recconcave(step, params, rng)) for _ in range(runs)], minlength=q.size)
            / runs
        )
    slack = 5 * np.sqrt(0.25 / runs)
    worst = -math.inf
    for a, b in ((0, 1), (1, 0)):
        heavy = freqs[a] > 0.02
        excess = freqs[a][heavy] - math.exp(total.epsilon) * freqs[b][heavy] - total.delta - slack
        worst = max(worst, float(excess.max(initial=-math.inf)))
    return worst


def test_monte_carlo_audit_detects_a_forgotten_budget_split() -> None:
    total = PrivacyCost(2.0, 1e-3)
    q, neighbour = control_pair()
    assert monte_carlo_violation(q, neighbour, per_mechanism_cost(total, q.size - 1), total) <= 0
    assert monte_carlo_violation(q, neighbour, total, total) > 0
