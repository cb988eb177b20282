"""A queries file's rows set the distance release's query count: a spec holding both is refused in the core
(what the app, ``dpgui plan`` and batch files all call); an empty ``queries`` leaves the count in use."""

from __future__ import annotations

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.tasks.preflight import PreflightError, check_parameters
from dpgui.tasks.spec import TaskKind, TaskSpec


def spec(algorithm: str, **parameters: object) -> TaskSpec:
    domains = (NumericDomain(0, 10, 1), NumericDomain(0, 10, 1))
    return TaskSpec(
        TaskKind.DISTANCE, ("x", "y"), domains, 1.0, 0.0, algorithm, parameters=tuple(parameters.items())
    )


@pytest.mark.parametrize("algorithm", ["laplace-per-query", "cdf-route", "auto"])
def test_a_query_count_beside_a_queries_file_is_refused(algorithm: str) -> None:
    with pytest.raises(PreflightError, match="'queries' and 'query_count' were both given: the queries file"):
        check_parameters(spec(algorithm, queries="q.csv", query_count=5))
    check_parameters(spec(algorithm, queries="", query_count=5))  # no file: the declared count is used
    check_parameters(spec(algorithm, queries="q.csv"))
