"""Pins two public constants of the learning tasks: RecConcave's promise r = (1 - label_noise) n, and the
label-private learner's first part |S1| capped at half the rows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import dpgui.tasks.learning as learning
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec


class Captured(Exception):
    pass


def spec(algorithm: str, **parameters) -> TaskSpec:
    return TaskSpec(
        TaskKind.THRESHOLD, ("age",), (NumericDomain(0, 120, 1),), 1.0, 1e-6, algorithm,
        parameters=(("direction", "ge"), *parameters.items()), label="retired",
    )  # fmt: skip


@pytest.mark.parametrize("noise", [0.0, 0.1])
def test_recconcave_promise_is_one_minus_label_noise_times_n(noise: float, tmp_path, monkeypatch) -> None:
    age = np.random.default_rng(0).integers(18, 90, 3000)
    path = tmp_path / "people.csv"
    pd.DataFrame({"age": age, "retired": (age >= 65).astype(int)}).to_csv(path, index=False)
    seen = {}

    def fake(values, pos, neg, size, direction, cost, alpha, promise, rng, recursion_bound=None):
        seen["promise"] = promise
        raise Captured
        yield  # pragma: no cover

    monkeypatch.setattr(learning, "learn_thresholds", fake)
    s = spec("recconcave", label_noise=noise)
    with pytest.raises(Captured):
        next(get_algorithm("recconcave").run(s, InMemoryAggregator(open_dataset(path)), SeededRandom(0)))
    assert seen["promise"] == pytest.approx((1 - noise) * 3000)


def test_label_private_split_is_at_most_half_the_rows() -> None:
    s = spec("label-private", accept_labels_only=True)
    full = learning._label_private_split(s, 10**9)
    assert full < 10**9 // 2
    assert learning._label_private_split(s, 2 * full) == full
    assert learning._label_private_split(s, full) == full // 2
