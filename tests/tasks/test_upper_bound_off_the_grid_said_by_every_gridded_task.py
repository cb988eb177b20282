"""A histogram, quantiles, a median or an interior point whose upper bound is not a grid point say where
the values above the last grid point went, as the CDF does.

Observed: bounds 0 to 1000 at step 3 end the grid at 999; values above it counted in the last bin of a
histogram and were released as 999 by quantiles, the median and an interior point, and nothing said so (the
CDF's sentence, ``cdf_meaning``, did). The sentence is each table's ``meaning``: release.csv's header
comment, the manifest, the report and the Review page, where the CDF's is.
"""

from __future__ import annotations

import json

import pandas as pd
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.cli import main
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.outputs import histogram_meaning, quantile_meaning
from dpgui.tasks.registry import algorithms
from dpgui.tasks.spec import TaskKind, TaskSpec

KINDS = (TaskKind.HISTOGRAM, TaskKind.QUANTILES, TaskKind.MEDIAN, TaskKind.INTERIOR_POINT)
GRIDDED = [info for kind in KINDS for info in algorithms(kind) if info.name != "heavypaths"]
"""HeavyPaths needs about 77,000 records here; it builds its table as TreeLog does (``_interior_table``)."""
SAID = "the upper bound 1000 is not a grid point, so values above the last grid point 999 count at it"


@pytest.fixture(scope="module")
def data(tmp_path_factory) -> InMemoryAggregator:
    path = tmp_path_factory.mktemp("v") / "v.csv"
    pd.DataFrame({"v": [10, 500, 999.5, 1000] * 500}).to_csv(path, index=False)
    return InMemoryAggregator(open_dataset(path))


@pytest.mark.parametrize("info", GRIDDED, ids=lambda info: f"{info.task.value}-{info.name}")
@pytest.mark.parametrize(("upper", "said"), [(1000, True), (999, False)])
def test_every_histogram_quantile_and_median_algorithm_says_it(info, upper, said, data):
    spec = TaskSpec(info.task, ("v",), (NumericDomain(0, upper, 3),), 5.0, 1e-6, info.name)
    assert not info.preconditions(spec, data.count())
    table = run_to_end(info.run(spec, data, SeededRandom(0)))
    assert (SAID in table.meaning) is said, table.meaning


def test_the_sentences_say_what_the_last_row_or_value_stands_for():
    histogram = histogram_meaning("v", NumericDomain(0, 1000, 3))
    assert histogram.startswith("count = records whose v is nearest to value; the first and last rows also")
    assert histogram.endswith(f"; {SAID}: its row also counts the records above it, up to 1000")
    quantile = quantile_meaning("v", NumericDomain(0, 1000, 3))
    assert "one outside the declared bounds at the first or last" in quantile  # clipped values (an audit)
    assert quantile.endswith(f"; {SAID}: a value released at it may stand for any v above it")
    on_the_grid = histogram_meaning("v", NumericDomain(0, 100, 100 / 7))  # --bins 7: the bound is a point
    assert "not a grid point" not in on_the_grid and "below and above the declared bounds" in on_the_grid


@pytest.mark.parametrize(
    ("task", "extra", "said"),
    [
        ("histogram", [], "its row also counts the records above it, up to 1000"),
        ("quantiles", ["--q", "0.5,0.9"], "a value released at it may stand for any v above it"),
        ("median", [], "a value released at it may stand for any v above it"),
    ],
)
def test_release_csv_and_the_manifest_state_it(task, extra, said, tmp_path, isolated_home, capsys):
    data = tmp_path / "v.csv"
    pd.DataFrame({"v": [10, 500, 999.5, 1000] * 50}).to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    out = tmp_path / "out"
    code = main(
        ["release", task, "--data", str(data), "--column", "v", "--bounds", "0", "1000", "--granularity",
         "3", "--epsilon", "5", "--accept-warnings", "--out", str(out), *extra]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    header = (out / "release.csv").read_text(encoding="utf-8").splitlines()[0]
    assert header.startswith("# ") and SAID in header and said in header
    assert said in json.loads((out / "manifest.json").read_text())["meaning"]
