"""The quantile box (spec 000 s4.5): pure-DP budget over 2 n_dim + 1 mechanisms, the exact law the code
samples on replace-one neighbours, no false positives on realizable data, EMPTY without positives."""

import collections
import functools
import itertools
import math

import numpy as np
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.rectangles import AxisPositives, BoxParameters, quantile_box
from dpgui.privacy.random import PrivateRandom, SeededRandom
from tests.exact import max_log_ratio
from tests.recording import noisy_count_law


def axes_of(points: np.ndarray, labels: np.ndarray, sizes: tuple[int, ...]) -> list[AxisPositives]:
    out = []
    for axis, size in enumerate(sizes):
        values, counts = np.unique(points[labels, axis].astype(np.uint64), return_counts=True)
        out.append(AxisPositives(values, counts, size))
    return out


def realizable(n: int, sizes: tuple[int, ...], box: list[tuple[int, int]], seed: int):
    gen = np.random.Generator(np.random.PCG64(seed))
    points = np.stack([gen.integers(0, s, n) for s in sizes], axis=1)
    labels = np.ones(n, dtype=bool)
    for axis, (lo, hi) in enumerate(box):
        labels &= (points[:, axis] >= lo) & (points[:, axis] <= hi)
    return points, labels


@pytest.mark.parametrize("dims", [1, 2, 3])
def test_no_false_positives_on_realizable_data_at_large_epsilon(dims: int) -> None:
    sizes = (64, 40, 100)[:dims]
    target = [(10, 50), (5, 30), (20, 90)][:dims]
    points, labels = realizable(3000, sizes, target, dims)
    params = BoxParameters(3000, sizes, 50.0, 0.05)
    rng = SeededRandom(dims)
    for _ in range(30):
        release = run_to_end(quantile_box(axes_of(points, labels, sizes), params, rng))
        assert release.box is not None
        for (lo, hi), (t_lo, t_hi) in zip(release.box, target, strict=True):
            assert t_lo <= lo <= hi <= t_hi
        missed = int(np.sum(labels & ~release.contains(points)))
        assert missed / 3000 <= params.error_rate


def test_empty_rectangle_without_positives() -> None:
    sizes = (32, 32)
    points, _ = realizable(500, sizes, [(0, 31), (0, 31)], 4)
    labels = np.zeros(500, dtype=bool)
    release = run_to_end(
        quantile_box(axes_of(points, labels, sizes), BoxParameters(500, sizes, 5.0, 0.05), SeededRandom(1))
    )
    assert release.box is None


class CountingRandom(PrivateRandom):
    """Wraps a SeededRandom and records the scale of every noise draw and each Gumbel-max."""

    is_private = False
    description = "test"

    def __init__(self, seed: int) -> None:
        self.inner = SeededRandom(seed)
        self.laplace_scales: list[float] = []
        self.gumbel_calls = 0

    def uniform01(self, size: int) -> np.ndarray:
        return self.inner.uniform01(size)

    def randbelow(self, n: int) -> int:
        return self.inner.randbelow(n)

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        self.laplace_scales.append(scale)
        return self.inner.discrete_laplace(scale, size)

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        raise AssertionError("no Gaussian noise here")

    def gumbel(self, size: int) -> np.ndarray:
        self.gumbel_calls += 1
        return self.inner.gumbel(size)


def test_budget_is_split_over_two_quantiles_per_axis_and_one_count() -> None:
    sizes = (64, 64, 64)
    points, labels = realizable(2000, sizes, [(5, 60)] * 3, 5)
    params = BoxParameters(2000, sizes, 3.5, 0.05)
    assert params.mechanisms == 7 and params.epsilon_each * 7 == pytest.approx(3.5)
    rng = CountingRandom(6)
    run_to_end(quantile_box(axes_of(points, labels, sizes), params, rng))
    assert rng.laplace_scales == [pytest.approx(1 / params.epsilon_each)]  # count: sensitivity 1
    assert rng.gumbel_calls == 6  # one exponential mechanism per quantile, each at epsilon_each


def test_sentinel_encoding_keeps_every_axis_input_at_n_and_neighbours_replace_one_entry() -> None:
    sizes = (16,)
    points, labels = realizable(40, sizes, [(3, 12)], 7)
    labels2 = labels.copy()
    flip = int(np.argmax(labels))
    labels2[flip] = False  # replace one record: a positive becomes a negative
    params = BoxParameters(40, sizes, 1.0, 0.05)
    for lab in (labels, labels2):
        axis = axes_of(points, lab, sizes)[0]
        assert int(axis.counts.sum()) + (40 - int(lab.sum())) == params.n
    for sentinel, shift in ((sizes[0], 0), (0, 1)):  # the "high" and the "low" encodings
        a = collections.Counter(np.where(labels, points[:, 0] + shift, sentinel).tolist())
        b = collections.Counter(np.where(labels2, points[:, 0] + shift, sentinel).tolist())
        assert sum((a - b).values()) == 1 and sum((b - a).values()) == 1


@functools.cache
def sampled_box_law(records: tuple[tuple[tuple[int, ...], bool], ...], params: BoxParameters) -> dict:
    """The exact law of the released box on ``records``: the noisy count's regimes at the scale the code
    requests, and the exponential mechanisms' selections as the code computes them (tests/recording.py)."""
    points = np.array([x for x, _ in records]).reshape(len(records), len(params.sizes))
    labels = np.array([y for _, y in records], dtype=bool)
    axes = axes_of(points, labels, params.sizes)
    return noisy_count_law(lambda rng: run_to_end(quantile_box(axes, params, rng)).box)


def one_axis(*records: tuple[int, bool]) -> tuple[tuple[tuple[int, ...], bool], ...]:
    return tuple(sorted(((x,), y) for x, y in records))


def test_every_replace_one_neighbour_has_log_ratio_at_most_epsilon() -> None:
    """On tiny data every replacement of one record moves every output's probability by at most e^eps."""
    params = BoxParameters(6, (4,), 12.0, 0.5)
    records = [(x, y) for x in range(4) for y in (False, True)]
    data = [records[int(i)] for i in np.random.default_rng(1).integers(0, len(records), params.n)]
    base = sampled_box_law(one_axis(*data), params)
    assert math.fsum(base.values()) == pytest.approx(1.0)
    for i, replacement in itertools.product(range(params.n), records):
        neighbour = one_axis(*data[:i], replacement, *data[i + 1 :])
        assert max_log_ratio(base, sampled_box_law(neighbour, params)) <= params.epsilon * (1 + 1e-9)


def test_the_worst_neighbours_of_an_exhaustive_search_stay_within_epsilon() -> None:
    """The worst pair over every dataset of 6 records on a 4-point axis (eps 12: log ratio 8.31, the count
    in its lower tail and both quantiles moved): a budget overspent by one share of three breaks e^eps."""
    params = BoxParameters(6, (4,), 12.0, 0.5)
    data = one_axis((0, False), (0, False), (0, False), (0, False), (0, True), (2, True))
    neighbour = one_axis((0, False), (0, False), (0, False), (0, True), (1, True), (2, True))
    ratio = max_log_ratio(sampled_box_law(data, params), sampled_box_law(neighbour, params))
    assert 8.3 < ratio <= params.epsilon
