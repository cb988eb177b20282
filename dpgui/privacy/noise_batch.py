"""Discrete Laplace noise of one scale drawn a whole vector per sampler call, handed out one value at a time.

Algorithms that add noise to one count per step (SanThresholds' ranges, SanPoints' frequencies) used to call
the sampler (OpenDP under ``SecureRandom``) once per count; each call carries a fixed cost. Independent draws
handed out in order have the same joint distribution as one call per draw, so batching changes the number
of sampler calls only, never the privacy guarantee; draws left over at the end are discarded unread.
"""

from __future__ import annotations

import numpy as np

from dpgui.privacy.random import PrivateRandom

DEFAULT_BATCH = 1024


class BatchedLaplace:
    """``next()`` is one discrete Laplace draw of ``scale``; the sampler is called for ``batch`` at a time.

    ``limit`` (when the number of draws is known to be at most that) keeps the batches no larger than needed.
    """

    def __init__(self, rng: PrivateRandom, scale: float, *, limit: int | None = None) -> None:
        self._rng = rng
        self._scale = scale
        self._left = limit
        self._buffer = np.empty(0, dtype=np.int64)
        self._next = 0

    def next(self) -> int:
        if self._next == self._buffer.size:
            size = DEFAULT_BATCH if self._left is None else max(1, min(DEFAULT_BATCH, self._left))
            self._buffer = np.asarray(self._rng.discrete_laplace(self._scale, size), dtype=np.int64)
            self._next = 0
        value = int(self._buffer[self._next])
        self._next += 1
        if self._left is not None:
            self._left -= 1
        return value
