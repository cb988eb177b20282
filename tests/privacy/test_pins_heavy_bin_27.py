"""HeavyBin releases the kept bin with the largest NOISY count: the law its code samples, enumerated.

Mutation scan h27e: releasing the kept bin with the largest TRUE count went unnoticed, because the exact
check in test_heavy_bin.py observes the code's scale and threshold but re-derives the selection among the
kept bins. Here the code itself runs on every steered pair of noise values, so the law is the one it
samples, including its choice among the kept bins.
"""

from __future__ import annotations

import math

import numpy as np

from dpgui.privacy.heavy_bin import HeavyBinParameters, heavy_bin
from tests.exact import discrete_laplace_pmf, hockey_stick
from tests.recording import RecordingRandom


def code_law(counts: tuple[int, int], params: HeavyBinParameters) -> dict[object, float]:
    """P(output) of ``heavy_bin`` over two bins, summed over every noise pair with mass above 1e-14."""
    scale = params.noise_scale
    reach = math.ceil(scale * math.log(1e14)) + 1
    noise = np.arange(-reach, reach + 1)
    pmf = discrete_laplace_pmf(noise, scale)
    law: dict[object, float] = {}
    for first, p_first in zip(noise.tolist(), pmf, strict=True):
        for second, p_second in zip(noise.tolist(), pmf, strict=True):
            out = heavy_bin(np.array(counts), params, RecordingRandom(noise=[first, second]))
            law[out] = law.get(out, 0.0) + float(p_first * p_second)
    return law


def test_two_heavy_bins_swapping_one_record_move_the_release_within_epsilon_delta() -> None:
    """Two bins far above the threshold, one record moved from the first to the second (replace-one):
    the noisy counts decide which is released, so the law moves by e^eps; a choice by the true counts
    would release the first bin almost surely on one side and the second on the other."""
    epsilon, delta = 2.0, 1e-3
    params = HeavyBinParameters(epsilon, delta, replace_one=True)
    heavy = params.threshold + 10
    tie = code_law((heavy, heavy), params)
    moved = code_law((heavy - 1, heavy + 1), params)
    assert hockey_stick(tie, moved, epsilon) <= delta + 1e-9
    assert 0.3 < tie[0] < 0.7  # a tie is decided by the noise, not by the bins' order
