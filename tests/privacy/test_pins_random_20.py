"""Pins from the privacy20 mutation scan of dpgui/privacy/random.py (lines no keyword scan had reached).

Each check is exact: the helpers are pure functions of their inputs, or a draw is fed chosen uniforms, so a
wrong constant or operator changes a value the test states outright. Sources: the discrete Laplace law
P(z) = (1 - r) / (1 + r) r^|z| with r = exp(-1 / scale) (Canonne, Kamath and Steinke 2020, s2.2 and
Algorithm 2; Inusah and Kozubowski 2006), and the module's own docstrings.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest

from dpgui.privacy.random import (
    SecureRandom,
    SeededRandom,
    _uniform_from_uint64,
    discrete_laplace_tail,
)
from tests.exact import discrete_laplace_pmf

SCALE_HALF = 1 / math.log(2)
"""The scale at which r = exp(-1 / scale) = 1/2, so that the discrete Laplace law has simple exact values."""


class ScriptedUniform(SeededRandom):
    """A PrivateRandom whose uniform01 returns the given values (post-processing helpers read only these)."""

    def __init__(self, values: list[float]) -> None:
        super().__init__(0)
        self._values = np.array(values, dtype=np.float64)

    def uniform01(self, size: int) -> np.ndarray:
        assert size == self._values.size
        return self._values.copy()


def test_uniform_from_words_is_the_midpoint_of_the_top_53_bits() -> None:
    """Guards _uniform_from_uint64 (random.py:54) and _TWO53 (:38): word w maps to
    (floor(w / 2^11) + 1/2) / 2^53 (exact for these words). A shift by 12 bits, an offset other than 1/2, or
    2^52 or 2^54 for 2^53 change them."""
    words = np.array([0, 2**11 - 1, 2**11, 5 * 2**11 + 7, 2**62], dtype=np.uint64)
    got = [Fraction(float(x)) for x in _uniform_from_uint64(words)]
    assert got == [
        Fraction(1, 2**54),
        Fraction(1, 2**54),
        Fraction(3, 2**54),
        Fraction(11, 2**54),
        Fraction(2**52 + 1, 2**54),
    ]


def test_uniform_from_words_stays_below_one_for_the_largest_words() -> None:
    """The documented open interval (0, 1) (PrivateRandom.uniform01, _uniform_from_uint64): for the largest
    words, (2^53 - 1) + 1/2 is not a float and rounds to 2^53, so the uniform was exactly 1.0 (probability
    2^-53 per draw) and the Gumbel noise -ln(-ln 1) = +inf, which makes an exponential-mechanism draw ignore
    the scores. Found by the privacy20 mutation scan; fails before the fix."""
    words = np.array([2**64 - 1, 2**64 - 2**11, 2**64 - 2**11 - 1], dtype=np.uint64)
    got = _uniform_from_uint64(words)
    assert np.all(got < 1.0), got.tolist()
    assert np.all(got >= 1 - 2.0**-52)
    with np.errstate(divide="ignore"):
        assert np.all(np.isfinite(-np.log(-np.log(got))))


def test_uniform_ints_maps_each_uniform_to_the_floor_of_u_times_n() -> None:
    """Guards PrivateRandom.uniform_ints (random.py:95): the value is floor(u n), so each of the n values
    takes an equal share 1/n of (0, 1); a ceiling, a max for the min, or a cap below n - 1 moves the
    boundaries."""
    n = 4
    uniforms = [2.0**-54, 0.25 - 2.0**-55, 0.25, 0.5 - 2.0**-54, 0.5, 0.75 - 2.0**-53, 0.75, 1 - 2.0**-53]
    got = ScriptedUniform(uniforms).uniform_ints(n, len(uniforms))
    assert got.tolist() == [0, 0, 1, 1, 2, 2, 3, 3]
    assert got.dtype == np.int64


def test_discrete_laplace_pmf_has_its_exact_values_at_r_one_half() -> None:
    """Guards the oracle discrete_laplace_pmf (tests/exact.py): at r = 1/2 the law is P(0) = 1/3,
    P(+-1) = 1/6, P(+-2) = 1/12 (normaliser (1 - r) / (1 + r))."""
    z = np.array([-2, -1, 0, 1, 2, 5])
    got = discrete_laplace_pmf(z, SCALE_HALF)
    expected = np.array([1 / 12, 1 / 6, 1 / 3, 1 / 6, 1 / 12, 1 / 96])
    np.testing.assert_allclose(got, expected, rtol=1e-12)


@pytest.mark.parametrize(("k", "tail"), [(0, 2 / 3), (1, 1 / 3), (2, 1 / 6), (5, 1 / 48)])
def test_discrete_laplace_tail_has_its_exact_values_at_r_one_half(k: int, tail: float) -> None:
    """Guards discrete_laplace_tail (random.py:231): P(Z >= k) = r^k / (1 + r), so 2/3 at k = 0 and halving
    with each step at r = 1/2 (the noise-bound refusals and the accuracy statements use it)."""
    assert math.isclose(discrete_laplace_tail(k, SCALE_HALF), tail, rel_tol=1e-12)


@pytest.mark.parametrize("size", [0, 1, 2, 1023, 1024])
@pytest.mark.parametrize("kind", ["laplace", "gaussian"])
def test_secure_random_returns_exactly_the_draws_asked(kind: str, size: int) -> None:
    """Guards SecureRandom's noise paths (random.py:126-136, 161-166): OpenDP below VECTOR_SAMPLER_MIN_SIZE,
    the vector sampler from it; each returns one int64 draw per entry asked. (A count of one answered with an
    empty vector would broadcast a one-entry release to an empty one.)"""
    rng = SecureRandom()
    draw = rng.discrete_laplace if kind == "laplace" else rng.discrete_gaussian
    noise = draw(2.0, size)
    assert noise.shape == (size,)
    assert noise.dtype == np.int64


class ScriptedBytes:
    """Stands in for SeededRandom's numpy generator: ``bytes`` hands out the listed byte strings in order."""

    def __init__(self, chunks: list[bytes]) -> None:
        self._chunks = iter(chunks)

    def bytes(self, length: int) -> bytes:
        chunk = next(self._chunks)
        assert len(chunk) == length
        return chunk


def test_seeded_randbelow_rejects_a_big_value_equal_to_n() -> None:
    """Guards SeededRandom.randbelow's rejection loop for n > 2^62 (random.py:186-190): a candidate of
    n.bit_length() bits is kept only when below n, so a candidate equal to n is redrawn (the result lies in
    [0, n), as PrivateRandom.randbelow states)."""
    n = 2**64 + 5
    bits = n.bit_length()  # 65: 9 bytes, of which the top 65 bits are used
    shift = -bits % 8
    rng = SeededRandom(0)
    rng._generator = ScriptedBytes(  # type: ignore[assignment]
        [(n << shift).to_bytes(9, "big"), ((n - 1) << shift).to_bytes(9, "big")]
    )
    assert rng.randbelow(n) == n - 1


def test_seeded_discrete_gaussian_fills_every_entry_with_a_draw() -> None:
    """Guards SeededRandom.discrete_gaussian's fill loop (random.py:201-210): every entry is an accepted
    proposal. Starting the count of filled entries at 1 would hand back entry 0 uninitialised (np.empty):
    one-entry draws then stop varying or leave the law's range."""
    rng = SeededRandom(7)
    draws = np.array([int(rng.discrete_gaussian(50.0, 1)[0]) for _ in range(200)])
    assert np.all(np.abs(draws) < 50 * 8)
    assert np.unique(draws).size > 50
    assert 30 < draws.std() < 70
