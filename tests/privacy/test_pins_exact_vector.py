"""Pins found by the mutation scan: the vector sampler refuses scales outside its int64 range itself
(exact_vector.py discrete_laplace: `if not laplace_supported(scale):` -> `if False:`, or its raise ->
`pass`), rather than trusting every caller to route such scales to OpenDP; outside it the int64 arithmetic
would wrap."""

from __future__ import annotations

import signal

import numpy as np
import pytest

from dpgui.privacy.exact_vector import discrete_gaussian, discrete_laplace


def words(count: int) -> np.ndarray:
    return np.random.default_rng(7).integers(0, 2**64, size=count, dtype=np.uint64)


@pytest.mark.parametrize("scale", [2.0**60, 1 / 2.0**70])
def test_discrete_laplace_refuses_a_scale_outside_int64(scale: float) -> None:
    with pytest.raises(ValueError, match="outside the int64 range"):
        discrete_laplace(scale, 4, words)


@pytest.mark.parametrize("sigma", [0.5, 4096.0])
def test_discrete_gaussian_refuses_a_sigma_outside_its_int64_range(sigma: float) -> None:
    """The same for the Gaussian (sigma in [1, 2048], exact_vector._GAUSSIAN_SIGMA_RANGE). Without the
    check its rejection loop can run on wrapped int64 values without end: the alarm turns that into a
    failure."""

    def expire(signum, frame):
        raise TimeoutError("the sampler ran on an unsupported sigma")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, 20)
    try:
        with pytest.raises(ValueError, match="outside the int64 range"):
            discrete_gaussian(sigma, 4, words)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
