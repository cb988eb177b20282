"""Pins of dpgui/tasks/learning.py found by the t22 mutation scan: the hashing learner's stated error and the
epsilon, accuracy target and beta its run is asked for, and learn-points' missing bound at delta = 0."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pandas as pd
import pytest

import dpgui.tasks.learning as learning
from dpgui.algorithms.learners.points import hash_bits, hashing_min_n
from dpgui.algorithms.learners.thresholds import smallest_alpha
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.public import PublicSample
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.preflight import PreflightError, check_parameters
from dpgui.tasks.registry import REPLACE_ONE, ParameterSpec, get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import captured_call

EPSILON, DELTA, BETA = 0.7, 3e-7, 0.02
GRID = NumericDomain(0, 120, 1)


def point_learner(name: str = "hashing", delta: float = DELTA) -> TaskSpec:
    parameters = (("beta", BETA),)
    return TaskSpec(
        TaskKind.POINT, ("age",), (GRID,), EPSILON, delta, name, parameters=parameters, label="retired"
    )


def people(tmp_path, count: int) -> InMemoryAggregator:
    age = np.random.default_rng(0).integers(18, 90, count)
    path = tmp_path / "people.csv"
    pd.DataFrame({"age": age, "retired": (age >= 65).astype(int)}).to_csv(path, index=False)
    return InMemoryAggregator(open_dataset(path))


def hashing_error(n: int) -> float:
    """The smallest alpha whose hashing sample bound (at the requested epsilon and beta) n meets."""

    def need(alpha: float) -> float:
        bits = hash_bits(alpha, BETA)
        return hashing_min_n(bits, EPSILON, alpha, BETA) if bits <= learning.MAX_HASH_BITS else math.inf

    return smallest_alpha(need, n)


@pytest.mark.parametrize("n", [500, 20_000])
def test_the_hashing_learner_predicts_its_error_at_the_requested_epsilon_and_beta(n: int) -> None:
    predicted = get_algorithm("hashing").predicted_error(point_learner(), n)
    assert predicted == hashing_error(n) < 1


def test_the_hashing_learner_runs_at_the_requested_epsilon_beta_and_its_stated_error(tmp_path, monkeypatch):
    data = people(tmp_path, 500)
    run = lambda: get_algorithm("hashing").run(point_learner(), data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, learning, "hashing_point", run)
    assert args[3:7] == (GRID.size, EPSILON, hashing_error(500), BETA)


def test_the_hashing_learner_without_a_guarantee_still_hashes_for_accuracy_one_half(tmp_path, monkeypatch):
    """Too few records for any stated error: the buckets are sized for an accuracy target of 0.5."""
    data = people(tmp_path, 5)
    assert get_algorithm("hashing").predicted_error(point_learner(), 5) == math.inf
    run = lambda: get_algorithm("hashing").run(point_learner(), data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, learning, "hashing_point", run)
    assert args[3:7] == (GRID.size, EPSILON, 0.5, BETA)


def test_learn_points_states_no_error_bound_at_delta_zero() -> None:
    spec = point_learner("learn-points", delta=0.0)
    assert get_algorithm("learn-points").predicted_error(spec, 10**5) == math.inf
    assert get_algorithm("learn-points").preconditions(spec, 10**5)
    assert get_algorithm("learn-points").predicted_error(dataclasses.replace(spec, delta=DELTA), 10**5) < 1


def test_the_label_noise_promise_is_refused_at_or_above_one_half_only_beyond_it() -> None:
    """RecConcave's public promise: at most half the rows mislabelled (0.5 accepted, more refused)."""
    spec = TaskSpec(TaskKind.THRESHOLD, ("age",), (GRID,), EPSILON, DELTA, "recconcave", label="retired")
    check_parameters(dataclasses.replace(spec, parameters=(("label_noise", 0.5),)))
    with pytest.raises(PreflightError, match="label_noise must be in"):
        check_parameters(dataclasses.replace(spec, parameters=(("label_noise", 0.6),)))


@pytest.mark.parametrize(
    "parameter", [p for p in vars(learning).values() if isinstance(p, ParameterSpec)], ids=lambda p: p.name
)
def test_each_parameter_default_lies_in_its_range(parameter: ParameterSpec) -> None:
    """The GUI's spin boxes clamp to the range: a default outside it would be silently replaced."""
    if parameter.minimum is not None:
        assert parameter.minimum <= parameter.default <= parameter.maximum


def test_the_semi_private_learner_states_the_replace_one_relation(tmp_path) -> None:
    """With a public sample every labelled row is protected: the manifest states replace-one; without one
    it states label privacy only."""
    public = tmp_path / "public.csv"
    pd.DataFrame({"age": np.arange(18, 90, 3)}).to_csv(public, index=False)
    spec = TaskSpec(TaskKind.THRESHOLD, ("age",), (GRID,), EPSILON, DELTA, "label-private", label="retired")
    info = get_algorithm("label-private")
    assert info.neighbouring(dataclasses.replace(spec, public=PublicSample.from_file(public))) == REPLACE_ONE
    assert info.neighbouring(spec).startswith("change one label; features and row count public")


def test_the_labels_only_opt_in_starts_unticked_and_is_required() -> None:
    """Label privacy only is accepted explicitly: the GUI's box starts unticked (its default) and without the
    tick the labels-only learner is refused."""
    (opt_in,) = [p for p in get_algorithm("label-private").parameters if p.name == "accept_labels_only"]
    assert opt_in.default is False
    spec = TaskSpec(TaskKind.THRESHOLD, ("age",), (GRID,), EPSILON, DELTA, "label-private", label="retired")
    (failure,) = get_algorithm("label-private").preconditions(spec, 10**5)
    assert failure.parameter and "opt in explicitly" in failure.message
    ticked = dataclasses.replace(spec, parameters=(("accept_labels_only", True),))
    assert get_algorithm("label-private").preconditions(ticked, 10**5) == ()
