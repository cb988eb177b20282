"""Pins of dpgui/tasks/learning.py found by the t21 mutation scan: what each learner charges, the epsilon,
delta and beta its run and its stated bounds are computed at, and the public cap on the hash buckets."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

import dpgui.tasks.learning as learning
from dpgui.algorithms.learners.label_private import label_private_min_n, label_private_split
from dpgui.algorithms.learners.points import hash_bits, learn_points_error_rate
from dpgui.algorithms.learners.public_assisted import public_candidate_count
from dpgui.algorithms.learners.thresholds import (
    Direction,
    em_threshold_error_rate,
    finite_class_error_rate,
    learn_thresholds_min_n,
    smallest_alpha,
)
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.public import PublicSample
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import captured_call

EPSILON, DELTA, BETA = 0.7, 3e-7, 0.02
GRID = NumericDomain(0, 120, 1)


def learner(name: str, **parameters: object) -> TaskSpec:
    kind = TaskKind.POINT if name in ("learn-points", "hashing") else TaskKind.THRESHOLD
    parameters = {"beta": BETA, "direction": "ge", "accept_labels_only": True, **parameters}
    return TaskSpec(
        kind, ("age",), (GRID,), EPSILON, DELTA, name, parameters=tuple(parameters.items()), label="retired"
    )


def public_ages(tmp_path):
    """A public sample of ages 18, 21, ..., 87."""
    public = tmp_path / "public.csv"
    pd.DataFrame({"age": np.arange(18, 90, 3)}).to_csv(public, index=False)
    return public


@pytest.fixture
def people(tmp_path) -> InMemoryAggregator:
    age = np.random.default_rng(0).integers(18, 90, 500)
    path = tmp_path / "people.csv"
    pd.DataFrame({"age": age, "retired": (age >= 65).astype(int)}).to_csv(path, index=False)
    return InMemoryAggregator(open_dataset(path))


@pytest.mark.parametrize(
    ("name", "cost"),
    [
        ("em-threshold", PrivacyCost(EPSILON)),
        ("label-private", PrivacyCost(EPSILON)),
        ("public-em", PrivacyCost(EPSILON)),
        ("hashing", PrivacyCost(EPSILON)),
        ("recconcave", PrivacyCost(EPSILON, DELTA)),
        ("learn-points", PrivacyCost(EPSILON, DELTA)),
    ],
)
def test_each_learner_charges_exactly_the_requested_budget(name: str, cost: PrivacyCost) -> None:
    assert get_algorithm(name).cost(learner(name)) == cost


def test_em_threshold_samples_and_states_its_bound_at_the_requested_epsilon_and_beta(people, monkeypatch):
    spec = learner("em-threshold")
    run = lambda: get_algorithm("em-threshold").run(spec, people, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, learning, "em_threshold", run)
    assert args[3:6] == (GRID.size, Direction.GE, EPSILON)
    monkeypatch.undo()
    args, _ = captured_call(monkeypatch, learning, "em_threshold_excess", run)
    assert args == (GRID.size, Direction.GE, EPSILON, BETA)


def test_em_threshold_predicts_its_error_at_the_requested_epsilon_and_beta() -> None:
    predicted = get_algorithm("em-threshold").predicted_error(learner("em-threshold"), 3000)
    assert predicted == em_threshold_error_rate(GRID.size, Direction.GE, EPSILON, BETA, 3000)


def test_the_hashing_learner_uses_at_most_two_to_the_20_buckets() -> None:
    """With records to spare the smallest guaranteed error is the one the bucket cap allows: 20 bits."""
    error = get_algorithm("hashing").predicted_error(learner("hashing"), 10**15)
    assert hash_bits(error, BETA) == learning.MAX_HASH_BITS == 20


def test_recconcave_predicts_its_error_at_the_requested_budget_and_beta() -> None:
    def need(alpha: float) -> int:
        return learn_thresholds_min_n(GRID.size, PrivacyCost(EPSILON, DELTA), alpha, BETA)

    predicted = get_algorithm("recconcave").predicted_error(learner("recconcave"), 10**7)
    assert predicted == smallest_alpha(need, 10**7) < 1


def test_the_label_private_split_is_computed_at_the_requested_alpha_and_beta() -> None:
    spec = learner("label-private", alpha=0.1)
    assert learning._label_private_split(spec, 10**9) == label_private_split(0.1, BETA)


def test_the_label_private_learner_predicts_its_error_at_the_requested_epsilon_and_beta() -> None:
    predicted = get_algorithm("label-private").predicted_error(learner("label-private"), 10**5)
    assert predicted == smallest_alpha(lambda alpha: label_private_min_n(alpha, BETA, EPSILON), 10**5) < 1


@pytest.mark.parametrize("name", ["label-private", "public-em"])
def test_the_public_sample_learners_run_at_the_requested_epsilon(name, people, tmp_path, monkeypatch) -> None:
    public = public_ages(tmp_path)
    spec = dataclasses.replace(learner(name), public=PublicSample.from_file(public))
    run = lambda: get_algorithm(name).run(spec, people, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, learning, "public_em_threshold", run)
    assert args[5:7] == (Direction.GE, EPSILON)
    if name == "public-em":  # its excess bound, stated in a note
        monkeypatch.undo()
        count = public_candidate_count(spec.public.column_grid("age", GRID), GRID.size, Direction.GE)
        args, _ = captured_call(monkeypatch, learning, "public_em_excess", run)
        assert args == (count, EPSILON, BETA)


def test_the_labels_only_learner_runs_at_the_requested_epsilon(people, monkeypatch) -> None:
    run = lambda: get_algorithm("label-private").run(learner("label-private"), people, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, learning, "label_private_threshold", run)
    assert args[4:6] == (Direction.GE, EPSILON)


def test_the_semi_private_learner_is_booked_on_the_replace_one_account(tmp_path) -> None:
    public = public_ages(tmp_path)
    info = get_algorithm("label-private")
    assert (
        info.account(dataclasses.replace(learner("label-private"), public=PublicSample.from_file(public)))
        is Account.REPLACE_ONE
    )
    assert info.account(learner("label-private")) is Account.LABELS_ONLY


def test_the_public_sample_learners_have_their_public_sample_checked_before_a_run() -> None:
    assert get_algorithm("label-private").public_assisted and get_algorithm("public-em").public_assisted


def test_public_em_predicts_the_rate_over_its_public_candidates(tmp_path) -> None:
    public = public_ages(tmp_path)
    sample = PublicSample.from_file(public)
    spec = dataclasses.replace(learner("public-em"), public=sample)
    count = public_candidate_count(sample.column_grid("age", GRID), GRID.size, Direction.GE)
    info = get_algorithm("public-em")
    assert info.predicted_error(spec, 3000) == finite_class_error_rate(count, EPSILON, BETA, 3000) < 1
    assert info.predicted_error(learner("public-em"), 3000) == math.inf


def test_learn_points_runs_at_the_requested_epsilon_and_delta(people, monkeypatch) -> None:
    run = lambda: get_algorithm("learn-points").run(learner("learn-points"), people, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, learning, "learn_points", run)
    assert args[2:5] == (GRID.size, EPSILON, DELTA)

    predicted = get_algorithm("learn-points").predicted_error(learner("learn-points"), 10**5)
    assert predicted == learn_points_error_rate(EPSILON, DELTA, BETA, 10**5)
