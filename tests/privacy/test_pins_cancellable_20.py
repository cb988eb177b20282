"""Pins from the privacy20 mutation scan of dpgui/privacy/cancellable.py: the batched noise draws.

CancellableRandom splits a noise vector into batches of NOISE_BATCH so that a cancel lands between them; no
test under tests/privacy executed the batching (only tests/ui did). The batches must add up to exactly the
draws asked, each from the inner sampler at the scale asked (module docstring).
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.privacy.cancellable import NOISE_BATCH, CancellableRandom, DrawCancelled
from dpgui.privacy.random import SeededRandom


class Recording(SeededRandom):
    """A seeded inner source that records the (scale, size) of every noise call made from outside it (its
    Gaussian sampler's own Laplace proposals are not recorded)."""

    def __init__(self) -> None:
        super().__init__(3)
        self.calls: list[tuple[float, int]] = []
        self._inside = False

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        if not self._inside:
            self.calls.append((scale, size))
        return super().discrete_laplace(scale, size)

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        self.calls.append((sigma, size))
        self._inside = True
        try:
            return super().discrete_gaussian(sigma, size)
        finally:
            self._inside = False


@pytest.mark.parametrize(
    ("size", "batches"),
    [
        (0, [0]),
        (1, [1]),
        (NOISE_BATCH, [NOISE_BATCH]),
        (NOISE_BATCH + 1, [NOISE_BATCH, 1]),
        (2 * NOISE_BATCH + 5, [NOISE_BATCH, NOISE_BATCH, 5]),
    ],
)
@pytest.mark.parametrize("kind", ["laplace", "gaussian"])
def test_batched_noise_has_exactly_the_draws_asked(kind: str, size: int, batches: list[int]) -> None:
    """Guards CancellableRandom._batched (cancellable.py:55/57): batches of NOISE_BATCH from 0 up to the size
    asked, the last one short, one empty call for size 0 (so the dtype comes from the inner sampler). A start
    at 1, a max for the min, or size + start hands back a vector of the wrong length."""
    inner = Recording()
    rng = CancellableRandom(inner, lambda: False)
    draw = rng.discrete_laplace if kind == "laplace" else rng.discrete_gaussian
    noise = draw(3.0, size)
    assert noise.shape == (size,)
    assert noise.dtype == np.int64
    assert inner.calls == [(3.0, b) for b in batches]


def test_a_cancel_between_batches_stops_the_draw() -> None:
    """Guards the cancel check before every batch (cancellable.py:56): the third check raises."""
    checks = iter([False, False, True])
    rng = CancellableRandom(Recording(), lambda: next(checks))
    with pytest.raises(DrawCancelled):
        rng.discrete_laplace(3.0, 3 * NOISE_BATCH)
