"""Pins the base-case promise of Lemma 3.14 on the smallest ranges, the level quality and the step
function's piece lengths (mutation scan 19).

Survivors this pins: the guard max(T, 2) of the base case's (2/(alpha eps)) log2(T/beta) written max(T, 1),
max(T, 3) or max(T, 4) (scan 18's pin checks T = 20 and larger only); the level quality with the ceil of
(1 - alpha) r dropped; a single piece's length top + 1 written top - 1.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import recconcave as module
from dpgui.privacy.cost import PrivacyCost


@pytest.mark.parametrize("top", [1, 2, 3, 4, 32])
def test_base_case_promise_on_small_ranges(top: int) -> None:
    """Spec 000 s4.3: the base case (T <= 32, one exponential mechanism over [0, T]) needs
    r >= (2/(alpha eps)) log2(T/beta); for T = 1 the range still holds two candidates, so log2(2/beta)."""
    alpha, beta, cost = 0.1, 0.05, PrivacyCost(0.2)
    assert module.levels(top) == 1
    expected = 2 / (alpha * 0.2) * math.log2(max(top, 2) / beta)
    assert module.lemma_3_14_promise(top, alpha, beta, cost) == pytest.approx(expected, rel=1e-12)
    if top == 1:
        assert expected == pytest.approx(100 * math.log2(40), rel=1e-12)


@pytest.mark.parametrize(
    ("profile", "promise", "alpha"),
    [([10, 7, 3, 0], 10.5, 0.25), ([40, 40, 31, 12, 5], 41.7, 0.1), ([6, 2], 6.0, 0.5)],
)
def test_level_quality_rounds_the_promise_band_to_integers(
    profile: list[int], promise: float, alpha: float
) -> None:
    """Spec 000 s4.3 (paper 000 Fig. 5 step 4, Claim 3.13): q(j) = min(L(j) - ceil((1 - alpha) r),
    floor(r) - L(j + 1)), an integer score of sensitivity 1 even for a non-integer promise r."""
    low, high = math.ceil((1 - alpha) * promise), math.floor(promise)
    expected = [min(profile[j] - low, high - profile[j + 1]) for j in range(len(profile) - 1)]
    quality = module.level_quality(profile, promise, alpha)
    assert quality == expected
    assert all(isinstance(q, int) for q in quality)


@pytest.mark.parametrize(("cuts", "top"), [([], 0), ([], 9), ([], 2**64 + 5), ([3], 9), ([0, 4, 7], 8)])
def test_step_function_pieces_tile_0_to_top(cuts: list[int], top: int) -> None:
    """Spec 000 s4.3 (step-function RecConcave, [ours]): the pieces of Q tile [0, T], so their lengths sum
    to T + 1 (a single piece is all of it); the exponential mechanism weighs each piece by its length."""
    q = module.StepFunction(np.array(cuts, dtype=np.uint64), np.arange(len(cuts) + 1), top)
    lengths = q.lengths()
    assert sum(lengths) == top + 1
    starts, ends = q.piece_bounds()
    assert lengths == [e - s + 1 for s, e in zip(starts, ends, strict=True)]
