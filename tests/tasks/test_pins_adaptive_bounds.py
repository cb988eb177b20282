"""Pins the adaptive tasks' a-priori bounds: joint-exp's (4/eps)(m ln N + ln(1/beta)) + m + 1 over n (its
docstring's formula), and PrivTree's and DAWA's CDF bounds capped at exactly 1 (the trivial CDF error)."""

from __future__ import annotations

import math

import pytest

from dpgui.algorithms.tie_breaking import refined_size
from dpgui.data.domain import NumericDomain
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec

GRID = NumericDomain(0, 5000, 1)


@pytest.mark.parametrize("epsilon", [0.5, 2.0])
@pytest.mark.parametrize("q", ["0.5", "0.25,0.5,0.75"])
def test_joint_exp_bound_is_its_formula(epsilon: float, q: str) -> None:
    beta, n = 0.1, 2000
    spec = TaskSpec(TaskKind.QUANTILES, ("wage",), (GRID,), epsilon, 0.0, "joint-exp",
                    parameters=(("beta", beta), ("q", q)))  # fmt: skip
    m = len(q.split(","))
    misses = (4 / epsilon) * (m * math.log(refined_size(GRID.size)) + math.log(1 / beta)) + m + 1
    assert get_algorithm("joint-exp").predicted_error(spec, n) == pytest.approx(misses / n, rel=1e-12)


@pytest.mark.parametrize("name", ["privtree", "dawa"])
def test_adaptive_cdf_bounds_cap_at_one(name: str) -> None:
    spec = TaskSpec(TaskKind.CDF, ("wage",), (GRID,), 0.1, 0.0, name)
    assert get_algorithm(name).predicted_error(spec, 3) == 1.0
    assert get_algorithm(name).predicted_error(spec, 10**7) < 0.5
