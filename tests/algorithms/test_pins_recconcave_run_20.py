"""Pins one level of RecConcave's run and its mechanism accountant (mutation scan 20).

RecConcave (paper 000 Fig. 5; spec 000 s4.3; REVIEW-000-002 s3, s5) at a level with range [0, T], T > 32:
pad to 2^ceil(log2 T) with min(0, Q(T)) (step 2), the window profile L(j) (step 3) with L(J + 1) =
min(0, L(J)), the level quality (step 4), recurse on it, then A_dist_safe over the best two blocks of
8 * 2^k points at offsets 0 and 4 * 2^k (steps 6-7), and the exponential mechanism over the union of the
chosen windows (step 8). Privacy counts exactly 3 mechanisms per level and 1 at the base, each at the
per-mechanism (eps, delta); the accountant refuses anything else (spec 000 s10 item 3).

These pins steer the mechanisms (recording their inputs) and compare every input with the figure's steps
computed by brute force. Survivors this pins (non-keyword lines of recconcave.py): slips in the padding,
the profile's extra level, the deeper call, the block offsets and size, the window arithmetic and merge,
and the accountant's limits.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import recconcave as module
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.stability import StableSelectionParameters


def profile_brute(values: list[int], max_exponent: int) -> list[int]:
    return [
        max(min(values[i : i + 2**j]) for i in range(len(values) - 2**j + 1)) for j in range(max_exponent + 1)
    ]


def block_maxima(values: list[int], offset: int, size: int) -> list[tuple[int, int]]:
    """Best two (block, max) of blocks [offset + b size, offset + (b + 1) size - 1], ties to smaller b."""
    maxima = [max(values[s : s + size]) for s in range(offset, len(values), size)]
    order = sorted(range(len(maxima)), key=lambda b: (-maxima[b], b))[:2]
    return [(b, maxima[b]) for b in order]


def run_level(
    monkeypatch: pytest.MonkeyPatch, dense: list[int], k: int, picks: tuple[int | None, int | None]
) -> tuple[dict, int]:
    log: dict = {"em": [], "stable": []}
    chosen_k = iter([k, 11])

    def em(q, eps, rng, windows=None):
        log["em"].append((q.to_dense().tolist(), eps, windows))
        return next(chosen_k)

    stable_picks = iter(picks)

    def stable(scores, params, rng):
        log["stable"].append((np.asarray(scores).tolist(), params))
        return next(stable_picks)

    monkeypatch.setattr(module, "exponential_mechanism_step", em)
    monkeypatch.setattr(module, "stable_select", stable)
    params = module.RecConcaveParameters(40.0, 0.5, PrivacyCost(0.3, 1e-7))
    accountant = module.MechanismAccountant(2)
    out = run_to_end(module.recconcave(module.StepFunction.dense(np.array(dense)), params, None, accountant))  # type: ignore[arg-type]
    log["accountant"] = accountant
    return log, out


def quality(top: int) -> list[int]:
    """A quasi-concave integer quality on [0, top] ending above 0 (so the padding value min(0, Q(T)) = 0
    differs from Q(T))."""
    return [int(40 - abs(x - 61) // 2) for x in range(top + 1)]


@pytest.mark.parametrize(
    ("top", "k", "picks"),
    [
        (100, 2, (0, 1)),
        (100, 1, (1, None)),
        (70, 0, (1, 0)),
        (100, 3, (None, None)),
        (100, 4, (0, 0)),
        (100, 5, (0, 0)),
        (100, 6, (0,)),
    ],
)
def test_one_level_feeds_each_mechanism_the_figures_inputs(
    monkeypatch: pytest.MonkeyPatch, top: int, k: int, picks: tuple[int | None, int | None]
) -> None:
    """Steps 2-8 of Fig. 5 at one level over [0, T], T = 100 or 70 (padded to 128). At k = 4 each offset
    has a single block (A_dist_safe still runs on it); at k = 5 the second offset's only block is the pad
    point 128 (no window past T); at k = 6 the second offset 256 lies past the padded range."""
    check_level(monkeypatch, quality(top), k, picks)


@pytest.mark.parametrize("k", [0, 2])
def test_padding_repeats_min_0_q_t(monkeypatch: pytest.MonkeyPatch, k: int) -> None:
    """Step 2 pads [T + 1, 2^ceil(log2 T)] with min(0, Q(T)) (sensitivity 1). With a rising negative Q
    (Q(0) = -30, Q(T - 1) = -6, Q(T) = -5) the pad is -5, and the short windows inside the pad make
    L(j) = -5 for 2^j <= 27: padding with Q(0) or Q(T - 1) would change the deeper quality."""
    check_level(monkeypatch, [-30 + x // 4 for x in range(101)], k, (0, 0))


def test_the_level_past_the_last_is_min_0_l_j(monkeypatch: pytest.MonkeyPatch) -> None:
    """Step 3 extends the profile by L(J + 1) = min(0, L(J)) so that q(J) = min(L(J) - ceil((1 - alpha) r),
    floor(r) - L(J + 1)) is defined (Claim 3.13's quasi-concavity needs a non-increasing L). It matters when
    T = 2^J (no padding) and even the whole range scores high: here L(6) = 65 over [0, 64], so
    q(6) = min(45, 40 - 0) = 40."""
    check_level(monkeypatch, [65 + x % 11 for x in range(65)], 1, (0, 1))


def test_a_block_starting_at_t_gives_the_one_point_window(monkeypatch: pytest.MonkeyPatch) -> None:
    """Step 7: a chosen block that starts at T itself still gives the window [T, T] (only blocks starting
    past T give none). On [0, 96] rising to Q(96), k = 2: the best block of 32 at offset 0 is [96, 127]."""
    check_level(monkeypatch, [x // 2 for x in range(97)], 2, (0, None))


def check_level(
    monkeypatch: pytest.MonkeyPatch, dense: list[int], k: int, picks: tuple[int | None, int | None]
) -> None:
    top = len(dense) - 1
    log, out = run_level(monkeypatch, dense, k, picks)
    exponent = math.ceil(math.log2(top))
    padded = dense + [min(0, dense[-1])] * (2**exponent - top)
    profile = profile_brute(padded, exponent)
    profile.append(min(0, profile[-1]))
    low, high = math.ceil((1 - 0.5) * 40.0), math.floor(40.0)
    level_q = [min(profile[j] - low, high - profile[j + 1]) for j in range(len(profile) - 1)]
    (deep_q, deep_eps, deep_windows), (final_q, final_eps, final_windows) = log["em"]
    assert (deep_q, deep_eps, deep_windows) == (level_q, 0.3, None)
    width = 2**k
    windows = []
    expected_stable = []
    offsets = [o for o in (0, 4 * width) if o <= 2**exponent]  # no block of the padded range: no A_dist
    for offset, pick in zip(offsets, picks, strict=False):
        best = block_maxima(padded, offset, 8 * width)
        expected_stable.append(([v for _, v in best], StableSelectionParameters(0.3, 1e-7)))
        if pick is not None:
            lo = offset + best[pick][0] * 8 * width
            if lo <= top:
                windows.append((lo, min(top, lo + 8 * width - 1)))
    assert log["stable"] == expected_stable
    windows.sort()
    if len(windows) == 2 and windows[1][0] <= windows[0][1] + 1:
        windows = [(windows[0][0], max(windows[0][1], windows[1][1]))]
    assert final_q == dense and final_eps == 0.3
    assert final_windows == (tuple(windows) or None)
    assert out == 11
    assert log["accountant"].used == [["a_dist", "a_dist", "exponential"], ["exponential"]]
    assert len(log["stable"]) == len(offsets)


def test_overlapping_windows_merge_and_disjoint_ones_stay_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Step 8: the EM ranges over the union of the chosen windows; windows that touch or overlap are one
    range (so no point is counted twice), disjoint windows stay two."""
    dense = quality(100)
    log, _ = run_level(monkeypatch, dense, 0, (0, 0))
    (_, _, windows) = log["em"][1]
    best0 = block_maxima(dense + [0] * 28, 0, 8)[0][0]
    best1 = block_maxima(dense + [0] * 28, 4, 8)[0][0]
    a, b = (best0 * 8, best0 * 8 + 7), (4 + best1 * 8, 4 + best1 * 8 + 7)
    first, second = sorted([a, b])
    if second[0] <= first[1] + 1:
        assert windows == ((first[0], max(first[1], second[1])),)
    else:
        assert windows == (first, second)
    assert windows[0][0] >= 48 and windows[-1][1] <= 75  # around the peak at 61


def test_accountant_allows_three_mechanisms_per_level_and_one_at_the_base() -> None:
    """spec 000 s10 item 3: 3 per level above the base, 1 at the base, at most 3(N - 1) + 1 in all, and no
    level beyond N."""
    accountant = module.MechanismAccountant(3)
    assert accountant.declared == 7
    for level in (1, 1, 1, 2, 2, 2):
        accountant.charge(level, "m")
    accountant.charge(3, "exponential")
    assert accountant.total == 7
    with pytest.raises(RuntimeError):
        accountant.charge(3, "exponential")
    with pytest.raises(RuntimeError):
        accountant.charge(1, "m")
    with pytest.raises(RuntimeError):
        accountant.charge(4, "m")
    single = module.MechanismAccountant(1)
    assert single.declared == 1
    single.charge(1, "exponential")
    with pytest.raises(RuntimeError):
        single.charge(1, "exponential")
    skipping = module.MechanismAccountant(3)
    skipping.charge(2, "m")
    assert skipping.used == [[], ["m"]]


def test_accountant_refuses_a_second_base_mechanism_within_the_total() -> None:
    """The base level runs one exponential mechanism: a second one is refused even while the total is
    still below 3(N - 1) + 1 (spec 000 s10 item 3), so a per-level slip cannot hide behind the total."""
    accountant = module.MechanismAccountant(2)
    accountant.charge(2, "exponential")
    with pytest.raises(RuntimeError):
        accountant.charge(2, "exponential")
    upper = module.MechanismAccountant(3)
    for _ in range(3):
        upper.charge(1, "m")
    with pytest.raises(RuntimeError):
        upper.charge(1, "m")
