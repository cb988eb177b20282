"""The papers' sanitizers as registered CDF / HISTOGRAM algorithms: refusals, units, tables, indicators."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.public import PublicSample
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import Guarantee, algorithms, get_algorithm
from dpgui.tasks.runner import PreconditionFailed, prepare
from dpgui.tasks.spec import TaskKind, TaskSpec

WAGES = NumericDomain(0, 5000, 10)


@pytest.fixture
def public_csv(tmp_path: Path) -> Path:
    """A public sample drawn like the wages fixture's private data."""
    wages = np.round(np.random.default_rng(11).lognormal(6.2, 0.6, size=400), 2)
    path = tmp_path / "public.csv"
    pd.DataFrame({"wage": wages}).to_csv(path, index=False)
    return path


def spec(kind: TaskKind, algorithm: str, domain=WAGES, delta=1e-6, epsilon=1.0, public=None, **params):
    return TaskSpec(
        kind, ("wage",), (domain,), epsilon, delta, algorithm, parameters=tuple(params.items()), public=public
    )


def run(task_spec: TaskSpec, csv: Path):
    prepared = prepare(task_spec, open_dataset(csv).n_rows)
    return run_to_end(
        prepared.algorithm.run(prepared.spec, InMemoryAggregator(open_dataset(csv)), SeededRandom(1))
    )


def test_algorithms_are_registered_under_their_tasks_with_their_guarantees():
    cdf = {info.name: info for info in algorithms(TaskKind.CDF)}
    histogram = {info.name: info for info in algorithms(TaskKind.HISTOGRAM)}
    assert cdf["san-thresholds"].guarantee is Guarantee.APPROXIMATE
    assert cdf["pap"].guarantee is Guarantee.PURE
    assert histogram["san-points"].guarantee is histogram["k-point"].guarantee is Guarantee.APPROXIMATE


def test_pap_refuses_without_a_public_sample_before_reading_any_data():
    with pytest.raises(PreconditionFailed, match="public sample"):
        prepare(spec(TaskKind.CDF, "pap", delta=0.0), n=10_000)


@pytest.mark.parametrize(
    ("kind", "name"), [(TaskKind.CDF, "san-thresholds"), (TaskKind.HISTOGRAM, "san-points")]
)
def test_approximate_sanitizers_refuse_delta_zero_but_run_at_any_n(kind, name):
    with pytest.raises(PreconditionFailed, match="δ > 0"):
        prepare(spec(kind, name, delta=0.0), n=10_000)
    prepared = prepare(spec(kind, name), n=5)  # private at every n (REVIEW-000-002 s2b): no refusal
    assert prepared.cost.epsilon <= 1.0 and 0 < prepared.cost.delta <= 1e-6


def test_auto_compares_like_units_and_never_picks_san_thresholds_below_its_bound(public_csv):
    public = PublicSample.from_file(public_csv)
    san_thresholds = get_algorithm("san-thresholds")
    assert san_thresholds.predicted_error(spec(TaskKind.CDF, "san-thresholds"), 10**6) == 1.0
    prepared = prepare(spec(TaskKind.CDF, "auto", public=public), n=2001)
    assert prepared.algorithm.name != "san-thresholds"
    pap_error = get_algorithm("pap").predicted_error(spec(TaskKind.CDF, "pap", public=public), 2001)
    assert 0 < pap_error < 1  # a fraction of n, like the tree CDFs
    points = get_algorithm("san-points").predicted_error(spec(TaskKind.HISTOGRAM, "san-points"), 2001)
    assert points == pytest.approx(1.0)  # a frequency, like the geometric histogram; trivial at this n


def test_pap_release_has_one_monotone_row_per_grid_point_and_a_shift_diagnostic(wages_csv, public_csv):
    public = PublicSample.from_file(public_csv)
    table = run(spec(TaskKind.CDF, "pap", delta=0.0, public=public), wages_csv)
    assert table.columns == ("value", "cdf") and len(table.rows) == WAGES.size
    cdf = np.array(table.column("cdf"))
    assert np.all(np.diff(cdf) >= 0) and cdf[0] >= 0 and cdf[-1] == 1
    assert table.column("value")[:3] == [0, 10, 20]
    assert any("shift diagnostic: no shift detected" in note for note in table.notes)


def test_san_thresholds_release_shows_the_guarantee_indicator(wages_csv):
    table = run(spec(TaskKind.CDF, "san-thresholds", alpha=0.5), wages_csv)
    cdf = np.array(table.column("cdf"))
    assert len(table.rows) == WAGES.size and np.all(np.diff(cdf) >= 0) and 0 <= cdf.min() <= cdf.max() <= 1
    assert any("guarantee not met (still private)" in note for note in table.notes)


def test_a_2_to_the_64_grid_gets_rows_only_at_the_step_points(wages_csv):
    huge = NumericDomain(0, 2**64 - 1, 1)
    table = run(spec(TaskKind.CDF, "san-thresholds", domain=huge, alpha=0.5), wages_csv)
    assert 1 <= len(table.rows) <= 154  # at most c = ceil(77 / 0.5) released points
    assert any("rows only where the step CDF changes" in note for note in table.notes)
    points = run(spec(TaskKind.HISTOGRAM, "san-points", domain=huge, epsilon=50.0, alpha=0.5), wages_csv)
    assert points.columns == ("value", "frequency")


def test_san_points_and_k_point_release_frequent_grid_values(wages_csv):
    coarse = NumericDomain(0, 5000, 100)
    table = run(spec(TaskKind.HISTOGRAM, "san-points", domain=coarse, epsilon=50.0, alpha=0.5), wages_csv)
    assert table.columns == ("value", "frequency") and 1 <= len(table.rows) <= 4
    assert all(v % 100 == 0 and 0 <= f <= 1 for v, f in table.rows)
    assert any("accuracy guarantee met" in note for note in table.notes)  # n = 2001 suffices at eps 50
    weak = run(spec(TaskKind.HISTOGRAM, "san-points", domain=coarse, alpha=0.5), wages_csv)
    assert any("guarantee not met (still private)" in note for note in weak.notes)
    sets = run(spec(TaskKind.HISTOGRAM, "k-point", domain=coarse, epsilon=50.0, alpha=0.5, k=3), wages_csv)
    assert len(sets.rows) <= 12 and any("a set of 3 values" in note for note in sets.notes)
