"""The sanitization tasks: registration, auto's choice, preconditions, and the released tables' format."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import CategoricalDomain, NumericDomain, Snap
from dpgui.data.public import PublicSample
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import Guarantee, algorithms, get_algorithm
from dpgui.tasks.runner import PreconditionFailed, prepare
from dpgui.tasks.spec import TaskKind, TaskSpec

GRID = NumericDomain(0, 4000, 10)
OURS = {"tree-laplace", "tree-gaussian", "aq", "em-each", "tree-cdf", "geometric", "tree-synthetic"}


def spec(kind: TaskKind, algorithm: str = "auto", delta: float = 0.0, **parameters: object) -> TaskSpec:
    return TaskSpec(kind, ("wage",), (GRID,), 1.0, delta, algorithm, parameters=tuple(parameters.items()))


@pytest.fixture
def data(wages_csv):
    return InMemoryAggregator(open_dataset(wages_csv))


def run(task: TaskSpec, data: InMemoryAggregator, seed: int = 0):
    prepared = prepare(task, data.count())
    return run_to_end(prepared.algorithm.run(prepared.spec, data, SeededRandom(seed)))


def test_every_task_has_its_algorithms_with_the_promised_guarantees():
    names = {kind: {info.name for info in algorithms(kind)} for kind in TaskKind}
    assert {"tree-laplace", "tree-gaussian"} <= names[TaskKind.CDF]
    assert {"aq", "em-each", "tree-cdf"} <= names[TaskKind.QUANTILES]
    assert "geometric" in names[TaskKind.HISTOGRAM] and "tree-synthetic" in names[TaskKind.SYNTHETIC]
    assert get_algorithm("tree-gaussian").guarantee is Guarantee.APPROXIMATE
    assert get_algorithm("tree-laplace").cost(spec(TaskKind.CDF)) == PrivacyCost(1.0)


def test_cdf_table_has_one_row_per_grid_point_monotone_and_ending_at_one(data):
    table = run(spec(TaskKind.CDF, "tree-laplace"), data)
    assert table.columns == ("value", "cdf")
    assert table.column("value") == list(range(0, 4001, 10))
    cdf = np.array(table.column("cdf"))
    assert np.all(np.diff(cdf) >= 0) and cdf[-1] == 1.0 and cdf[0] >= 0
    assert any("isotonic" in note for note in table.notes)


@pytest.mark.parametrize("algorithm", ["tree-laplace", "tree-gaussian", "pap"])
def test_released_cdf_at_each_grid_value_is_the_share_of_records_at_or_below_it(tmp_path, algorithm):
    # issue 15 item 2: records were snapped to the NEAREST grid point, so cdf(0) counted the 0.4s and
    # cdf(1) missed the 1.4s; values are now snapped up, so cdf(v) = share of records <= v exactly
    path = tmp_path / "halves.csv"
    pd.DataFrame({"x": [0.4] * 400 + [1.4] * 300 + [2.0] * 300}).to_csv(path, index=False)
    public = tmp_path / "public.csv"
    pd.DataFrame({"x": [0.0, 1.0, 2.0, 3.0]}).to_csv(public, index=False)
    task = TaskSpec(
        TaskKind.CDF, ("x",), (NumericDomain(0, 3, 1),), 1e4, 1e-6, algorithm,
        public=PublicSample.from_file(public),
    )  # fmt: skip
    table = run(task, InMemoryAggregator(open_dataset(path)))
    assert table.column("value") == [0, 1, 2, 3]
    assert np.allclose(table.column("cdf"), [0.0, 0.4, 1.0, 1.0], atol=0.01)
    assert table.meaning.startswith("cdf = share of records with x <= value")


def test_a_cdf_task_snaps_values_up_while_other_tasks_keep_the_nearest_grid_point():
    domain = NumericDomain(0, 3, 1)
    cdf = TaskSpec(TaskKind.CDF, ("x",), (domain,), 1.0)
    median = TaskSpec(TaskKind.MEDIAN, ("x",), (domain,), 1.0)
    assert cdf.domain.snap is Snap.UP and median.domain.snap is Snap.NEAREST
    assert cdf.domain == domain  # the declaration is the same; only the encoding differs


def test_gaussian_tree_needs_delta_and_auto_skips_it_when_delta_is_zero(data):
    with pytest.raises(PreconditionFailed, match="δ > 0"):
        prepare(spec(TaskKind.CDF, "tree-gaussian"), data.count())
    assert prepare(spec(TaskKind.CDF), data.count()).algorithm.name != "tree-gaussian"
    prepared = prepare(spec(TaskKind.CDF, "tree-gaussian", delta=1e-6), data.count())
    assert prepared.cost == PrivacyCost(1.0, 1e-6)
    assert np.array(run(prepared.spec, data).column("cdf"))[-1] == 1.0


def test_auto_reads_many_quantiles_off_a_released_cdf():
    many = ",".join(f"{q:.4f}" for q in np.linspace(0, 1, 62)[1:-1])
    assert prepare(spec(TaskKind.QUANTILES, q=many), 2001).algorithm.name in {
        "tree-cdf",
        "privtree-quantiles",
    }


@pytest.mark.parametrize("algorithm", ["aq", "em-each", "tree-cdf"])
def test_quantile_table_lists_each_q_with_a_grid_value_in_order(data, algorithm):
    table = run(spec(TaskKind.QUANTILES, algorithm, q="0.9,0.1,0.5"), data)
    assert table.columns == ("q", "value") and table.column("q") == [0.9, 0.1, 0.5]
    high, low, middle = table.column("value")
    assert low <= middle <= high and all(v % 10 == 0 and 0 <= v <= 4000 for v in (low, middle, high))


def test_bad_quantiles_are_refused_before_reading_the_data():
    with pytest.raises(PreconditionFailed, match="comma-separated"):
        prepare(spec(TaskKind.QUANTILES, "aq", q="half"), 100)


def test_grids_above_two_to_the_26_are_refused_for_trees_but_not_for_aq():
    huge = TaskSpec(TaskKind.QUANTILES, ("wage",), (NumericDomain(0, 2**30, 1),), 1.0, algorithm="tree-cdf")
    with pytest.raises(PreconditionFailed, match="coarser granularity"):
        prepare(huge, 1000)
    assert prepare(huge.with_algorithm("aq"), 1000).algorithm.name == "aq"


def test_numeric_histogram_counts_are_non_negative_integers_per_grid_value(data):
    table = run(spec(TaskKind.HISTOGRAM, normalise=True), data)
    assert table.columns == ("value", "count", "fraction") and len(table.rows) == GRID.size
    assert min(table.column("count")) >= 0 and math.isclose(sum(table.column("fraction")), 1.0)


def test_categorical_histogram_has_one_row_per_category_and_other(tmp_path):
    path = tmp_path / "cats.csv"
    pd.DataFrame({"region": ["north"] * 50 + ["south"] * 30 + ["west"] * 5}).to_csv(path, index=False)
    aggregator = InMemoryAggregator(open_dataset(path))
    domain = CategoricalDomain(("north", "south"), other=True)
    table = run(TaskSpec(TaskKind.HISTOGRAM, ("region",), (domain,), 50.0), aggregator)
    assert table.columns == ("category", "count")
    assert table.column("category") == ["north", "south", "other"]
    assert table.column("count") == pytest.approx([50, 30, 5], abs=2)


def test_synthetic_table_has_the_requested_rows_on_the_grid(data):
    table = run(spec(TaskKind.SYNTHETIC, rows=321), data)
    assert table.columns == ("wage",) and len(table.rows) == 321
    assert all(0 <= v <= 4000 and v % 10 == 0 for (v,) in table.rows)


def test_predicted_errors_share_a_unit_within_each_task():
    for kind in (TaskKind.CDF, TaskKind.QUANTILES, TaskKind.HISTOGRAM, TaskKind.SYNTHETIC):
        ours = [info for info in algorithms(kind) if info.name in OURS]
        assert len({info.error_unit for info in ours}) == 1
        for info in ours:
            error = info.predicted_error(spec(kind, info.name, delta=1e-6, q="0.5"), 2000)
            assert 0 < error < math.inf


def test_cdf_over_two_million_points_is_written_only_where_it_steps(data):
    wide = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 2**21, 1),), 1.0, algorithm="tree-laplace")
    table = run(wide, data)
    values, cdf = np.array(table.column("value")), np.array(table.column("cdf"))
    assert values[0] == 0 and len(values) < 2**21 and np.all(np.diff(values) > 0)
    assert np.all(np.diff(cdf) > 0) and cdf[-1] == 1.0
    assert any("steps" in note for note in table.notes)
