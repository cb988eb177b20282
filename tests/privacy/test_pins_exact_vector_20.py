"""Pins from the privacy20 mutation scan of dpgui/privacy/exact_vector.py (the vectorised CKS 2020 samplers).

The samplers only read 64-bit words, so a scripted word source makes each step deterministic: the tests
state which word is kept, which value comes out, and how many words are read. Sources: Canonne, Kamath and
Steinke 2020, "The Discrete Gaussian for Differential Privacy", Algorithms 1-3, and the module's docstrings
(unbiased rejection "w - (w mod m) <= 2^64 - m").
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction

import numpy as np
import pytest

from dpgui.privacy import exact_vector
from dpgui.privacy.exact_vector import _Uniform

TWO64 = 2**64


class Script:
    """A word source that hands out the listed words in order and counts them."""

    def __init__(self, words: list[int]) -> None:
        self._words: Iterator[int] = iter(words)
        self.read = 0

    def __call__(self, count: int) -> np.ndarray:
        self.read += count
        return np.array([next(self._words) for _ in range(count)], dtype=np.uint64)


def kept(m: int, w: int) -> bool:
    """The unbiased rule: w is kept when it lies in a whole block of m values below 2^64."""
    return w < (TWO64 // m) * m


@pytest.mark.parametrize(
    ("m", "w"),
    [
        (3, 2**62 + 1),  # an ordinary word
        (3, TWO64 - 1),  # the partial block at the top (2^64 = 1 mod 3): rejected
        (3, TWO64 - 2),  # the last whole block: kept
        (4, TWO64 - 1),  # m divides 2^64: the top block is whole and kept
        (3 * 2**61, 2**62),  # m = 3/8 of 2^64: two whole blocks, this word in the first
        (3 * 2**61, 2**63),  # ... in the second
        (3 * 2**61, 3 * 2**62 + 5),  # ... and in the partial block of 2^62 values at the top: rejected
        (2**63 - 25, 2**63 + 5),  # two blocks, the second whole
        (2**63 - 25, TWO64 - 30),  # the partial block of 50 values at the top
    ],
)
def test_below_keeps_exactly_the_words_in_whole_blocks(m: int, w: int) -> None:
    """Guards _Uniform.below (exact_vector.py:92/93): a word is kept iff it lies in a whole block of m values,
    and then the draw is w mod m; otherwise the next word is read. (w + r) for (w - r) keeps the wrong words
    (for m near 2^63 only the first third of [0, m)), which biases every uniform drawn below a large bound."""
    fallback = 1  # kept for every m here; the read count tells it apart from a kept w
    source = Script([w, fallback])
    got = int(_Uniform(source).below(np.array([m], dtype=np.int64))[0])
    if kept(m, w):
        assert (got, source.read) == (w % m, 1)
    else:
        assert (got, source.read) == (1, 2)


@pytest.mark.parametrize(("third", "count"), [(-1, 1), (+1, 0)])
def test_a_tie_on_two_words_is_settled_by_the_third(third: int, count: int) -> None:
    """Guards _Uniform._count_below_exact (exact_vector.py:122/125): a uniform whose first two words equal
    exp(-1)'s is compared on all TIE_WORDS = 3 words, so its third word decides whether U < exp(-1). Reading
    one word fewer settles every such tie as 'below'."""
    leading, second, last = exact_vector._EXP_NEG[0]
    source = Script([int(leading), int(second), int(last) + third])
    got = _Uniform(source).count_exp_thresholds(1)
    assert (int(got[0]), source.read) == (count, 3)


def seeded_words(seed: int) -> exact_vector.WordSource:
    generator = np.random.Generator(np.random.PCG64(seed))
    return lambda count: generator.integers(0, 2**64, size=count, dtype=np.uint64)


SIZES = [0, 1, 1023, exact_vector.CHUNK - 1, exact_vector.CHUNK, 2 * exact_vector.CHUNK + 3]


@pytest.mark.parametrize("size", SIZES)
def test_discrete_laplace_returns_exactly_the_draws_asked(size: int) -> None:
    """Guards the chunking of discrete_laplace (exact_vector.py:255/256/258): one draw per entry asked, in
    chunks of CHUNK, none for an empty vector. A max for the min, a start at 1 or a zero-length vector of one
    entry hands back too many or too few draws."""
    draws = exact_vector.discrete_laplace(2.5, size, seeded_words(size + 1))
    assert draws.shape == (size,)
    assert draws.dtype == np.int64


@pytest.mark.parametrize("size", SIZES)
def test_discrete_gaussian_returns_exactly_the_draws_asked(size: int) -> None:
    """Guards the chunking of discrete_gaussian (exact_vector.py:267/268), as for the Laplace sampler."""
    draws = exact_vector.discrete_gaussian(1.5, size, seeded_words(size + 2))
    assert draws.shape == (size,)
    assert draws.dtype == np.int64


@pytest.mark.parametrize(("sigma", "k"), [(1.0, 20), (1.7, 19), (3.3, 17), (2047.5, 0)])
def test_gaussian_variance_is_rounded_up_on_the_grid_of_2_to_the_minus_k(sigma: float, k: int) -> None:
    """Guards gaussian_variance (exact_vector.py:243-245): sigma^2 is rounded *up* to a multiple of 2^-k,
    k = max(0, 20 - floor(log2 sigma^2)), the least k with sigma^2 2^k >= 2^20 (module docstring). A finer or
    coarser grid, or rounding down, gives another rational."""
    exact = Fraction(sigma) ** 2
    assert exact * 2**k >= 2**20 or k == 0
    assert exact_vector.gaussian_variance(sigma) == Fraction(math.ceil(exact * 2**k), 2**k)


def test_the_vector_gaussian_sampler_covers_its_whole_closed_range() -> None:
    """Guards gaussian_supported (exact_vector.py:190): sigma in the closed range [1, 2048] runs in int64."""
    assert exact_vector.gaussian_supported(1.0) and exact_vector.gaussian_supported(2048.0)
    assert not exact_vector.gaussian_supported(2048.5)
