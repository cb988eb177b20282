"""Pins the rectangle learner's target ranks and its EMPTY threshold, observed from the code (mutation
scan 18: the rank error over s + 2 or s values, and a count error ln(M/beta) or ln(4M/beta), survived).

Module doc and spec 000 s4.5 [ours]: every per-axis quantile runs at eps_m = eps / M, M = 2 n_dim + 1, over
the s + 1 encoded values, and is within r = (2/eps_m) ln((s + 1) M / beta) ranks of its target w.p.
>= 1 - beta/M (the exponential mechanism's bound, Lemma 2.2); the target rank is k = floor(r) + 1 from each
end. The positive count's discrete Laplace noise (scale 1/eps_m) exceeds ln(2M/beta)/eps_m w.p. <= beta/M,
and a noisy count below 2 max_i k_i + that error releases EMPTY.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import rectangles as module
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.rectangles import AxisPositives, BoxParameters, quantile_box
from tests.recording import RecordingRandom, smallest_releasing_noise

SIZES, EPSILON, BETA, N = (50, 200), 2.0, 0.1, 4000


def expected_k(size: int) -> int:
    m = 2 * len(SIZES) + 1
    return math.floor(2 / (EPSILON / m) * math.log((size + 1) * m / BETA)) + 1


def axes(positives: int) -> list[AxisPositives]:
    """``positives`` records spread over [10, 40) on every axis."""
    values = np.arange(10, 40, dtype=np.uint64)
    counts = np.full(values.size, positives // values.size, dtype=np.int64)
    counts[0] += positives - int(counts.sum())
    return [AxisPositives(values, counts, size) for size in SIZES]


def test_constants_are_the_module_formulas() -> None:
    """M = 5 mechanisms at eps/5; r, k and the count error as in the module doc."""
    p = BoxParameters(N, SIZES, EPSILON, BETA)
    m = 2 * len(SIZES) + 1
    assert p.mechanisms == m and p.epsilon_each == pytest.approx(EPSILON / m, rel=1e-12)
    for size in SIZES:
        assert p.rank_error(size) == pytest.approx(
            2 / (EPSILON / m) * math.log((size + 1) * m / BETA), rel=1e-12
        )
        assert p.margin(size) == expected_k(size)
    assert p.count_error == pytest.approx(math.log(2 * m / BETA) / (EPSILON / m), rel=1e-12)
    # the error rate: 2 (k + r) cut off per axis, or a missed box (min_positives + count error) records
    per_axis = sum(2 * (expected_k(s) + p.rank_error(s)) for s in SIZES)
    min_positives = 2 * max(expected_k(s) for s in SIZES) + p.count_error
    assert p.error_rate == pytest.approx(max(per_axis, min_positives + p.count_error) / N, rel=1e-12)


def test_quantiles_target_rank_k_from_each_end(monkeypatch) -> None:
    """The code asks each axis for the quantiles k/n (lower edge) and 1 - k/n (upper edge), at eps/M."""
    seen: list[tuple[int, float, float]] = []
    real = module.em_quantile

    def em_quantile(values, counts, domain_size, q, epsilon, rng):
        seen.append((domain_size, q, epsilon))
        return real(values, counts, domain_size, q, epsilon, rng)

    monkeypatch.setattr(module, "em_quantile", em_quantile)
    params = BoxParameters(N, SIZES, EPSILON, BETA)
    run_to_end(quantile_box(axes(1500), params, RecordingRandom(3, zero=True)))
    expected = []
    for size in SIZES:
        k = expected_k(size)
        expected += [(size + 1, k / N, EPSILON / 5), (size + 1, 1 - k / N, EPSILON / 5)]
    assert [(d, pytest.approx(q, rel=1e-12), pytest.approx(e, rel=1e-12)) for d, q, e in expected] == seen


def test_empty_below_twice_the_largest_margin_plus_the_count_error() -> None:
    """The smallest count noise that does not release EMPTY puts the noisy count at
    ceil(2 max_i k_i + ln(2M/beta)/eps_m)."""
    params = BoxParameters(N, SIZES, EPSILON, BETA)

    def released(z: int) -> bool:
        release = run_to_end(quantile_box(axes(1500), params, RecordingRandom(zero=True, noise=[z])))
        return release.box is not None

    z = smallest_releasing_noise(released, -1500, 1500)
    threshold = 2 * max(expected_k(s) for s in SIZES) + math.log(2 * 5 / BETA) / (EPSILON / 5)
    assert 1500 + z == math.ceil(threshold)
