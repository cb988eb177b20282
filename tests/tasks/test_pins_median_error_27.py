"""The median task states the exponential mechanism's rank error at the epsilon it charges.

Mutation scan h27e: the median task's predicted error computed at 2 eps (half the rank error of
Lemma 2.2) went unnoticed: the algorithm's bound is pinned in tests/algorithms, but no task test compared
what the task states with it. Here the paper's bound (2/eps) ln(|X| / beta) / n is computed apart.
"""

from __future__ import annotations

import math

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec


@pytest.mark.parametrize(("epsilon", "beta", "n"), [(1.0, 0.05, 1000), (0.3, 0.01, 250)])
def test_the_median_task_states_the_rank_error_of_lemma_2_2(epsilon: float, beta: float, n: int) -> None:
    domain = NumericDomain(0, 999, 1)
    spec = TaskSpec(TaskKind.MEDIAN, ("wage",), (domain,), epsilon, 0.0, "em", parameters=(("beta", beta),))
    stated = get_algorithm("em").predicted_error(spec, n)
    assert stated == pytest.approx((2 / epsilon) * math.log(domain.size / beta) / n, rel=1e-12)
