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
    KEEP,
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
    _same(memory.category_counts("cat", CATEGORIES, IMPUTE), spark.category_counts("cat", CATEGORIES, IMPUTE))
    table = (["x", "y", "cat"], [HALF, UNIT, CATEGORIES], [IMPUTE, FAIL, IMPUTE])
    cliques = [(2,), (0, 1), (2, 0, 1)]
    kept = (["x", "y", "cat"], [HALF, UNIT, CATEGORIES], [KEEP, KEEP, KEEP])
    mixed = (["cat", "x", "y"], [CATEGORIES, HALF, UNIT], [IMPUTE, FILL, IMPUTE])  # x's own policy
    for declared in (table, kept, mixed):
        pairs = zip(memory.marginals(*declared, cliques), spark.marginals(*declared, cliques), strict=True)
        for mine, theirs in pairs:
            _same(mine, theirs)
    with pytest.raises(DataError, match="missing"):
        spark.histogram("x", UNIT, FAIL)


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_the_spark_data_check_gives_the_in_memory_verdict_before_any_charge(
    tmp_path: Path, suffix: str
) -> None:
    """Issue 14: every engine gives the same verdict; Spark counts in its executors, only counts return."""
    pytest.importorskip("pyspark")
    import pandas as pd

    from dpgui.data import InMemoryAggregator, NumericDomain
    from dpgui.data.backends import open_aggregator
    from dpgui.data.checks import check_data
    from dpgui.data.dataset import open_dataset
    from dpgui.data.missing import MissingPolicy

    cells = ["1", None, "abc", "11", "-1", "5", "7", None] * 3
    frame = pd.DataFrame({"x": cells, "label": ["yes", "no"] * 12})
    path = tmp_path / f"private{suffix}"
    frame.to_csv(path, index=False) if suffix == ".csv" else frame.to_parquet(path, index=False)
    domain, policy = NumericDomain(0, 10, 1), MissingPolicy()
    memory = open_dataset(path)
    spark = open_aggregator(path, "spark")
    assert isinstance(spark.aggregator, SparkAggregator)
    args = (("x",), (domain,), policy)
    mine = check_data(memory, InMemoryAggregator(memory), *args, label="label", positive="yes")
    theirs = check_data(spark.dataset, spark.aggregator, *args, label="label", positive="yes")
    counts = [(c.column, c.rows, c.missing, c.invalid, c.out_of_bounds, c.unknown) for c in mine.columns]
    assert counts == [
        (c.column, c.rows, c.missing, c.invalid, c.out_of_bounds, c.unknown) for c in theirs.columns
    ]
    assert counts[0] == ("x", 24, 6, 3, 6, 0)
    assert theirs.refusals and "a row, column 'x': 'abc' is not a finite number" in theirs.refusals[0]
    assert mine.warnings == theirs.warnings and theirs.warnings  # 25% imputed


def test_spark_reads_a_semicolon_file_with_a_bom_and_decimal_commas_as_the_other_engines_do(
    tmp_path: Path,
) -> None:
    pytest.importorskip("pyspark")
    from dpgui.data import CategoricalDomain, InMemoryAggregator
    from dpgui.data.dataset import open_dataset

    path = tmp_path / "towns.csv"
    path.write_bytes("town;wage\nZürich;1,5\nKöln;2\nZürich;0,25\n".encode("utf-8-sig"))
    towns = CategoricalDomain(("Zürich", "Köln"))
    memory, spark = InMemoryAggregator(open_dataset(path)), SparkAggregator.open(path)
    assert spark.columns == ("town", "wage")
    _same(memory.category_counts("town", towns, IMPUTE), spark.category_counts("town", towns, IMPUTE))
    # decimal commas: 1,5 and 0,25 are numbers in both engines (on the half grid, not refused as text)
    _same(memory.histogram("wage", HALF, IMPUTE), spark.histogram("wage", HALF, IMPUTE))
    assert memory.histogram("wage", HALF, IMPUTE).sum() == 3


def test_spark_refuses_an_encoding_it_cannot_read_in_plain_words(tmp_path: Path) -> None:
    pytest.importorskip("pyspark")
    path = tmp_path / "towns.csv"
    path.write_bytes("town;wage\nZürich;1\nKöln;2\n".encode("cp1252"))
    with pytest.raises(DataError, match="cp1252 text, which the Spark engine cannot read"):
        SparkAggregator.open(path)


def test_spark_reads_a_column_with_text_as_text_in_every_arrow_batch(tmp_path: Path) -> None:
    """Arrow batches of 3 rows: the first ones hold digits and booleans only, the text comes last."""
    pytest.importorskip("pyspark")
    from dpgui.data import InMemoryAggregator
    from dpgui.data.backends.spark import spark_session
    from dpgui.data.dataset import open_dataset
    from tests.data.test_backends_text_columns import CODES, FLAGS, _file

    path = _file(tmp_path)
    memory = InMemoryAggregator(open_dataset(path))
    conf = spark_session().conf
    conf.set("spark.sql.execution.arrow.maxRecordsPerBatch", "3")
    try:
        spark = SparkAggregator.open(path)
        for column, domain in (("code", CODES), ("flag", FLAGS)):
            _same(
                memory.category_counts(column, domain, IMPUTE), spark.category_counts(column, domain, IMPUTE)
            )
    finally:
        conf.unset("spark.sql.execution.arrow.maxRecordsPerBatch")


def test_spark_reads_each_cell_alike_whatever_the_other_cells_hold(tmp_path: Path) -> None:
    """One record of text beside booleans moves one count, as on the other engines."""
    pytest.importorskip("pyspark")
    from tests.data.test_category_of_a_cell_is_its_own import CASES, KEEP, _moved_by_one_record, _neighbours

    cells, domain, _ = CASES["booleans"]
    moved = _moved_by_one_record(SparkAggregator.open, _neighbours(tmp_path, cells, "unknown"), domain)
    assert moved.tolist() == [0, 1, -1]
    assert SparkAggregator.open(tmp_path / "d.csv").category_counts("c", domain, KEEP).tolist() == [
        150,
        250,
        0,
    ]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_spark_reads_columns_whose_names_differ_only_in_case(tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("pyspark")
    import pandas as pd

    from dpgui.data import CategoricalDomain, InMemoryAggregator
    from dpgui.data.dataset import open_dataset

    path = _write(pd.DataFrame({"Name": ["x", "y", "x"], "name": ["p", "p", "q"]}), tmp_path, suffix)
    memory, spark = InMemoryAggregator(open_dataset(path)), SparkAggregator.open(path)
    assert spark.columns == ("Name", "name")
    for column, domain in (
        ("Name", CategoricalDomain(("x",), other=True)),
        ("name", CategoricalDomain(("p", "q"))),
    ):
        _same(memory.category_counts(column, domain, IMPUTE), spark.category_counts(column, domain, IMPUTE))


@pytest.mark.parametrize(("delimiter", "suffix"), [(",", ".csv"), ("\t", ".tsv")])
def test_spark_skips_a_line_of_spaces_as_pandas_does(tmp_path: Path, delimiter: str, suffix: str) -> None:
    """pandas reads a line of spaces (or tabs in a CSV) as a blank line, which is no row; Spark made a row of
    it, with the spaces as its first cell: n grew and that cell was refused as not a number. A line of empty
    fields stays a row of missing cells."""
    pytest.importorskip("pyspark")
    from dpgui.data import InMemoryAggregator
    from dpgui.data.dataset import open_dataset

    spaces = "   " if delimiter == "\t" else " \t "
    path = tmp_path / f"spaces{suffix}"
    path.write_text(
        delimiter.join(["x", "y"])
        + f"\n1{delimiter}2\n{spaces}\n3{delimiter}\n{spaces}\r\n4{delimiter}5\n{delimiter}\n"
    )
    memory, spark = InMemoryAggregator(open_dataset(path)), SparkAggregator.open(path)
    assert spark.count() == memory.count() == 4  # the last line, of empty fields, is a row
    _same(memory.histogram("x", UNIT, IMPUTE), spark.histogram("x", UNIT, IMPUTE))
    _same(memory.histogram("y", UNIT, IMPUTE), spark.histogram("y", UNIT, IMPUTE))


def test_spark_refuses_a_one_column_text_file_whose_empty_lines_are_records(tmp_path: Path) -> None:
    """Spark's CSV reader skips empty lines, and in a one-column file an empty line is a record with a
    missing cell (tests/data/test_a_missing_cell_is_still_a_record.py): refused in words, not miscounted."""
    pytest.importorskip("pyspark")
    path = tmp_path / "one.csv"
    path.write_text("wage\n1\n\n2\n")
    with pytest.raises(DataError, match="one column writes a missing value as an empty line"):
        SparkAggregator.open(path)


def test_a_missing_catalog_table_or_parquet_path_is_a_data_error_naming_it(tmp_path: Path) -> None:
    """CLI fuzz (session 36): Spark's AnalysisException reached the user as an 'unexpected' error."""
    pytest.importorskip("pyspark")
    with pytest.raises(DataError, match="no table 'no_such_table' in the Spark session's catalog"):
        SparkAggregator.open(table="no_such_table")
    with pytest.raises(DataError, match="cannot read it as Parquet"):
        SparkAggregator.open(tmp_path / "absent.parquet")
