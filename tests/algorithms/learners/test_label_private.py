"""The label-private learner (spec 000 s7.1) and the public-data-assisted learner (spec 001 s6)."""

from __future__ import annotations

import functools
import math

import numpy as np
import pytest

from dpgui.algorithms.learners.label_private import (
    LABEL_PRIVACY_NOTE,
    label_private_min_n,
    label_private_split,
    label_private_threshold,
)
from dpgui.algorithms.learners.public_assisted import public_em_threshold
from dpgui.algorithms.learners.thresholds import Direction, cut_candidates, threshold_quality
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom
from tests.algorithms.learners.labelled import labelled_counts, worst_replace_one_ratio
from tests.exact import max_log_ratio
from tests.recording import RecordingRandom, chosen_law


def observed_law(features, labels, split, size, direction, epsilon) -> dict[int, float]:
    """The law the learner samples from: its recorded Gumbel-max log-weights, normalised (index i is the
    i-th hypothesis, which depends on the public features of S1 only)."""
    rng = RecordingRandom(1)
    run_to_end(label_private_threshold(features, labels, split, size, direction, epsilon, rng))
    [log_weights] = rng.log_weights
    return dict(enumerate(chosen_law(log_weights)))


@pytest.mark.parametrize("epsilon", [0.8, 0.25])
def test_one_label_change_moves_each_probability_by_at_most_e_to_the_eps(epsilon: float) -> None:
    gen = np.random.default_rng(0)
    worst = 0.0
    for _ in range(30):
        features = gen.integers(0, 16, 9).astype(np.uint64)
        labels = gen.random(9) < 0.5
        base = observed_law(features, labels, 3, 16, Direction.AUTO, epsilon)
        for i in range(9):
            flipped = labels.copy()
            flipped[i] = not flipped[i]
            other = observed_law(features, flipped, 3, 16, Direction.AUTO, epsilon)
            worst = max(worst, max_log_ratio(base, other))
    assert epsilon / 2 < worst <= epsilon * (1 + 1e-9)


def test_hypotheses_depend_on_the_first_rows_features_only() -> None:
    features = np.array([3, 9, 12, 1, 5, 7, 14, 2], dtype=np.uint64)
    labels = features >= 6
    rng = SeededRandom(1)
    cuts = set()
    for _ in range(200):
        release = run_to_end(label_private_threshold(features, labels, 3, 16, Direction.GE, 0.5, rng))
        cuts.add(release.hypothesis.cut)
    assert cuts <= {0, 3, 9, 12, 16}


def test_label_private_learner_is_accurate_on_realizable_data_and_carries_the_warning() -> None:
    gen = np.random.default_rng(2)
    rng = SeededRandom(2)
    n = 1000
    trials = 40
    ok = 0
    for _ in range(trials):
        features = gen.integers(2**63 - 50, 2**63 + 50, n, dtype=np.uint64)
        labels = features >= np.uint64(2**63)
        steps = list(label_private_threshold(features, labels, 100, 2**64, Direction.AUTO, 1.0, rng))
        release = run_to_end(label_private_threshold(features, labels, 100, 2**64, Direction.AUTO, 1.0, rng))
        ok += np.mean(release.hypothesis.predict(features) != labels) <= 0.05
    assert LABEL_PRIVACY_NOTE in steps[-1].message
    assert ok >= trials * 0.9
    assert label_private_split(0.05, 0.05) < label_private_min_n(0.05, 0.05, 1.0)


def test_public_assisted_learner_cuts_at_public_values_and_is_accurate() -> None:
    gen = np.random.default_rng(3)
    rng = SeededRandom(3)
    public = np.sort(gen.integers(0, 2**40, 200, dtype=np.uint64))
    xs = gen.integers(0, 2**40, 3000, dtype=np.uint64)
    ys = xs <= np.uint64(2**39)
    values, inverse = np.unique(xs, return_inverse=True)
    pos = np.bincount(inverse, weights=ys, minlength=values.size).astype(np.int64)
    neg = np.bincount(inverse, minlength=values.size).astype(np.int64) - pos
    allowed = set(cut_candidates(public, 2**40, Direction.LE)) | set(
        cut_candidates(public, 2**40, Direction.GE)
    )
    for _ in range(10):
        release = run_to_end(public_em_threshold(public, values, pos, neg, 2**40, Direction.AUTO, 1.0, rng))
        assert release.hypothesis.cut in allowed
        assert np.mean(release.hypothesis.predict(xs) != ys) <= 0.05


def test_public_assisted_scores_are_the_correct_label_counts() -> None:
    values = np.array([1, 4, 6], dtype=np.uint64)
    pos, neg = np.array([0, 2, 3]), np.array([2, 1, 0])
    quality = threshold_quality(values, pos, neg, 8, Direction.GE)
    assert quality.values_at([0, 2, 5, 8]).tolist() == [5, 7, 6, 3]


def test_label_private_learner_at_its_proven_bound_on_concentrated_data() -> None:
    """Spec 000 s7.1 at its explicit m (about 2.7e6 rows at alpha = beta = 0.05, eps = 1), on data packed
    within 8 grid points of the target cut of a 64-bit grid; population error <= alpha w.p. >= 1 - beta."""
    from dpgui.algorithms.learners.label_private import label_private_min_n, label_private_split

    alpha = beta = 0.05
    size = 2**64
    m = label_private_min_n(alpha, beta, 1.0)
    split = label_private_split(alpha, beta)
    centre = 2**63
    support = np.arange(centre - 4, centre + 4, dtype=np.uint64)
    weights = np.array([1, 2, 1, 8, 8, 1, 2, 1], dtype=float) / 24
    truth = support >= np.uint64(centre)
    gen = np.random.default_rng(23)
    rng = SeededRandom(23)
    trials = 12
    successes = 0
    for _ in range(trials):
        features = support[gen.choice(support.size, size=m, p=weights)]
        labels = features >= np.uint64(centre)
        release = run_to_end(label_private_threshold(features, labels, split, size, Direction.GE, 1.0, rng))
        error = float(np.sum(weights[release.hypothesis.predict(support) != truth]))
        successes += error <= alpha
    assert successes >= trials * (1 - beta - 3 * math.sqrt(beta * (1 - beta) / trials))


def public_em_law(public: np.ndarray, xs: np.ndarray, ys: np.ndarray, size: int, epsilon: float):
    """The law the public-assisted learner samples from (recorded log-weights, normalised): its options are
    the cuts at the public points, so neighbouring private datasets are compared option by option."""
    rng = RecordingRandom(2)
    run_to_end(public_em_threshold(public, *labelled_counts(xs, ys), size, Direction.AUTO, epsilon, rng))
    [log_weights] = rng.log_weights
    return dict(enumerate(chosen_law(log_weights)))


@pytest.mark.parametrize("epsilon", [0.8, 0.25])
def test_public_assisted_law_moves_by_at_most_e_to_the_eps_when_one_row_is_replaced(epsilon: float) -> None:
    gen = np.random.default_rng(4)
    public, size, worst = np.array([2, 5, 9, 13], dtype=np.uint64), 16, 0.0
    for _ in range(10):
        xs, ys = gen.integers(0, size, 8), gen.random(8) < 0.5
        law = functools.partial(public_em_law, public, size=size, epsilon=epsilon)
        worst = max(worst, worst_replace_one_ratio(law, xs, ys, size))
    assert epsilon / 2 < worst <= epsilon * (1 + 1e-9)
