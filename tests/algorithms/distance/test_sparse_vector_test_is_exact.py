"""Huang-Roth's sparse-vector test moves by at most 1 exactly between neighbours, and is compared exactly.

An audit (session 33) drove the offline release on tiny neighbouring datasets with the same "above"
answers and the same tangents on both sides: the test quantity |G_hat(v) - G(v)| / Delta, computed in
floating point, moved by 1 + 2^-52 in units of its sensitivity, and the sparse vector added integer noise to
it in floating point. AboveThreshold's proof needs a change of at most 1 exactly. The quantity is now an
exact fraction (``huang_roth.svt_query_value``) and ``SparseVector`` compares exactly.
"""

from __future__ import annotations

import random
from fractions import Fraction

import numpy as np
import pytest

import dpgui.algorithms.distance.huang_roth as hr
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom
from dpgui.privacy.sparse_vector import SparseVector, SparseVectorParameters
from tests.recording import RecordingRandom

AUDIT_PAIR = ([1.0, 0.0, 0.0, 1.0, 1.0, 0.726], [1.0, 1.0, 0.0, 1.0, 1.0, 0.726])
"""The audit's neighbours (offline, one coordinate, eps = 1): the float quotient moved by 1 + 2^-52."""


def recorded_values(points: list[float], monkeypatch: pytest.MonkeyPatch, quotient: bool = False) -> list:
    """Every value the offline release hands its sparse vectors; "above" is forced by a public coin (seed 0)
    and every tangent is a public constant, so neighbours follow one path with one hypothesis. With
    ``quotient`` the float quotient the release computed before is recorded instead."""
    values: list = []
    coin = random.Random(0)

    class Spy:
        def __init__(self, params: SparseVectorParameters, rng: object) -> None:
            self.params, self.above_count = params, 0

        @property
        def exhausted(self) -> bool:
            return self.above_count >= self.params.max_above

        def is_above(self, value: Fraction) -> bool:
            values.append(value)
            above = coin.random() < 0.25
            self.above_count += above
            return above

    def float_quotient(guess: float, grid_sums: int, n: int, coordinates: int) -> Fraction:
        truth = float(grid_sums) / (n * hr.RESOLUTION)
        values.append(abs(guess - truth) / (coordinates / n))
        return Fraction(0)

    monkeypatch.setattr(hr, "SparseVector", Spy)
    monkeypatch.setattr(hr, "_noisy_tangent", lambda *args: (0.37, 0.1))
    if quotient:
        monkeypatch.setattr(hr, "svt_query_value", float_quotient)
    data = np.array(points)[:, None]
    cal = hr.calibrate(len(points), 1, 1.0, 0.0, 0.05, online=False)
    run_to_end(hr.offline_release(data, cal, SeededRandom(0)))
    return values


def largest_change(
    first: list[float], second: list[float], monkeypatch: pytest.MonkeyPatch, quotient: bool = False
) -> float:
    a, b = recorded_values(first, monkeypatch, quotient), recorded_values(second, monkeypatch, quotient)
    assert len(a) == len(b) > 0
    return max(abs(x - y) for x, y in zip(a, b, strict=True))


def test_the_audits_pair_moves_the_exact_test_by_at_most_one(monkeypatch: pytest.MonkeyPatch) -> None:
    assert largest_change(*AUDIT_PAIR, monkeypatch) <= 1
    assert largest_change(*AUDIT_PAIR, monkeypatch, quotient=True) > 1  # control: the float quotient


def test_random_neighbours_move_the_exact_test_by_at_most_one(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = random.Random(1)
    worst = Fraction(0)
    for _ in range(60):
        points = [rng.choice([0.0, 1.0, round(rng.random(), 3)]) for _ in range(rng.randint(2, 6))]
        for i in range(len(points)):
            other = list(points)
            other[i] = 1.0 - points[i]
            worst = max(worst, largest_change(points, other, monkeypatch))
    assert worst <= 1
    assert worst == 1  # attained (a record moved from 0 to 1): the sensitivity is not overstated


def test_the_sparse_vector_compares_exactly() -> None:
    """With zero noise, a value half below a threshold of 2^53 is below; in floating point, value + 0 rounds
    to 2^53 and would be above."""
    params = SparseVectorParameters(float(2**53), 1.0)
    assert not SparseVector(params, RecordingRandom(zero=True)).is_above(Fraction(2**53) - Fraction(1, 2))
    assert SparseVector(params, RecordingRandom(zero=True)).is_above(Fraction(2**53))
    assert float(Fraction(2**53) - Fraction(1, 2)) + 0.0 >= float(2**53)  # the control: float rounds up


@pytest.mark.parametrize("online", [True, False])
def test_the_exact_value_assumes_the_calibrations_test_sensitivity(online: bool) -> None:
    """``svt_query_value`` divides by coordinates / n in exact arithmetic (online every coordinate, offline
    one); the calibration's test sensitivity, which scales the threshold, must be that same quotient."""
    n, dims = 500, 3
    cal = hr.calibrate(n, dims, 1.0, 0.0, 0.05, online=online)
    assert cal.test_sensitivity == pytest.approx((dims if online else 1) / n, rel=1e-15)
