"""HeavyBin: stability-based selection of a heavy bin among the non-empty bins.

Spec 002 s3.3 (the "standard stability based technique" of paper 002's overview), checked by
REVIEW-000-002 s4g. Every non-empty bin gets a noisy count; the bins whose noisy count clears a public
threshold are kept and the heaviest kept bin is released (post-processing)::

    noisy(bin) = count(bin) + Z,  Z ~ discrete Laplace with scale b
    keep the bins with noisy >= tau;  none kept -> None (bottom)
    return the kept bin with the largest noisy count (ties: the smallest label, a public order)

Neighbour models (one record is in exactly one bin):

* add/remove: b = 1/eps. A bin present on both sides moves by 1 (ratio e^{1/b} = e^eps); a bin that goes
  from 0 to 1 is released only if 1 + Z >= tau.
* replace-one: b = 2/eps. Two bins move by 1 each (ratio e^{2/b} = e^eps); at most one bin appears.

With discrete noise P(Z >= k) = r^k / (1 + r) for r = e^{-1/b}, so the integer threshold
tau = 1 + ceil(b ln(1 / ((1 + r) delta))) makes the appearing bin's release probability <= delta (the
discrete-tail recomputation, as in dpgui/privacy/stability.py). Hence (eps, delta)-DP in the chosen model;
tests/privacy/test_heavy_bin.py checks the hockey-stick divergence exactly.

Utility: with probability >= 1 - beta every one of at most m noise values satisfies |Z| <= a with
a = ceil(b ln(2m / beta)); then, if the heaviest count OPT >= tau + a, the output is not bottom and its
count is >= OPT - 2a (spec 002 s3.3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.privacy.random import PrivateRandom


@dataclass(frozen=True)
class HeavyBinParameters:
    """The public constants of one run: the guarantee (epsilon, delta) and the neighbour model."""

    epsilon: float
    delta: float
    replace_one: bool = False

    def __post_init__(self) -> None:
        if not (math.isfinite(self.epsilon) and self.epsilon > 0):
            raise ValueError(f"epsilon must be > 0, got {self.epsilon}")
        if not 0 < self.delta < 1:
            raise ValueError(f"HeavyBin needs 0 < delta < 1, got {self.delta}")

    @property
    def noise_scale(self) -> float:
        return (2 if self.replace_one else 1) / self.epsilon

    @property
    def threshold(self) -> int:
        b = self.noise_scale
        r = math.exp(-1 / b)
        return 1 + max(0, math.ceil(b * math.log(1 / ((1 + r) * self.delta))))

    def noise_bound(self, bins: int, beta: float) -> int:
        """a with P(max over ``bins`` noise values of |Z| > a) <= beta: 2 r^(a+1) / (1 + r) <= beta / bins."""
        return math.ceil(self.noise_scale * math.log(2 * max(bins, 1) / beta))

    def required_count(self, bins: int, beta: float) -> int:
        """OPT at or above this makes the output a bin of count >= 1 and >= OPT - 2a, w.p. >= 1 - beta."""
        a = self.noise_bound(bins, beta)
        return max(self.threshold + a, 1 + 2 * a)


def heavy_bin(counts: np.ndarray, params: HeavyBinParameters, rng: PrivateRandom) -> int | None:
    """Index of the released bin among the non-empty ``counts`` (integers >= 1), or None for bottom.

    The caller lists only the non-empty bins, sorted by their public labels; empty bins can never be
    released (their noisy count is never computed), which is what the threshold pays for.
    """
    counts = np.asarray(counts)
    if counts.size == 0:
        return None
    if not np.issubdtype(counts.dtype, np.integer) or np.any(counts < 1):
        raise ValueError("HeavyBin counts must be integers >= 1 (the non-empty bins)")
    noisy = counts.astype(np.int64) + rng.discrete_laplace(params.noise_scale, counts.size)
    kept = noisy >= params.threshold
    if not kept.any():
        return None
    return int(np.argmax(np.where(kept, noisy, np.iinfo(np.int64).min)))
