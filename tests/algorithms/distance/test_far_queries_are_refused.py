"""A per-query baseline refuses a query so far outside the declared box that floating point, not the
records, would move its rounded distance sums beyond the sensitivity.

Privacy review, session 34 (far_l2.py): the sensitivity ceil(diam / r) + 1 of
S_r(y) = sum_x round(d(x, y) / r) holds for a query anywhere in exact arithmetic; computed in float64,
d(x, y) / r for a query 10^11 box widths away is off by about a unit, and one record moved S_r by 65,538
against a sensitivity of 65,537. Queries whose quotients stay within ``MAX_QUOTIENT`` keep it; farther
ones are refused before the charge.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.distance.baselines import (
    MAX_QUOTIENT,
    farthest_quotient,
    per_query_noise,
    rounded_distance_sums,
)
from dpgui.algorithms.distance.embeddings import Metric, metric_distances
from dpgui.data.domain import NumericDomain
from dpgui.tasks.runner import PreconditionFailed, prepare
from dpgui.tasks.spec import TaskKind, TaskSpec

FAR = [(Metric.L2, 2), (Metric.L2, 3), (Metric.L1, 3), (Metric.LINF, 2)]


@pytest.mark.parametrize(("metric", "dims"), FAR)
def test_the_sensitivity_holds_for_queries_as_far_as_the_limit_allows(metric: Metric, dims: int) -> None:
    noise = per_query_noise(metric, dims, 1, epsilon=1.0, rho=None)
    g = np.random.default_rng(1)
    centre = np.full((1, dims), 0.5)
    directions = g.normal(size=(4000, dims))
    lengths = metric_distances(centre, centre + directions, metric)[0]
    # the farthest queries the limit admits: (d(centre, y) + diam) / r just below MAX_QUOTIENT
    target = MAX_QUOTIENT * 0.999 * noise.resolution - metric.diameter(dims)
    queries = centre + directions * (target / lengths)[:, None]
    assert 0.99 * MAX_QUOTIENT < farthest_quotient(queries, metric, noise.resolution) <= MAX_QUOTIENT
    records = [np.zeros((1, dims)), np.ones((1, dims)), *g.uniform(size=(6, 1, dims))]
    sums = [rounded_distance_sums(x, queries, metric, noise.resolution) for x in records]
    moved = max(int(np.abs(a - b).max()) for a in sums for b in sums)
    assert moved <= noise.sensitivity


def test_the_reach_bounds_every_records_quotient() -> None:
    noise = per_query_noise(Metric.L2, 2, 1, epsilon=1.0, rho=None)
    queries = np.array([[3.0, -2.0], [0.2, 0.9], [-1e5, 4e4]])
    corners = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]])
    quotients = np.linalg.norm(queries[None, :, :] - corners[:, None, :], axis=2) / noise.resolution
    assert quotients.max() <= farthest_quotient(queries, Metric.L2, noise.resolution)


@pytest.mark.parametrize("algorithm", ["laplace-per-query", "gaussian-per-query"])
def test_a_query_a_million_box_widths_away_is_refused_before_the_charge(tmp_path, algorithm: str) -> None:
    def spec(point: str) -> TaskSpec:
        path = tmp_path / f"q{abs(hash(point))}.csv"
        path.write_text(f"a,b\n1,2\n{point}\n")
        domains = (NumericDomain(0, 10, 1), NumericDomain(0, 10, 1))
        parameters = (("queries", str(path)),)
        return TaskSpec(TaskKind.DISTANCE, ("a", "b"), domains, 1.0, 1e-6, algorithm, parameters=parameters)

    with pytest.raises(PreconditionFailed, match="a million box widths"):
        prepare(spec("1e9,5"), 1000)
    assert prepare(spec("1e5,5"), 1000).algorithm.name == algorithm  # 10^4 box widths: answered
