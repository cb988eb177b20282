"""When auto finds no algorithm that fits, its refusal lists each reason once and names the algorithms
behind a reason they do not all share (a fuzz run: a repeated column was refused with "...; this algorithm
needs a file of public queries (parameter 'queries'); the Gaussian baseline needs delta > 0", reasons of
algorithms the custodian never chose, unnamed)."""

from __future__ import annotations

import pytest

from dpgui.tasks.runner import PreconditionFailed, choose_auto
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.tasks.test_pins_distance_21 import EPSILON, GRIDS


def refusal(delta: float) -> str:
    spec = TaskSpec(TaskKind.DISTANCE, ("wage", "wage"), GRIDS, EPSILON, delta, "auto")
    with pytest.raises(PreconditionFailed) as refused:
        choose_auto(spec, 2000)
    return str(refused.value)


def test_a_reason_every_algorithm_gives_stands_alone_and_the_others_name_theirs() -> None:
    message = refusal(0.0)
    assert message.startswith("each column may appear once; wage is repeated; ")
    assert message.count("each column may appear once") == 1
    assert "laplace-per-query, gaussian-per-query: this algorithm needs a file of public queries" in message
    assert message.endswith("; gaussian-per-query: the Gaussian baseline needs delta > 0")
    assert "delta > 0" not in refusal(1e-6)


def test_joined_reasons_lose_their_full_stops_but_the_last() -> None:
    """Docs audit, session 34: "choose ge or le.; the ..." and "(or fewer bins).; tree-gaussian: ..."."""
    from dpgui.tasks.registry import PreconditionFailure
    from dpgui.tasks.runner import PreconditionFailed

    failures = (PreconditionFailure("choose ge or le."), PreconditionFailure("give δ > 0."))
    assert str(PreconditionFailed(failures)) == "choose ge or le; give δ > 0."
    assert str(PreconditionFailed(failures[:1])) == "choose ge or le."
