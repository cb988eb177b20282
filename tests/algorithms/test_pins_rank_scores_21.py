"""Pins of rank_pieces' input checks (dpgui/algorithms/rank_scores.py; mutation scan b21).

- The data's values must be strictly increasing (a repeated value is refused, not merged) and lie in
  [0, size - 1]: a value equal to size is outside the domain.
- Plain lists are taken as well as arrays, and give the same pieces.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.rank_scores import quantile_score, rank_pieces


def test_a_repeated_value_is_refused() -> None:
    with pytest.raises(ValueError, match="strictly increasing"):
        rank_pieces(np.array([3, 3], dtype=np.uint64), np.array([1, 1]), 10, quantile_score(2, 0.5))


def test_a_value_equal_to_the_domain_size_is_refused() -> None:
    with pytest.raises(ValueError, match="outside the domain"):
        rank_pieces(np.array([10], dtype=np.uint64), np.array([1]), 10, quantile_score(1, 0.5))


def test_lists_give_the_pieces_of_arrays() -> None:
    score = quantile_score(3, 0.5)
    lists = rank_pieces([3, 7], [1, 2], 10, score)
    arrays = rank_pieces(np.array([3, 7], dtype=np.uint64), np.array([1, 2]), 10, score)
    for got, want in zip(
        (lists.starts, lists.ends, lists.scores), (arrays.starts, arrays.ends, arrays.scores), strict=True
    ):
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
