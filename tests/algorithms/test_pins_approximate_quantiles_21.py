"""Pins of the quantile helpers' edges (dpgui/algorithms/approximate_quantiles.py; mutation scan b21).

- parse_quantiles takes the closed interval [0, 1]: the minimum and the maximum are quantiles too.
- AQ takes its data as plain lists as well as arrays, with the same release from the same seed.
- AQ splits the data at the released v into {x < v} and {x > v}: the records equal to v go to neither
  side (Algorithm 1), and its live partials pair the sorted targets with their released indices.
- IndExp's live partials pair the first i + 1 targets with the i + 1 indices released so far.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import approximate_quantiles as aq_module
from dpgui.algorithms.approximate_quantiles import (
    QuantilesSoFar,
    approximate_quantiles,
    em_each_quantiles,
    parse_quantiles,
)
from dpgui.algorithms.progress import Progress, run_to_end
from dpgui.algorithms.quantiles import QuantileRelease
from dpgui.privacy.random import SeededRandom


def test_the_ends_of_the_unit_interval_are_quantiles() -> None:
    assert parse_quantiles("0, 0.5 ,1") == (0.0, 0.5, 1.0)


def test_indexp_partials_pair_each_released_index_with_its_target() -> None:
    qs = (0.9, 0.1, 0.5)
    steps: list[Progress] = []
    values, counts = np.array([2, 5, 7], dtype=np.uint64), np.array([3, 4, 3])
    release = run_to_end(em_each_quantiles(values, counts, 10, qs, 30.0, SeededRandom(3)), steps.append)
    partials = [step.partial for step in steps if isinstance(step.partial, QuantilesSoFar)]
    assert [p.qs for p in partials] == [qs[:1], qs[:2], qs]
    assert [len(p.indices) for p in partials] == [1, 2, 3]
    assert sorted(partials[-1].indices) == sorted(release.indices)


def test_aq_takes_lists_as_well_as_arrays() -> None:
    qs = (0.25, 0.5, 0.75)
    values, counts = [1, 4, 6, 9], [2, 3, 3, 2]
    arrays = approximate_quantiles(
        np.array(values, dtype=np.uint64), np.array(counts), 12, qs, 2.0, SeededRandom(8)
    )
    lists = approximate_quantiles(values, counts, 12, qs, 2.0, SeededRandom(8))
    assert run_to_end(lists) == run_to_end(arrays)


def test_aq_sends_the_records_below_and_above_v_to_the_two_sides(monkeypatch: pytest.MonkeyPatch) -> None:
    """The root (p = 1/2) releases 5; the right side [5, 9] releases 8, the left side [0, 5] releases 2."""
    calls: list[tuple[list[int], list[int], int, float]] = []
    answers = [5, 3, 2]  # local indices: 5 on [0, 9], 8 - 5 on [5, 9], 2 on [0, 5]

    def scripted(values, counts, domain_size, q, epsilon, rng):
        calls.append(([int(v) for v in values], [int(c) for c in counts], domain_size, q))
        yield from ()
        return QuantileRelease(q, answers[len(calls) - 1])

    monkeypatch.setattr(aq_module, "em_quantile", scripted)
    steps: list[Progress] = []
    values, counts = np.array([2, 5, 8], dtype=np.uint64), np.array([3, 4, 3])
    release = run_to_end(
        approximate_quantiles(values, counts, 10, (0.75, 0.25, 0.5), 1.0, None), steps.append
    )
    assert calls == [([2, 5, 8], [3, 4, 3], 10, 0.5), ([3], [3], 5, 0.5), ([2], [3], 6, 0.5)]
    assert release.indices == (8, 2, 5)
    partials = [(p.qs, p.indices) for p in (step.partial for step in steps) if isinstance(p, QuantilesSoFar)]
    assert partials == [((0.5,), (5,)), ((0.5, 0.75), (5, 8)), ((0.25, 0.5, 0.75), (2, 5, 8))]
