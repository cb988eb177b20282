"""The Spark backend gives exactly the in-memory backend's aggregates (local mode).

Marked ``spark``. They run wherever Java is on PATH (pyspark comes with the test extra): local mode starts
a JVM, which takes about 20 s of the module's 25 s here; without Java they are skipped and say so.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from dpgui.data import DataError
from dpgui.data.backends.spark import SparkAggregator
from tests.data.test_backends import (
    CATEGORIES,
    FAIL,
    FILL,
    HALF,
    HUGE,
    IMPUTE,
    UNIT,
    _same,
    _tricky_frame,
    _write,
)

pytestmark = [
    pytest.mark.spark,
    pytest.mark.skipif(shutil.which("java") is None, reason="Spark's local mode needs Java 17 on PATH"),
    # pyspark's own notices about pandas 3 (the aggregates are checked exactly all the same)
    pytest.mark.filterwarnings("ignore::FutureWarning", "ignore::DeprecationWarning"),
]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_spark_aggregates_equal_the_in_memory_ones_exactly(tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("pyspark")
    from dpgui.data import InMemoryAggregator
    from dpgui.data.dataset import open_dataset

    path = _write(_tricky_frame(), tmp_path, suffix)
    memory, spark = InMemoryAggregator(open_dataset(path)), SparkAggregator.open(path)
    assert spark.count() == memory.count()
    for domain in (UNIT, HALF, HUGE):
        _same(
            memory.sorted_distinct_counts("x", domain, FILL), spark.sorted_distinct_counts("x", domain, FILL)
        )
    _same(memory.histogram("x", UNIT, IMPUTE), spark.histogram("x", UNIT, IMPUTE))
    _same(
        memory.labelled_distinct_counts("x", UNIT, FILL, "label", None),
        spark.labelled_distinct_counts("x", UNIT, FILL, "label", None),
    )
    _same(
        memory.labelled_distinct_counts("x", HALF, FILL, "flag", "7"),
        spark.labelled_distinct_counts("x", HALF, FILL, "flag", "7"),
    )
    _same(
        memory.joint_histogram("x", HALF, IMPUTE, "y", UNIT, FAIL),
        spark.joint_histogram("x", HALF, IMPUTE, "y", UNIT, FAIL),
    )
    _same(memory.category_counts("cat", CATEGORIES, IMPUTE), spark.category_counts("cat", CATEGORIES, IMPUTE))
    table = (["x", "y", "cat"], [HALF, UNIT, CATEGORIES], [IMPUTE, FAIL, IMPUTE])
    cliques = [(2,), (0, 1), (2, 0, 1)]
    for mine, theirs in zip(memory.marginals(*table, cliques), spark.marginals(*table, cliques), strict=True):
        _same(mine, theirs)
    with pytest.raises(DataError, match="missing"):
        spark.histogram("x", UNIT, FAIL)
