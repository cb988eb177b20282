"""Pins from the privacy20 mutation scan of dpgui/privacy/heavy_bin.py: the stated sizes, in exact integers.

HeavyBin (the stability-based histogram: noisy counts of the non-empty bins, released above a threshold)
with discrete Laplace noise of scale b, r = exp(-1/b):
- threshold = 1 + max(0, ceil(b ln(1 / ((1 + r) delta)))) (an empty neighbour's bin passes it w.p. <= delta);
- noise_bound a = ceil(b ln(2 bins / beta)), so P(max |Z| > a) <= 2 bins r^(a+1) / (1 + r) <= beta;
- required_count = max(threshold + a, 1 + 2a) (the module's docstrings).
The earlier keyword scan left every noise_bound / required_count mutant alive (notes/mutscan.md (b)); these
values kill them, and the 0 + 2a for 1 + 2a mutant of this scan.
"""

from __future__ import annotations

import pytest

from dpgui.privacy.heavy_bin import HeavyBinParameters


@pytest.mark.parametrize(
    ("params", "threshold", "sizes"),
    [
        # b = 1: threshold 1 + ceil(ln(1 / ((1 + e^-1) 1e-6))) = 1 + ceil(13.50) = 15
        # one bin: a = ceil(ln(2 / 0.1)) = ceil(3.00) = 3 -> max(18, 7)
        # a = ceil(ln(2e5)) = ceil(12.21) = 13 -> max(28, 27)
        # a = ceil(ln(2e15)) = ceil(35.23) = 36 -> max(51, 73)
        (HeavyBinParameters(1.0, 1e-6), 15, [(1, 0.1, 3, 18), (1000, 0.01, 13, 28), (10**9, 1e-6, 36, 73)]),
        # replace-one at eps 0.5: b = 4, threshold 1 + ceil(4 ln(1 / ((1 + e^-1/4) 1e-6))) = 54
        # a = ceil(4 ln(2e5)) = ceil(48.82) = 49 -> max(103, 99); a = ceil(140.93) = 141 -> max(195, 283)
        (
            HeavyBinParameters(0.5, 1e-6, replace_one=True),
            54,
            [(1000, 0.01, 49, 103), (10**9, 1e-6, 141, 283)],
        ),
    ],
)
def test_threshold_noise_bound_and_required_count_have_their_exact_values(
    params: HeavyBinParameters, threshold: int, sizes: list[tuple[int, float, int, int]]
) -> None:
    """Guards HeavyBinParameters.threshold, noise_bound and required_count (heavy_bin.py:55-70)."""
    assert params.threshold == threshold
    for bins, beta, a, required in sizes:
        assert params.noise_bound(bins, beta) == a
        assert params.required_count(bins, beta) == required
