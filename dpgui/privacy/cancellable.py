"""A :class:`PrivateRandom` that honours a cancel between draws, so a run stops within one batch.

The app cancels a release cooperatively. Between an algorithm's progress steps there can be long stretches
spent drawing noise (a tree over 2^20 leaves asks for millions of draws); wrapping the run's randomness in
:class:`CancellableRandom` checks the cancel flag before every draw and splits a large noise vector into
batches with a check between them. A cancelled draw raises :class:`DrawCancelled`: nothing it would have
drawn is released, and a run that had read the data stays charged as before.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from dpgui.privacy.random import PrivateRandom

NOISE_BATCH = 1 << 14
"""Draws per sampler call: about 0.15 s of OpenDP sampling, so a cancel lands well within a second."""


class DrawCancelled(Exception):
    """The run was cancelled while it was drawing randomness."""


class CancellableRandom(PrivateRandom):
    """Delegates every draw to ``inner`` after checking ``cancelled``; noise vectors come in batches."""

    def __init__(self, inner: PrivateRandom, cancelled: Callable[[], bool]) -> None:
        self.inner = inner
        self._cancelled = cancelled
        self.is_private = inner.is_private
        self.description = inner.description

    def _check(self) -> None:
        if self._cancelled():
            raise DrawCancelled("cancelled by the user while drawing noise")

    def uniform01(self, size: int) -> np.ndarray:
        self._check()
        return self.inner.uniform01(size)

    def randbelow(self, n: int) -> int:
        self._check()
        return self.inner.randbelow(n)

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        return self._batched(self.inner.discrete_laplace, scale, size)

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        return self._batched(self.inner.discrete_gaussian, sigma, size)

    def _batched(self, draw: Callable[[float, int], np.ndarray], scale: float, size: int) -> np.ndarray:
        parts = []
        for start in range(0, max(size, 1), NOISE_BATCH):
            self._check()
            parts.append(draw(scale, min(NOISE_BATCH, size - start)))
        return np.concatenate(parts).astype(np.int64, copy=False)
