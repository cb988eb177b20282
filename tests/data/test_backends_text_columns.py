"""A column of delimited text is typed by the whole file in every engine, not batch by batch.

``pandas.read_csv`` keeps a column's cells as written ('007', '1.0', 'TRUE') when some cell is text; a
batch of digits read alone made them numbers (7, 1, true), so the categories counted depended on where the
embedded engine's batches fell, and on the Spark engine's Arrow batches. Text cells are then read per
cell (``loaders.canonical_cells``: '007' as "7", '1.0' as "1", 'TRUE' as "true") in every engine.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from dpgui.data import CategoricalDomain, InMemoryAggregator, MissingKind, MissingPolicy, NumericDomain
from dpgui.data.backends.embedded import EmbeddedAggregator, FileSource
from dpgui.data.backends.spark import TextCells, _cells, _read_kinds
from dpgui.data.checks import check_data
from dpgui.data.dataset import DatasetHandle, open_dataset

CODES = CategoricalDomain(("007", "1", "true"), other=True)
FLAGS = CategoricalDomain(("true", "false"), other=True)
AGE = NumericDomain(0, 10, 1)


def _file(tmp_path: Path) -> Path:
    """The first 6 rows are digits and booleans only; text ('A1', 'yes') comes in the last rows."""
    rows = ["007,1,TRUE", "1.0,2,False", "007,3,true", "1,,TRUE", "007,5,False", "1.0,6,true"]
    rows += ["A1,7,yes", "007,8,TRUE", "1.0,9,no"]
    path = tmp_path / "codes.csv"
    path.write_text("code,age,flag\n" + "\n".join(rows) + "\n")
    return path


def test_a_column_with_text_reads_as_text_in_every_batch(tmp_path: Path) -> None:
    path = _file(tmp_path)
    dataset = open_dataset(path)
    memory = InMemoryAggregator(dataset)
    scanned = EmbeddedAggregator(FileSource(path, batch_rows=3))
    impute, keep = MissingPolicy(), MissingPolicy(MissingKind.KEEP)
    expected = memory.category_counts("code", CODES, impute)
    assert expected.tolist() == [4, 4, 0, 1]  # '1.0' is the code 1 however the column is typed; 'A1' other
    assert np.array_equal(scanned.category_counts("code", CODES, impute), expected)
    table = (["code", "age", "flag"], [CODES, AGE, FLAGS], [keep, keep, keep])
    cliques = [(0,), (2,), (0, 2), (1, 2)]
    marginals = zip(memory.marginals(*table, cliques), scanned.marginals(*table, cliques), strict=True)
    assert all(np.array_equal(mine, theirs) for mine, theirs in marginals)
    handle = DatasetHandle(path, "", scanned.count(), scanned.source.header)
    for column, domain in (("code", CODES), ("flag", FLAGS)):
        mine = check_data(dataset, memory, (column,), (domain,), impute)
        theirs = check_data(handle, scanned, (column,), (domain,), impute)
        assert mine.columns == theirs.columns


def test_numbers_in_one_batch_and_booleans_in_another_make_text(tmp_path: Path) -> None:
    """Batches of 2,048 rows: the first holds numbers only, the second booleans only."""
    path = tmp_path / "mixed.csv"
    path.write_text("flag\n" + "1\n" * 2048 + "TRUE\n" * 600)
    assert open_dataset(path).frame["flag"].iloc[[0, -1]].tolist() == ["1", "true"]
    scanned = EmbeddedAggregator(FileSource(path, batch_rows=2048))
    truth = CategoricalDomain(("1", "true"), other=True)
    assert scanned.category_counts("flag", truth, MissingPolicy()).tolist() == [2048, 600, 0]


def test_spark_udfs_learn_the_typing_and_read_a_text_column_per_cell() -> None:
    """What the Spark engine's UDFs do with a CSV's text cells, batch by batch (no Spark needed)."""
    batches = [pd.Series(["007", "1.0", None]), pd.Series(["A1", "007", "1.0"])]
    learning = TextCells(".", as_text=False)
    kinds = _read_kinds(_cells(batch, "code", learning) for batch in batches)
    assert sorted(kinds.itertuples(index=False, name=None)) == [("code", "number"), ("code", "text")]
    assert _cells(batches[0], "code", learning)["code"].tolist()[:2] == [7, 1]  # what a batch read alone
    kept = _cells(batches[0], "code", TextCells(".", as_text=True))["code"]
    assert kept.tolist()[:2] == ["7", "1"] and kept.isna().tolist() == [False, False, True]  # read per cell


def test_the_in_memory_loader_types_a_column_from_the_whole_file(tmp_path: Path) -> None:
    """pandas parses a file of 256 columns in internal chunks of 2,048 rows: the first chunk's codes are all
    digits, the text comes after."""
    codes = ["007"] * 2048 + ["A1"] * 52
    frame = pd.DataFrame({"code": codes, **{f"c{i}": 0 for i in range(255)}})
    path = tmp_path / "wide.csv"
    frame.to_csv(path, index=False)
    assert open_dataset(path).frame["code"].iloc[[0, -1]].tolist() == ["7", "A1"]
    memory = InMemoryAggregator(open_dataset(path))
    scanned = EmbeddedAggregator(FileSource(path, batch_rows=1000))
    expected = memory.category_counts("code", CODES, MissingPolicy())
    assert expected.tolist() == [2048, 0, 0, 52]
    assert np.array_equal(scanned.category_counts("code", CODES, MissingPolicy()), expected)
