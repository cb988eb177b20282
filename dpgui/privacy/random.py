"""The one source of randomness for every mechanism.

Every mechanism takes a :class:`PrivateRandom`. Two kinds exist:

* :class:`SecureRandom`: the only kind allowed on private data. Uniform bits come from the operating
  system's CSPRNG (``os.urandom`` / ``secrets``); discrete Laplace and discrete Gaussian noise come from
  the exact samplers of Canonne-Kamath-Steinke 2020: OpenDP's for small vectors, and the same algorithms
  vectorised in integer numpy arithmetic (:mod:`dpgui.privacy.exact_vector`, on CSPRNG words) for large
  ones (a tree over 2^26 leaves). Both are immune to the floating-point attacks of Mironov 2012 because
  integer counts receive integer noise drawn without floating-point arithmetic.
* :class:`SeededRandom`: a seeded numpy ``Generator`` for tests and for simulations on public or synthetic
  data. It is marked ``is_private = False``; a release made with it is labelled "not private" and its seed
  is never written anywhere.

Selection (exponential mechanism) is Gumbel-max over log-weights (:meth:`PrivateRandom.choose_index`). On
private data it is OpenDP's noisy max with Gumbel noise of scale 1, which compares the noisy log-weights
exactly (refining each variate's bits only as far as the comparison needs): index i comes out with
probability exactly exp(w_i) / sum_j exp(w_j) for the floats w given. Gumbel variates computed in floating
point from 53-bit uniforms, as before, form a lattice bounded to [-3.62, 36.74]: a candidate more than 40.4
below the best was never chosen and those 34 to 40 below were mis-weighted, so a neighbouring dataset that
moved a candidate across that line had an infinite likelihood ratio (pure DP failed by about 1e-16 per
candidate; REVIEW-000-002 s5 asks to treat floating-point sampling like spec 000's Laplace pitfall). The
seeded generator keeps the floating-point Gumbel noise: tests and public simulations only.

Integer noise is 64-bit. OpenDP saturates a draw at the bounds of its integer type, and a saturated draw
gives the statistic away (the output is then the statistic plus the bound): a 32-bit type did so at scales
dpgui uses. Draws are therefore made over ``i64`` and every scale is refused above :data:`MAX_NOISE_SCALE`,
where the chance of a draw reaching :data:`NOISE_BOUND` is below 2 e^-64 per draw, so neither the
sampler's saturation nor an int64 sum with a statistic below 2^62 is ever reached in practice.
"""

from __future__ import annotations

import functools
import math
import os
import secrets
from abc import ABC, abstractmethod

import numpy as np

from dpgui.privacy import exact_vector

_TWO53 = float(2**53)

NOISE_BOUND = 2**62
"""No noise draw is allowed to come near this magnitude (the sampler saturates at 2^63 - 1)."""

MAX_NOISE_SCALE = NOISE_BOUND / 64
"""The largest discrete Laplace scale or Gaussian sigma accepted: P(|Z| >= 2^62) <= 2 exp(-64) for the
Laplace (and far less for the Gaussian, whose tail is exp(-64^2 / 2))."""


class NoiseScaleTooLarge(ValueError):
    """A noise scale so large that a draw could reach the integer bound; raised before any draw."""


_BELOW_ONE = math.nextafter(1.0, 0.0)
"""The largest float below 1."""


def _uniform_from_uint64(words: np.ndarray) -> np.ndarray:
    """Map uint64 words to floats in the open interval (0, 1) using their top 53 bits.

    (k + 1/2) / 2^53 for the top 53 bits k, rounded to a float. For k = 2^53 - 1 that rounds to 1 itself
    (2^53 - 1/2 needs 54 bits), which is capped just below 1: a uniform of 1 would make the Gumbel noise
    -ln(-ln U) infinite.
    """
    return np.minimum(((words >> np.uint64(11)).astype(np.float64) + 0.5) / _TWO53, _BELOW_ONE)


class PrivateRandom(ABC):
    """Randomness handed to every mechanism; subclasses decide where the bits come from."""

    is_private: bool
    description: str

    @abstractmethod
    def uniform01(self, size: int) -> np.ndarray:
        """``size`` floats uniform on the open interval (0, 1)."""

    @abstractmethod
    def randbelow(self, n: int) -> int:
        """A uniform integer in [0, n); ``n`` may exceed 2**64."""

    @abstractmethod
    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        """int64 noise with P(z) proportional to exp(-|z| / scale)."""

    @abstractmethod
    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        """int64 noise with P(z) proportional to exp(-z^2 / (2 sigma^2))."""

    def gumbel(self, size: int) -> np.ndarray:
        """Standard Gumbel variates, -ln(-ln U)."""
        return -np.log(-np.log(self.uniform01(size)))

    def choose_index(self, log_weights: np.ndarray) -> int:
        """Gumbel-max: index i with probability exp(w_i) / sum_j exp(w_j) (-inf is never chosen).

        Every exponential-mechanism draw comes through here (via ``exponential.gumbel_max``, which validates
        the log-weights first), so a test can observe the exact law a mechanism samples from. This is the
        floating-point version (not exact in the far tails, module doc); :class:`SecureRandom` samples it
        exactly.
        """
        return int(np.argmax(log_weights + self.gumbel(log_weights.size)))

    def uniform_ints(self, n: int, size: int) -> np.ndarray:
        """``size`` uniform integers in [0, n) for n < 2**53 (vectorised; used by post-processing)."""
        if not 0 < n <= 2**53:
            raise ValueError("uniform_ints needs 0 < n <= 2**53; use randbelow for larger ranges")
        return np.minimum(np.floor(self.uniform01(size) * n), n - 1).astype(np.int64)


def check_noise_scale(scale: float, name: str = "noise scale") -> None:
    """Refuse a scale that is not a finite positive number or that exceeds :data:`MAX_NOISE_SCALE`."""
    if not (math.isfinite(scale) and scale > 0):
        raise ValueError(f"{name} must be a finite number > 0, got {scale!r}")
    if scale > MAX_NOISE_SCALE:
        raise NoiseScaleTooLarge(
            f"{name} {scale:.4g} exceeds {MAX_NOISE_SCALE:.4g}: a draw could reach the 64-bit integer bound; "
            "use a larger epsilon, fewer queries or a coarser resolution"
        )


def os_words(count: int) -> np.ndarray:
    """``count`` uniform uint64 words from the operating system's CSPRNG (the vector samplers' bits)."""
    return np.frombuffer(os.urandom(8 * count), dtype=np.uint64)


class SecureRandom(PrivateRandom):
    """CSPRNG randomness for releases on private data."""

    is_private = True
    description = "operating-system CSPRNG (os.urandom); exact discrete samplers (CKS 2020)"

    def uniform01(self, size: int) -> np.ndarray:
        return _uniform_from_uint64(os_words(size))

    def randbelow(self, n: int) -> int:
        return secrets.randbelow(n)

    def choose_index(self, log_weights: np.ndarray) -> int:
        """Gumbel-max sampled exactly: OpenDP's noisy max over the finite log-weights (module doc)."""
        candidates = np.flatnonzero(np.isfinite(log_weights))
        if candidates.size == 1:
            return int(candidates[0])
        chosen = _opendp_noisy_max()(log_weights[candidates].tolist())  # type: ignore[operator]
        return int(candidates[chosen])

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        check_noise_scale(scale, "scale")
        if size >= VECTOR_SAMPLER_MIN_SIZE and exact_vector.laplace_supported(scale):
            return exact_vector.discrete_laplace(float(scale), size, os_words)
        return _opendp_noise("laplace", float(scale), size)

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        check_noise_scale(sigma, "sigma")
        if size >= VECTOR_SAMPLER_MIN_SIZE and exact_vector.gaussian_supported(sigma):
            return exact_vector.discrete_gaussian(float(sigma), size, os_words)
        return _opendp_noise("gaussian", float(sigma), size)


VECTOR_SAMPLER_MIN_SIZE = 1024
"""From this many draws per call, noise comes from :mod:`dpgui.privacy.exact_vector` (the same exact
algorithms as OpenDP's, vectorised: about 10x faster per draw); smaller vectors keep OpenDP's vetted
sampler, whose fixed cost per call does not matter there."""


NOISE_INTEGER_TYPE = "i64"
"""OpenDP's integer type for noise: 64 bits (``T=int`` would be 32-bit and saturate at 2^31 - 1)."""


@functools.lru_cache(maxsize=64)
def _opendp_sampler(kind: str, scale: float) -> object:
    """OpenDP's exact discrete Laplace or Gaussian on 64-bit integer vectors (cached per kind and scale)."""
    import opendp.prelude as dp

    dp.enable_features("contrib")
    domain = dp.vector_domain(dp.atom_domain(T=NOISE_INTEGER_TYPE))
    if kind == "laplace":
        return dp.m.make_laplace(domain, dp.l1_distance(T=NOISE_INTEGER_TYPE), scale=scale)
    return dp.m.make_gaussian(domain, dp.l2_distance(T=NOISE_INTEGER_TYPE), scale=scale)


@functools.cache
def _opendp_noisy_max() -> object:
    """OpenDP's report-noisy-max with Gumbel noise of scale 1 (the zCDP measure selects Gumbel noise; its
    privacy map is not used: the caller's log-weights already carry epsilon / (2 sensitivity))."""
    import opendp.prelude as dp

    dp.enable_features("contrib")
    domain = dp.vector_domain(dp.atom_domain(T=float, nan=False))
    gumbel = dp.zero_concentrated_divergence()
    return dp.m.make_noisy_max(domain, dp.linf_distance(T=float), gumbel, scale=1.0)


def _opendp_noise(kind: str, scale: float, size: int) -> np.ndarray:
    """``size`` noise values: OpenDP adds its noise to a vector of zeros."""
    if size == 0:
        return np.zeros(0, dtype=np.int64)
    measurement = _opendp_sampler(kind, scale)
    return np.asarray(measurement([0] * size), dtype=np.int64)  # type: ignore[operator]


class SeededRandom(PrivateRandom):
    """Reproducible randomness for tests and public/synthetic simulations. Not private."""

    is_private = False
    description = "seeded generator (NOT PRIVATE: tests and public or synthetic data only)"

    def __init__(self, seed: int) -> None:
        self._generator = np.random.Generator(np.random.PCG64(seed))

    def uniform01(self, size: int) -> np.ndarray:
        return _uniform_from_uint64(self._generator.integers(0, 2**64, size=size, dtype=np.uint64))

    def randbelow(self, n: int) -> int:
        if n <= 0:
            raise ValueError("n must be > 0")
        if n <= 2**62:
            return int(self._generator.integers(0, n))
        bits = n.bit_length()
        while True:  # rejection sampling on big integers
            value = int.from_bytes(self._generator.bytes((bits + 7) // 8), "big") >> (-bits % 8)
            if value < n:
                return value

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        """floor(b E1) - floor(b E2) with E ~ Exp(1): a difference of two geometric variables."""
        check_noise_scale(scale, "scale")
        e = self._generator.standard_exponential((2, size))
        return (np.floor(scale * e[0]) - np.floor(scale * e[1])).astype(np.int64)

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        """Rejection from a discrete Laplace proposal (Canonne-Kamath-Steinke 2020, Algorithm 3)."""
        check_noise_scale(sigma, "sigma")
        t = math.floor(sigma) + 1
        out = np.empty(size, dtype=np.int64)
        filled = 0
        while filled < size:
            want = max(16, 2 * (size - filled))
            y = self.discrete_laplace(t, want)
            accept_p = np.exp(-((np.abs(y) - sigma**2 / t) ** 2) / (2 * sigma**2))
            kept = y[self.uniform01(want) < accept_p][: size - filled]
            out[filled : filled + kept.size] = kept
            filled += kept.size
        return out


def simulation_generator(seed: int) -> np.random.Generator:
    """A seeded numpy generator for drawing public or synthetic *data* in simulations (planner previews,
    benchmarks). Never for noise on private data: that comes from a :class:`PrivateRandom`."""
    return np.random.Generator(np.random.PCG64(seed))


def discrete_laplace_tail(k: int, scale: float) -> float:
    """P(Z >= k) for integer k >= 0: r^k / (1 + r), with r = exp(-1/scale); r^k as exp(-k/scale), since
    at scales above 2^53 r rounds to 1 and r**k would give 1 for every k."""
    if k < 0:
        raise ValueError("the tail formula holds for k >= 0")
    return math.exp(-k / scale) / (1 + math.exp(-1 / scale))


def secret_bytes(count: int) -> bytes:
    """``count`` bytes from the operating system's CSPRNG, for keys (never for noise: that is a
    :class:`PrivateRandom`'s job)."""
    return secrets.token_bytes(count)
