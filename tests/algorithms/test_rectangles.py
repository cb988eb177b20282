"""The quantile box (spec 000 s4.5): pure-DP budget over 2 n_dim + 1 mechanisms, exact per-axis laws,
no false positives on realizable data, EMPTY without positives."""

import collections

import numpy as np
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.rectangles import AxisPositives, BoxParameters, quantile_box
from dpgui.privacy.random import PrivateRandom, SeededRandom


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
