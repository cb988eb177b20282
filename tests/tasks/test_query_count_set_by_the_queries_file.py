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
def test_a_query_count_beside_a_queries_file_is_refused(algorithm: str, tmp_path) -> None:
    queries = tmp_path / "q.csv"
    queries.write_text("x,y\n1,2\n")
    with pytest.raises(PreflightError, match="'queries' and 'query_count' were both given: the queries file"):
        check_parameters(spec(algorithm, queries=str(queries), query_count=5))
    check_parameters(spec(algorithm, queries="", query_count=5))  # no file: the declared count is used
    check_parameters(spec(algorithm, queries=str(queries)))


@pytest.mark.parametrize("algorithm", ["laplace-per-query", "auto"])
def test_a_queries_file_that_is_not_there_is_refused_before_planning(algorithm: str, tmp_path) -> None:
    """CLI fuzz (session 36): `plan distance --queries absent.csv` listed every algorithm unusable, exit 0."""
    for absent in (tmp_path / "absent.csv", tmp_path):
        with pytest.raises(PreflightError, match=r"the queries file .* is not there"):
            check_parameters(spec(algorithm, queries=str(absent)))
