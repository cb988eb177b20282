"""Rank-score pieces equal the brute-force scores and give an exactly eps-DP exponential mechanism."""

import functools
import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.rank_scores import em_over_ranks, interior_point_score, quantile_score, rank_pieces
from tests.exact import max_log_ratio
from tests.recording import RecordingRandom, chosen_law

SIZE = 8


def aggregate(data: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    values, counts = np.unique(np.array(data, dtype=np.uint64), return_counts=True)
    return values, counts


def brute_force(data: tuple[int, ...], score_name: str, q: float = 0.5) -> np.ndarray:
    x = np.array(data)
    n = len(data)
    out = []
    for y in range(SIZE):
        below, at_or_below, at_or_above = (x < y).sum(), (x <= y).sum(), (x >= y).sum()
        if score_name == "interior":
            out.append(min(at_or_below, at_or_above))
        else:
            out.append(-max(below - q * n, q * n - at_or_below, 0))
    return np.array(out, dtype=float)


def dense_from_pieces(data: tuple[int, ...], score_name: str, q: float = 0.5) -> np.ndarray:
    values, counts = aggregate(data)
    n = len(data)
    score = interior_point_score(n) if score_name == "interior" else quantile_score(n, q)
    pieces = rank_pieces(values, counts, SIZE, score)
    assert int(pieces.starts[0]) == 0 and int(pieces.ends[-1]) == SIZE - 1
    return np.repeat(pieces.scores, (pieces.ends - pieces.starts + 1).astype(np.int64))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, SIZE - 1), min_size=1, max_size=9), st.sampled_from([0.0, 0.1, 0.5, 0.9, 1.0]))
def test_pieces_equal_brute_force_scores(data, q):
    """Every q in [0, 1], the minimum and the maximum included."""
    data = tuple(data)
    assert np.array_equal(dense_from_pieces(data, "interior"), brute_force(data, "interior"))
    assert np.allclose(dense_from_pieces(data, "quantile", q), brute_force(data, "quantile", q))


def replace_one_pairs(n: int):
    for data in itertools.combinations_with_replacement(range(SIZE), n):
        for i, new in itertools.product(range(n), range(SIZE)):
            other = list(data)
            other[i] = new
            yield data, tuple(sorted(other))


@functools.cache
def observed_point_law(data: tuple[int, ...], score_name: str, epsilon: float) -> dict[object, float]:
    """P(point) of em_over_ranks: the piece law it hands to Gumbel-max, uniform inside each piece."""
    values, counts = aggregate(data)
    n = len(data)
    score = interior_point_score(n) if score_name == "interior" else quantile_score(n, 0.5)
    rng = RecordingRandom(1)
    run_to_end(em_over_ranks(values, counts, SIZE, score, epsilon, rng))
    [log_weights] = rng.log_weights
    pieces = rank_pieces(values, counts, SIZE, score)
    law: dict[object, float] = {}
    for piece, p in enumerate(chosen_law(log_weights)):
        start, end = int(pieces.starts[piece]), int(pieces.ends[piece])
        law.update({point: p / (end - start + 1) for point in range(start, end + 1)})
    return law


def test_exponential_mechanism_over_rank_pieces_is_exactly_eps_dp():
    """Every replace-one pair of 4-record databases on 8 points: max log-ratio of the sampled laws <= eps."""
    eps = 1.3
    worst = 0.0
    for score_name in ("interior", "quantile"):
        for data, other in replace_one_pairs(4):
            p, q = observed_point_law(data, score_name, eps), observed_point_law(other, score_name, eps)
            worst = max(worst, max_log_ratio(p, q))
    assert eps / 2 < worst <= eps + 1e-9


def test_score_sensitivity_is_one_but_an_unclipped_score_would_exceed_it():
    """The quantile score moves by at most 1 under replace-one; the check catches a score that moves by 2."""
    worst = 0.0
    for data, other in replace_one_pairs(3):
        worst = max(
            worst, np.abs(dense_from_pieces(data, "quantile") - dense_from_pieces(other, "quantile")).max()
        )
    assert worst == 1.0
    doubled = max(
        np.abs(2 * dense_from_pieces(d, "quantile") - 2 * dense_from_pieces(o, "quantile")).max()
        for d, o in replace_one_pairs(3)
    )
    assert doubled > 1.0


def test_edge_values_zero_and_top_produce_no_empty_pieces():
    values = np.array([0, 1, SIZE - 1], dtype=np.uint64)
    pieces = rank_pieces(values, np.array([2, 1, 1]), SIZE, interior_point_score(4))
    assert int(pieces.starts[0]) == 0 and int(pieces.ends[-1]) == SIZE - 1
    assert np.all(pieces.ends >= pieces.starts)
