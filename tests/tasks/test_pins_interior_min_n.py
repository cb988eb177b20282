"""Pins the interior-point reduction's "needs n >= N records" (PreconditionFailure.min_n): N is exactly the
first n its precondition accepts (error bound (2k + 2c)/n below 1), so the user is told the threshold."""

from __future__ import annotations

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec


@pytest.mark.parametrize("name", ["ip-reduction-em", "ip-reduction-treelog"])
@pytest.mark.parametrize("epsilon", [0.5, 2.0])
def test_ip_reduction_min_n_is_the_first_accepted_n(name: str, epsilon: float) -> None:
    info = get_algorithm(name)
    spec = TaskSpec(
        TaskKind.THRESHOLD, ("a",), (NumericDomain(0, 99, 1),), epsilon, 1e-6, algorithm=name, label="t"
    )
    (failure,) = [f for f in info.preconditions(spec, 3) if f.min_n is not None]
    need = failure.min_n
    assert isinstance(need, int) and need > 3
    assert not [f for f in info.preconditions(spec, need) if f.min_n is not None]
    assert [f for f in info.preconditions(spec, need - 1) if f.min_n is not None]
