"""Pins from the privacy20 mutation scan of dpgui/privacy/sparse_vector.py (lines outside the keyword scan).

Dwork and Roth 2014, Algorithm 2 (Sparse): after each 'above' answer that does not end the session a fresh
noisy threshold is drawn; each of the c rounds is then an (eps / c)-DP AboveThreshold and the session is
eps-DP. Reusing the old noisy threshold breaks that per-round analysis. The existing law test
(test_sparse_vector.observed_scales) accepts a session with no redraw, so this pins the draw sequence.
"""

from __future__ import annotations

import math

import pytest

from dpgui.privacy.sparse_vector import SparseVector, SparseVectorExhausted, SparseVectorParameters
from tests.recording import RecordingRandom


def scales_after(answers: list[float], max_above: int) -> tuple[list[bool], list[float], SparseVector]:
    rng = RecordingRandom(zero=True)
    session = SparseVector(SparseVectorParameters(threshold=0.0, epsilon=1.0, max_above=max_above), rng)
    got = [session.is_above(value) for value in answers]
    return got, [request.scale for request in rng.requests], session


def test_an_above_answer_that_leaves_rounds_draws_a_fresh_threshold() -> None:
    """Guards SparseVector.is_above (sparse_vector.py:83-86): with c = 3 rounds (threshold scale 2c/eps = 6,
    query scale 4c/eps = 12), each of the first two 'above' answers is followed by a threshold draw, the
    last one is not; a 'below' answer never redraws."""
    answers, scales, session = scales_after([-1.0, 1.0, -1.0, 1.0, 1.0], max_above=3)
    assert answers == [False, True, False, True, True]
    assert scales == [6.0, 12.0, 12.0, 6.0, 12.0, 12.0, 6.0, 12.0]
    assert session.exhausted and session.above_count == 3
    with pytest.raises(SparseVectorExhausted):
        session.is_above(1.0)


def test_one_round_is_the_default_and_ends_at_the_first_above() -> None:
    """Guards the default max_above = 1 (sparse_vector.py:31; HeavyPaths relies on it): the session ends at
    its first 'above' answer, at threshold scale 2/eps and query scale 4/eps, and draws no new threshold."""
    rng = RecordingRandom(zero=True)
    session = SparseVector(SparseVectorParameters(threshold=0.0, epsilon=1.0), rng)
    assert [session.is_above(-1.0), session.is_above(1.0)] == [False, True]
    assert [request.scale for request in rng.requests] == [2.0, 4.0, 4.0]
    assert session.exhausted


@pytest.mark.parametrize(
    ("epsilon", "max_above", "queries", "beta", "alpha"),
    [
        (1.0, 1, 10, 0.1, 8 * math.log(200)),
        (1.0, 2, 10, 0.1, 16 * math.log(400)),
        (0.5, 3, 7, 0.05, 48 * math.log(840)),
    ],
)
def test_the_stated_accuracy_is_8c_over_eps_times_ln_2mc_over_beta(
    epsilon: float, max_above: int, queries: int, beta: float, alpha: float
) -> None:
    """Guards SparseVectorParameters.accuracy (sparse_vector.py:55): alpha = (8 c / eps) ln(2 m c / beta)
    (Dwork and Roth 2014, Thm 3.28 with a union bound over the c rounds). The earlier keyword scan left seven
    of its mutants alive (notes/mutscan.md (b)); HeavyPaths sizes its SVT from it."""
    params = SparseVectorParameters(threshold=0.0, epsilon=epsilon, max_above=max_above)
    assert math.isclose(params.accuracy(queries, beta), alpha, rel_tol=1e-12)
