"""Learning thresholds through an interior point (spec 002 s7): the reduction's data, its budget, and
its accuracy on realizable data with the EM and the TreeLog solver."""

import collections
import functools
import itertools
import math

import numpy as np
import pytest

from dpgui.algorithms.learners.ip_threshold import (
    InteriorSolver,
    IPThresholdParameters,
    _take,
    ip_threshold,
    positive_cuts,
)
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from tests.exact import max_log_ratio
from tests.recording import noisy_count_law


def labelled(n: int, size: int, boundary: int, seed: int):
    gen = np.random.Generator(np.random.PCG64(seed))
    x = gen.integers(0, size, n)
    values, inverse = np.unique(x, return_inverse=True)
    pos = np.bincount(inverse, weights=x <= boundary, minlength=values.size).astype(np.int64)
    neg = np.bincount(inverse, minlength=values.size) - pos
    return x, values.astype(np.uint64), pos, neg


def test_take_returns_the_first_k_records_with_multiplicities() -> None:
    values, counts = _take(np.array([5, 7, 9], np.uint64), np.array([2, 3, 4]), 4)
    assert values.tolist() == [5, 7] and counts.tolist() == [2, 2]


def test_reduction_data_changes_by_at_most_one_record_between_neighbours() -> None:
    x, values, pos, neg = labelled(300, 1000, 400, 1)
    k = 20
    for flip in range(0, 300, 7):  # flip one label: a replace-one neighbour
        pos2, neg2 = pos.copy(), neg.copy()
        j = int(np.searchsorted(values, x[flip]))
        if pos[j] > 0:
            pos2[j] -= 1
            neg2[j] += 1
        else:
            pos2[j] += 1
            neg2[j] -= 1

        a = collections.Counter(reduction_multiset(values, pos, neg, k))
        b = collections.Counter(reduction_multiset(values, pos2, neg2, k))
        assert sum((a - b).values()) <= 1 and sum((b - a).values()) <= 1


def reduction_multiset(values: np.ndarray, pos: np.ndarray, neg: np.ndarray, k: int) -> list[int]:
    """S: the k largest positives and the k smallest negatives, as a sorted list of values."""
    top, bottom = _take(values[::-1], pos[::-1], k), _take(values, neg, k)
    return sorted(int(v) for v, c in [*zip(*top, strict=True), *zip(*bottom, strict=True)] for _ in range(c))


def test_a_general_replacement_can_move_two_records_so_the_solver_runs_at_half_budget() -> None:
    values = np.array([1, 2, 3, 6, 7, 8], np.uint64)
    s = reduction_multiset(values, np.array([1, 1, 1, 0, 0, 0]), np.array([0, 0, 0, 1, 1, 1]), 2)
    # replace the record (3, +) by (0, -)
    values2 = np.array([0, 1, 2, 6, 7, 8], np.uint64)
    s2 = reduction_multiset(values2, np.array([0, 1, 1, 0, 0, 0]), np.array([1, 0, 0, 1, 1, 1]), 2)
    assert s == [2, 3, 6, 7] and s2 == [0, 1, 2, 6]  # two substitutions: 3 -> 1 and 7 -> 0
    params = IPThresholdParameters(100, 16, 1.0, 1e-6, 0.05, InteriorSolver.TREELOG)
    assert params.step_epsilon == pytest.approx(params.solver_epsilon / 2)
    assert params.step_delta * (1 + np.exp(params.step_epsilon)) == pytest.approx(params.delta)


@pytest.mark.parametrize("solver", [InteriorSolver.EM, InteriorSolver.TREELOG])
def test_realizable_error_is_within_the_bound(solver: InteriorSolver) -> None:
    size, eps, delta = 2**16, 1.0, 1e-6
    probe = IPThresholdParameters(10**5, size, eps, delta, 0.05, solver)
    n = int(10 * (2 * probe.k + 2 * probe.count_margin))
    params = IPThresholdParameters(n, size, eps, delta, 0.05, solver)
    x, values, pos, neg = labelled(n, size, 30000, 2)
    rng = SeededRandom(3)
    failures = 0
    for _ in range(20):
        hypothesis = run_to_end(ip_threshold(values, pos, neg, params, rng)).hypothesis
        predicted = hypothesis.predict(x.astype(np.uint64))
        failures += np.mean(predicted != (x <= 30000)) > params.error_rate
    assert failures <= 3


def test_cost_is_pure_with_em_and_approximate_with_treelog() -> None:
    em = IPThresholdParameters(5000, 2**16, 1.0, 1e-6, 0.05, InteriorSolver.EM)
    tl = IPThresholdParameters(5000, 2**16, 1.0, 1e-6, 0.05, InteriorSolver.TREELOG)
    assert em.cost == PrivacyCost(1.0) and tl.cost == PrivacyCost(1.0, 1e-6)
    assert em.count_epsilon + em.solver_epsilon == pytest.approx(1.0)


def test_few_positives_release_the_always_negative_hypothesis() -> None:
    _, values, pos, neg = labelled(3000, 2**10, -1, 4)
    params = IPThresholdParameters(3000, 2**10, 1.0, 0.0, 0.05, InteriorSolver.EM)
    hypothesis = run_to_end(ip_threshold(values, pos, neg, params, SeededRandom(5))).hypothesis
    assert hypothesis.never_positive


@pytest.mark.parametrize("solver", [InteriorSolver.EM, InteriorSolver.TREELOG])
def test_a_separable_label_on_a_grid_with_ties_is_learned_without_error(solver: InteriorSolver) -> None:
    # education in whole years on the grid 0..20, positive iff education < 12 (issue 15, item 1a): the
    # interior point of the cuts is 12 whichever side it falls, so h(x) = 1[x < 12] has no error
    x, values, pos, neg = labelled(28_000, 21, 11, 6)
    params = IPThresholdParameters(x.size, 21, 1.0, 1e-6, 0.05, solver)
    rng = SeededRandom(7)
    for _ in range(30):
        hypothesis = run_to_end(ip_threshold(values, pos, neg, params, rng)).hypothesis
        assert hypothesis.boundary == 11
        assert np.mean(hypothesis.predict(x.astype(np.uint64)) != (x <= 11)) == 0


def test_positive_records_enter_the_solver_as_the_cut_just_after_them() -> None:
    cuts = positive_cuts(np.array([0, 5, 2**64 - 1], np.uint64), 2**64)
    assert cuts.tolist() == [1, 6, 2**64 - 1]


@functools.cache
def sampled_law(records: tuple[tuple[int, bool], ...], params: IPThresholdParameters) -> dict[int, float]:
    """The exact law of the released cut with the EM solver: the noisy count's regimes at the scale the
    code requests, and the interior point's selections as the code computes them (tests/recording.py)."""
    values = np.arange(params.size, dtype=np.uint64)
    positives = np.bincount([x for x, y in records if y], minlength=params.size).astype(np.int64)
    negatives = np.bincount([x for x, y in records if not y], minlength=params.size).astype(np.int64)
    return noisy_count_law(
        lambda rng: run_to_end(ip_threshold(values, positives, negatives, params, rng)).hypothesis.cut
    )


def test_every_replace_one_neighbour_has_log_ratio_at_most_epsilon() -> None:
    """On tiny data (n 8, 4 grid values, k 3) every replacement of one record moves every cut's
    probability by at most e^eps."""
    params = IPThresholdParameters(8, 4, 8.0, 0.0, 0.5, InteriorSolver.EM)
    records = [(x, y) for x in range(4) for y in (False, True)]
    data = [records[int(i)] for i in np.random.default_rng(2).integers(0, len(records), params.n)]
    base = sampled_law(tuple(sorted(data)), params)
    assert math.fsum(base.values()) == pytest.approx(1.0) and len(base) > 2
    for i, replacement in itertools.product(range(params.n), records):
        neighbour = tuple(sorted((*data[:i], replacement, *data[i + 1 :])))
        assert max_log_ratio(base, sampled_law(neighbour, params)) <= params.epsilon * (1 + 1e-9)


def test_the_worst_neighbours_of_a_search_stay_within_epsilon() -> None:
    """The worst pair of a random search (n 8, 3 grid values, eps 8: log ratio 7.3, a positive replaced by a
    negative moves both the top-k positives and the bottom-k negatives): the solver at its full share
    instead of half would break e^eps."""
    params = IPThresholdParameters(8, 3, 8.0, 0.0, 0.5, InteriorSolver.EM)
    data = ((0, True), (0, True), (1, False), (1, True), (1, True), (1, True), (2, False), (2, False))
    neighbour = ((0, True), (0, True), (1, False), (1, False), (1, True), (1, True), (2, False), (2, False))
    ratio = max_log_ratio(sampled_law(data, params), sampled_law(neighbour, params))
    assert 7.2 < ratio <= params.epsilon
