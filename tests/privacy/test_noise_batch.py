"""Batched noise: one sampler call per vector, the same draws in the same order."""

from __future__ import annotations

import numpy as np

from dpgui.privacy.noise_batch import DEFAULT_BATCH, BatchedLaplace
from dpgui.privacy.random import SeededRandom


class CountingRandom(SeededRandom):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.sizes: list[int] = []

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        self.sizes.append(size)
        return super().discrete_laplace(scale, size)


def test_draws_come_a_vector_per_call_in_the_order_a_single_call_gives():
    counting = CountingRandom(3)
    noise = BatchedLaplace(counting, 2.0)
    drawn = [noise.next() for _ in range(DEFAULT_BATCH + 5)]
    assert counting.sizes == [DEFAULT_BATCH, DEFAULT_BATCH]
    reference = SeededRandom(3)
    expected = np.r_[
        reference.discrete_laplace(2.0, DEFAULT_BATCH), reference.discrete_laplace(2.0, DEFAULT_BATCH)[:5]
    ]
    assert drawn == expected.tolist()


def test_a_known_limit_keeps_the_batch_no_larger_than_needed():
    counting = CountingRandom(4)
    noise = BatchedLaplace(counting, 1.0, limit=7)
    for _ in range(7):
        noise.next()
    assert counting.sizes == [7]
