"""Exact discrete Laplace and discrete Gaussian noise for whole vectors, in integer numpy arithmetic.

Canonne, Kamath and Steinke 2020 ("The Discrete Gaussian for Differential Privacy", s5): Algorithm 1
(Bernoulli(exp(-gamma)) for a rational gamma), Algorithm 2 (discrete Laplace of rational scale t/s) and
Algorithm 3 (discrete Gaussian by rejection from a discrete Laplace). These are the algorithms OpenDP
implements; here every step runs on a whole vector at once (rejection loops over masks), on uniform
integers drawn from 64-bit words. There is no floating point anywhere in the sampled law: the float scale
is turned into the exact rational it denotes, and every Bernoulli trial compares a uniform integer below b
with a (Bernoulli(a / (b K)) is drawn as Bernoulli(a / b) and Bernoulli(1 / K), which are independent).

All arithmetic stays in int64. The ranges where it does are checked up front (:func:`laplace_supported`,
:func:`gaussian_supported`); elsewhere the caller uses OpenDP. Inside those ranges an intermediate can only
leave int64 on an event of probability below 2^-120 per draw (a geometric run of more than 126 successes
of Bernoulli(exp(-1)), or a Laplace proposal beyond 500 of its scales); such a draw raises
:class:`NoiseOverflow` instead of being clamped, so no released value ever carries saturated noise.

The discrete Gaussian takes sigma^2 rounded *up* to a multiple of 2^-k with sigma^2 2^k >= 2^20: at most a
relative 2^-20 more variance than asked, which never weakens the guarantee (zCDP rho = Delta^2 / (2 sigma^2)
only falls as sigma grows).
"""

from __future__ import annotations

import decimal
import math
import os
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

WordSource = Callable[[int], np.ndarray]
"""``count`` -> ``count`` independent uniform uint64 words."""

CHUNK = 1 << 16
"""Draws processed together: bounds the working memory (a few MB) whatever the vector's length."""

_MAX_INT = 2**63 - 1
_MAX_LAPLACE_NUMERATOR = 2**56
"""Scale numerators t up to this keep U + t V inside int64 for V <= 126 (P(V > 126) = e^-127)."""
_MAX_LAPLACE_DENOMINATOR = 2**62
_GAUSSIAN_SIGMA_RANGE = (1.0, 2048.0)
"""sigma in this range keeps (|Y| t Q - P)^2 inside int64 for every proposal |Y| < 512 t (P < e^-500)."""
_GAUSSIAN_PRECISION_BITS = 20


class NoiseOverflow(ArithmeticError):
    """A draw whose exact arithmetic would leave 64 bits (probability below 2^-120): the draw is refused."""


def os_words(count: int) -> np.ndarray:
    """Uniform uint64 words from the operating system's CSPRNG."""
    return np.frombuffer(os.urandom(8 * count), dtype=np.uint64)


def _exp_minus_k_words(k: int) -> tuple[int, ...]:
    """The first 64 * TIE_WORDS bits of exp(-k) as words: floor(exp(-k) 2^(64 w)), split into 64-bit words.

    ``decimal``'s exp is correctly rounded; at 130 significant digits the floor below is exact unless the
    true value lies within 10^-125 of a multiple of 2^(-64 w), which the assertion rules out at import.
    """
    context = decimal.Context(prec=130)
    value = context.exp(decimal.Decimal(-k))
    scale = decimal.Decimal(2) ** (64 * TIE_WORDS)
    low = int(context.multiply(value - context.power(10, -125 - k), scale))
    high = int(context.multiply(value + context.power(10, -125 - k), scale))
    assert low == high, "exp(-k) too close to a binary boundary to fix its leading words"
    return tuple((low >> (64 * (TIE_WORDS - 1 - i))) & (2**64 - 1) for i in range(TIE_WORDS))


TIE_WORDS = 3
"""Words of exp(-k) kept: a uniform agreeing with all of them (probability 2^-192) refuses the draw."""
MAX_EXP_STEP = 127
_EXP_NEG = [_exp_minus_k_words(k) for k in range(1, MAX_EXP_STEP + 1)]
_EXP_NEG_LEADING_ASCENDING = np.array([words[0] for words in reversed(_EXP_NEG)], dtype=np.uint64)
"""Leading words of exp(-127), ..., exp(-1), ascending."""


class _Uniform:
    """Uniform integers and Bernoulli trials from a word source."""

    def __init__(self, words: WordSource) -> None:
        self._words = words

    def below(self, m: np.ndarray) -> np.ndarray:
        """One uniform integer in [0, m_i) per positive int64 ``m_i`` (unbiased rejection on 64-bit words).

        A word w is kept when it falls in a whole block of m values: w - (w mod m) <= 2^64 - m.
        """
        m = m.astype(np.uint64)
        out = np.empty(m.size, dtype=np.uint64)
        todo = np.arange(m.size)
        while todo.size:
            w = self._words(todo.size)
            mt = m[todo]
            r = w % mt
            kept = (w - r) <= (np.uint64(0) - mt)
            out[todo[kept]] = r[kept]
            todo = todo[~kept]
        return out.astype(np.int64)

    def signs(self, size: int) -> np.ndarray:
        """``size`` fair coin flips (True = negative), 64 per word."""
        bits = np.unpackbits(self._words((size + 63) // 64).view(np.uint8))
        return bits[:size].astype(bool)

    def count_exp_thresholds(self, size: int) -> np.ndarray:
        """For one uniform U per draw, the number of k in 1..127 with U < exp(-k).

        P(count >= k) = exp(-k): the number of successes of Bernoulli(exp(-1)) before the first failure
        (CKS Algorithm 2, step 3), by inversion against the exact leading words of exp(-k); a leading word
        equal to one of exp(-k)'s is settled by the following words.
        """
        leading = self._words(size)
        above = np.searchsorted(_EXP_NEG_LEADING_ASCENDING, leading, side="right")
        count = (MAX_EXP_STEP - above).astype(np.int64)
        tied = np.searchsorted(_EXP_NEG_LEADING_ASCENDING, leading, side="left") < above
        for index in np.flatnonzero(tied):  # probability about 2^-57 per draw
            count[index] = self._count_below_exact(int(leading[index]))
        if np.any(count >= MAX_EXP_STEP):
            raise NoiseOverflow("a geometric run beyond 126 successes was refused")
        return count

    def _count_below_exact(self, leading: int) -> int:
        """The count for a uniform whose leading word equals some exp(-k)'s: its next words decide."""
        uniform = (leading, *(int(word) for word in self._words(TIE_WORDS - 1)))
        if uniform in _EXP_NEG:
            raise NoiseOverflow("a uniform matching exp(-k) on 192 bits was refused")
        return sum(uniform < words for words in _EXP_NEG)

    def bernoulli_exp_whole(self, whole: np.ndarray) -> np.ndarray:
        """Bernoulli(exp(-w_i)) for integers w_i >= 0: exp(-w) is a product of exp(-m), m <= 127, each
        drawn by comparing one uniform with the exact words of exp(-m)."""
        alive = np.ones(whole.size, dtype=bool)
        left = whole.copy()
        while True:
            pending = np.flatnonzero(alive & (left > 0))
            if pending.size == 0:
                return alive
            step = np.minimum(left[pending], MAX_EXP_STEP)
            alive[pending] = self.count_exp_thresholds(pending.size) >= step
            left[pending] -= step

    def bernoulli_exp_fraction(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Bernoulli(exp(-a_i / b_i)) for 0 <= a_i <= b_i (CKS Algorithm 1, case gamma <= 1).

        K counts up while Bernoulli(gamma / K) = Bernoulli(a / (b K)) succeeds; the answer is whether the
        final K is odd. b K stays in int64 up to K = 127 for b <= 2^56 (K > 127 has probability < 1/127!).
        """
        final_k = np.ones(a.size, dtype=np.int64)
        active = np.arange(a.size)
        k = 1
        while active.size:
            if k > MAX_EXP_STEP or np.any(b[active] > _MAX_INT // k):
                raise NoiseOverflow("a Bernoulli(exp(-gamma)) run beyond 64-bit arithmetic was refused")
            success = self.below(b[active] * k) < a[active]
            active = active[success]
            k += 1
            final_k[active] = k
        return (final_k % 2) == 1

    def bernoulli_exp(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        """Bernoulli(exp(-a_i / b_i)) for any a_i >= 0 (CKS Algorithm 1): Bernoulli(exp(-floor(gamma)))
        and Bernoulli(exp(-(gamma - floor(gamma)))) must both succeed."""
        whole, rest = np.divmod(a, b)
        result = self.bernoulli_exp_whole(whole)
        live = np.flatnonzero(result)
        result[live] = self.bernoulli_exp_fraction(rest[live], b[live])
        return result


@dataclass(frozen=True)
class RationalScale:
    """A noise scale t / s as the exact rational its float denotes."""

    numerator: int
    denominator: int

    @classmethod
    def of(cls, scale: float) -> RationalScale:
        exact = Fraction(scale)
        return cls(exact.numerator, exact.denominator)


def laplace_supported(scale: float) -> bool:
    """Whether :func:`discrete_laplace` runs ``scale`` in int64 arithmetic."""
    rational = RationalScale.of(scale)
    return rational.numerator <= _MAX_LAPLACE_NUMERATOR and rational.denominator <= _MAX_LAPLACE_DENOMINATOR


def gaussian_supported(sigma: float) -> bool:
    """Whether :func:`discrete_gaussian` runs ``sigma`` in int64 arithmetic."""
    low, high = _GAUSSIAN_SIGMA_RANGE
    return low <= sigma <= high


def _laplace_chunk(uniform: _Uniform, t: int, s: int, size: int) -> np.ndarray:
    """CKS Algorithm 2: ``size`` draws with P(z) proportional to exp(-|z| s / t).

    U uniform on [0, t) kept with probability exp(-U / t), V with P(V >= k) = e^-k, X = U + t V (so
    P(X = x) is proportional to exp(-x / t)), Y = floor(X / s), a random sign, and Y = 0 with the sign
    "negative" rejected so that 0 is not counted twice. V and the sign are drawn for kept U only.
    """
    out = np.empty(size, dtype=np.int64)
    todo = np.arange(size)
    t_vector = np.full(size, t, dtype=np.int64)
    while todo.size:
        u = uniform.below(t_vector[: todo.size])
        kept_u = uniform.bernoulli_exp_fraction(u, t_vector[: todo.size])
        u, candidates = u[kept_u], todo[kept_u]
        v = uniform.count_exp_thresholds(candidates.size)
        if np.any(v > (_MAX_INT - t) // t):
            raise NoiseOverflow("a discrete Laplace draw beyond 64-bit arithmetic was refused")
        y = (u + t * v) // s
        negative = uniform.signs(candidates.size)
        keep = ~(negative & (y == 0))
        out[candidates[keep]] = np.where(negative[keep], -y[keep], y[keep])
        done = np.zeros(size, dtype=bool)
        done[candidates[keep]] = True
        todo = todo[~done[todo]]
    return out


def _gaussian_chunk(uniform: _Uniform, sigma_squared: Fraction, size: int) -> np.ndarray:
    """CKS Algorithm 3: proposals Y ~ Lap_Z(t), t = floor(sigma) + 1, kept with probability
    exp(-(|Y| - sigma^2 / t)^2 / (2 sigma^2)) = exp(-(|Y| t Q - P)^2 / (2 P Q t^2)) for sigma^2 = P / Q."""
    p, q = sigma_squared.numerator, sigma_squared.denominator
    t = math.isqrt(p // q) + 1  # floor(sigma) + 1
    limit = 512 * t
    out = np.empty(size, dtype=np.int64)
    todo = np.arange(size)
    while todo.size:
        n = todo.size
        y = _laplace_chunk(uniform, t, 1, n)
        if np.any(np.abs(y) >= limit):
            raise NoiseOverflow("a discrete Gaussian proposal beyond 64-bit arithmetic was refused")
        c = np.abs(y) * (t * q) - p
        keep = uniform.bernoulli_exp(c * c, np.full(n, 2 * p * q * t * t, dtype=np.int64))
        out[todo[keep]] = y[keep]
        todo = todo[~keep]
    return out


def gaussian_variance(sigma: float) -> Fraction:
    """sigma^2 rounded up to a multiple of 2^-k, k the least with sigma^2 2^k >= 2^20 (k >= 0)."""
    exact = Fraction(sigma) ** 2
    k = max(0, _GAUSSIAN_PRECISION_BITS - math.floor(math.log2(exact)))
    q = 2**k
    return Fraction(math.ceil(exact * q), q)


def discrete_laplace(scale: float, size: int, words: WordSource = os_words) -> np.ndarray:
    """``size`` int64 draws with P(z) proportional to exp(-|z| / scale); ``laplace_supported(scale)``."""
    if not laplace_supported(scale):
        raise ValueError(f"scale {scale!r} is outside the int64 range of the vector sampler")
    rational = RationalScale.of(scale)
    uniform = _Uniform(words)
    parts = [
        _laplace_chunk(uniform, rational.numerator, rational.denominator, min(CHUNK, size - start))
        for start in range(0, size, CHUNK)
    ]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def discrete_gaussian(sigma: float, size: int, words: WordSource = os_words) -> np.ndarray:
    """``size`` int64 draws with P(z) proportional to exp(-z^2 / (2 s^2)), s^2 = gaussian_variance(sigma)."""
    if not gaussian_supported(sigma):
        raise ValueError(f"sigma {sigma!r} is outside the int64 range of the vector sampler")
    variance = gaussian_variance(sigma)
    uniform = _Uniform(words)
    parts = [_gaussian_chunk(uniform, variance, min(CHUNK, size - start)) for start in range(0, size, CHUNK)]
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)
