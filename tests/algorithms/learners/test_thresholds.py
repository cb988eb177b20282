"""The pure-DP threshold learner (spec 000 s3.3) and LearnThresholds (spec 000 s4.4)."""

from __future__ import annotations

import functools
import itertools
import math

import numpy as np
import pytest

from dpgui.algorithms.learners.thresholds import (
    Direction,
    em_threshold,
    em_threshold_error_rate,
    learn_thresholds,
    learn_thresholds_min_n,
    smallest_alpha,
    threshold_quality,
)
from dpgui.algorithms.progress import Progress, run_to_end
from dpgui.algorithms.recconcave import exponential_mechanism_step
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from tests.exact import binomial_upper, max_log_ratio, threshold_log_probabilities
from tests.recording import SteeredRandom, enumerated_law


def counts(rows: list[tuple[int, bool]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    xs = np.array([x for x, _ in rows], dtype=np.uint64)
    ys = np.array([y for _, y in rows], dtype=bool)
    values, inverse = np.unique(xs, return_inverse=True)
    pos = np.bincount(inverse, weights=ys, minlength=values.size).astype(np.int64)
    return values, pos, np.bincount(inverse, minlength=values.size).astype(np.int64) - pos


def brute_force_log_probabilities(rows, size, direction, epsilon) -> dict[tuple[str, int], float]:
    """The exponential mechanism over every (family, cut), scoring each hypothesis row by row."""
    scores = {}
    for family in direction.families:
        for cut in range(size + 1):
            predict = (lambda x, c=cut: x >= c) if family is Direction.GE else (lambda x, c=cut: x < c)
            scores[(family.value, cut)] = sum(predict(x) == y for x, y in rows)
    logw = {h: epsilon * s / 2 for h, s in scores.items()}
    top = max(logw.values())
    total = top + math.log(math.fsum(math.exp(w - top) for w in logw.values()))
    return {h: w - total for h, w in logw.items()}


def probabilities(rows, size, direction, epsilon) -> dict[tuple[str, int], float]:
    logp = threshold_log_probabilities(*counts(rows), size, direction, epsilon)
    return {h: math.exp(v) for h, v in logp.items()}


@pytest.mark.parametrize("direction", list(Direction))
def test_piecewise_law_equals_dense_exponential_mechanism(direction: Direction) -> None:
    gen = np.random.default_rng(1)
    for _ in range(40):
        size = int(gen.integers(1, 17))
        rows = [
            (int(gen.integers(0, size)), bool(gen.integers(0, 2))) for _ in range(int(gen.integers(0, 7)))
        ]
        if not rows:
            continue
        fast = threshold_log_probabilities(*counts(rows), size, direction, 0.7)
        dense = brute_force_log_probabilities(rows, size, direction, 0.7)
        assert fast.keys() == dense.keys()
        assert max(abs(fast[h] - dense[h]) for h in fast) < 1e-9


def test_sampler_frequencies_match_the_exact_law() -> None:
    rows = [(1, False), (2, False), (5, True), (6, True), (3, True)]
    values, pos, neg = counts(rows)
    quality = threshold_quality(values, pos, neg, 8, Direction.GE)
    logp = threshold_log_probabilities(values, pos, neg, 8, Direction.GE, 1.0)
    exact = np.array([math.exp(logp[("ge", c)]) for c in range(9)])
    rng = SeededRandom(3)
    trials = 8_000
    seen = np.bincount([exponential_mechanism_step(quality, 1.0, rng) for _ in range(trials)], minlength=9)
    for cut in range(9):
        assert seen[cut] <= binomial_upper(trials, exact[cut])
        assert trials - seen[cut] <= binomial_upper(trials, 1 - exact[cut])


@functools.cache
def sampled_law(rows: tuple[tuple[int, bool], ...], size: int, direction: Direction, epsilon: float) -> dict:
    """The exact law of em_threshold's output, enumerated by steering its family and piece choices and its
    uniform draw inside the piece (probabilities from the log-weights the code hands to Gumbel-max)."""

    def run(rng: SteeredRandom) -> tuple[str, int]:
        hypothesis = run_to_end(em_threshold(*counts(list(rows)), size, direction, epsilon, rng)).hypothesis
        return hypothesis.direction.value, hypothesis.cut

    return enumerated_law(run)


@pytest.mark.parametrize(("size", "direction"), [(8, Direction.GE), (8, Direction.AUTO), (16, Direction.LE)])
def test_every_replace_one_neighbour_has_log_ratio_at_most_epsilon(size: int, direction: Direction) -> None:
    epsilon = 0.9
    gen = np.random.default_rng(size)
    worst = 0.0
    records = [(x, y) for x in range(size) for y in (False, True)]
    for _ in range(12):
        rows = tuple(records[int(i)] for i in gen.integers(0, len(records), 3))
        base = sampled_law(rows, size, direction, epsilon)
        assert math.fsum(base.values()) == pytest.approx(1.0)
        for i, replacement in itertools.product(range(len(rows)), records):
            neighbour = (*rows[:i], replacement, *rows[i + 1 :])
            worst = max(worst, max_log_ratio(base, sampled_law(neighbour, size, direction, epsilon)))
    assert 0.5 * epsilon < worst <= epsilon + 1e-9  # the search reaches near-worst pairs


def concentrated_sample(n: int, gen: np.random.Generator, direction: Direction) -> tuple:
    """All points within 8 grid points of 2^63 on a 64-bit grid; the target cuts at 2^63."""
    support = np.arange(2**63 - 4, 2**63 + 4, dtype=np.uint64)
    weights = np.array([1, 2, 1, 8, 8, 1, 2, 1], dtype=float) / 24
    xs = gen.choice(support, size=n, p=weights)
    target = np.uint64(2**63)
    ys = xs >= target if direction is Direction.GE else xs < target
    values, inverse = np.unique(xs, return_inverse=True)
    pos = np.bincount(inverse, weights=ys, minlength=values.size).astype(np.int64)
    return values, pos, np.bincount(inverse, minlength=values.size).astype(np.int64) - pos, support, weights


def em_records(size: int, direction: Direction, epsilon: float, alpha: float, beta: float) -> int:
    """The least n at which the EM learner's stated error rate (proportional to 1/n) reaches alpha."""
    return math.ceil(em_threshold_error_rate(size, direction, epsilon, beta, 1) / alpha)


def population_error(hypothesis, support, weights, direction) -> float:
    truth = support >= np.uint64(2**63) if direction is Direction.GE else support < np.uint64(2**63)
    return float(np.sum(weights[hypothesis.predict(support) != truth]))


@pytest.mark.parametrize("direction", [Direction.GE, Direction.LE])
def test_em_learner_at_its_bound_succeeds_on_concentrated_data_near_2_63(direction: Direction) -> None:
    alpha = beta = 0.05
    size = 2**64
    n = em_records(size, Direction.AUTO, 1.0, alpha, beta)
    gen = np.random.default_rng(7)
    rng = SeededRandom(7)
    trials = 60
    successes = 0
    for _ in range(trials):
        values, pos, neg, support, weights = concentrated_sample(n, gen, direction)
        release = run_to_end(em_threshold(values, pos, neg, size, Direction.AUTO, 1.0, rng))
        successes += population_error(release.hypothesis, support, weights, direction) <= alpha
    assert successes >= trials * (1 - beta - 3 * math.sqrt(beta * (1 - beta) / trials))


def test_em_learner_handles_a_million_rows_on_a_64_bit_grid() -> None:
    gen = np.random.default_rng(11)
    xs = gen.integers(0, 2**63, 10**6, dtype=np.uint64) * np.uint64(2)
    target = np.uint64(2**63 + 12345)
    ys = xs >= target
    ys[:20_000] = ~ys[:20_000]  # 2% label noise: agnostic
    values, inverse = np.unique(xs, return_inverse=True)
    pos = np.bincount(inverse, weights=ys, minlength=values.size).astype(np.int64)
    neg = np.bincount(inverse, minlength=values.size).astype(np.int64) - pos
    release = run_to_end(em_threshold(values, pos, neg, 2**64, Direction.GE, 1.0, SeededRandom(1)))
    errors = np.count_nonzero(release.hypothesis.predict(xs) != ys)
    assert errors <= 20_000 + 200


def test_progress_reveals_the_threshold_only_after_sampling() -> None:
    values, pos, neg = counts([(1, False), (5, True)])
    steps = list(em_threshold(values, pos, neg, 8, Direction.GE, 1.0, SeededRandom(0)))
    assert all(isinstance(step, Progress) for step in steps)
    assert steps[0].partial is None and steps[-1].partial is not None


def test_all_positive_and_all_negative_samples_give_the_constant_hypotheses() -> None:
    values, pos, neg = counts([(3, True)] * 50 + [(9, True)] * 50)
    hyp = run_to_end(em_threshold(values, pos, neg, 16, Direction.GE, 2.0, SeededRandom(2))).hypothesis
    assert hyp.cut <= 3
    values, pos, neg = counts([(3, False)] * 50 + [(9, False)] * 50)
    hyp = run_to_end(em_threshold(values, pos, neg, 16, Direction.LE, 2.0, SeededRandom(2))).hypothesis
    assert hyp.cut <= 3 and not hyp.predict(np.array([3, 9])).any()


def test_learn_thresholds_noise_off_is_exact_on_realizable_data_on_a_64_bit_grid() -> None:
    gen = np.random.default_rng(5)
    values, pos, neg, support, weights = concentrated_sample(2000, gen, Direction.GE)
    for seed in range(5):
        release = run_to_end(
            learn_thresholds(
                values, pos, neg, 2**64, Direction.GE, PrivacyCost(1e6, 1e-6), 0.05, 2000, SeededRandom(seed)
            )
        )
        assert population_error(release.hypothesis, support, weights, Direction.GE) == 0


def test_learn_thresholds_refuses_an_automatic_direction() -> None:
    values, pos, neg = counts([(1, True)])
    with pytest.raises(ValueError, match="direction"):
        run_to_end(
            learn_thresholds(
                values, pos, neg, 64, Direction.AUTO, PrivacyCost(1, 1e-6), 0.1, 1, SeededRandom(0)
            )
        )


def test_sample_bounds_match_the_spec_numbers() -> None:
    # spec 000 s3.3: about 4,139 at d = 32 and 7,688 at d = 64 (eps = 1, alpha = beta = 0.05)
    assert abs(em_records(2**32, Direction.LE, 1.0, 0.05, 0.05) - 4139) <= 10
    assert abs(em_records(2**64, Direction.LE, 1.0, 0.05, 0.05) - 7688) <= 10
    assert 1e6 < learn_thresholds_min_n(2**32, PrivacyCost(1, 1e-6), 0.05, 0.05) < 1e7
    alpha = smallest_alpha(lambda a: em_records(2**32, Direction.LE, 1.0, a, 0.05), 4139)
    assert alpha == pytest.approx(0.05, rel=0.01)


@pytest.mark.parametrize("bits", [32, 64])
def test_learn_thresholds_at_its_proven_bound_succeeds_on_concentrated_data(bits: int) -> None:
    """Thm 3.18 at its explicit n (millions of rows): the aggregate of n i.i.d. draws is multinomial, so
    the counts are drawn directly; the data is concentrated around the target cut, not uniform."""
    alpha = beta = 0.05
    size = 2**bits
    total = PrivacyCost(1.0, 1e-6)
    n = learn_thresholds_min_n(size, total, alpha, beta)
    centre = 2 ** (bits - 1)
    support = np.arange(centre - 4, centre + 4, dtype=np.uint64)
    weights = np.array([1, 2, 1, 8, 8, 1, 2, 1], dtype=float) / 24
    truth = support >= np.uint64(centre)
    gen = np.random.default_rng(17)
    rng = SeededRandom(17)
    trials = 60
    successes = 0
    for _ in range(trials):
        counts = gen.multinomial(n, weights).astype(np.int64)
        pos = np.where(truth, counts, 0)
        present = counts > 0
        release = run_to_end(
            learn_thresholds(
                support[present], pos[present], (counts - pos)[present], size, Direction.GE, total,
                alpha, float(n), rng,
            )
        )  # fmt: skip
        error = float(np.sum(weights[release.hypothesis.predict(support) != truth]))
        successes += error <= alpha
    assert successes >= trials * (1 - beta - 3 * math.sqrt(beta * (1 - beta) / trials))
