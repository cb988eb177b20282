"""A cell's category (and whether it is a label's positive value) depends on that cell alone.

Observed (audit, bool_repro.py): ``pandas.read_csv`` types a column from all of its cells, so a column of
TRUE/FALSE read "true"/"false" and matched the declared categories true,false, until a neighbouring dataset
replaced ONE record by "unknown": the column became text, every cell kept its spelling TRUE/FALSE, and the
counts true 150 / false 250 / other 0 became 0 / 0 / 400. Codes written 1.0 (read "1" only while the column
is numeric), codes with leading zeros (007) and numbers with a decimal comma moved the same way, and the
noise of a count assumes that replacing one record moves at most one count. Every test here replaces one
record and checks that the other records keep their categories, on the in-memory and embedded engines.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.data import CategoricalDomain, InMemoryAggregator, MissingPolicy, NumericDomain
from dpgui.data.aggregate import Aggregator
from dpgui.data.backends.embedded import EmbeddedAggregator, FileSource
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import POINT, POINT_OR_COMMA, canonical_text, cell_text
from dpgui.data.missing import MissingKind

KEEP = MissingPolicy(MissingKind.KEEP)
WAGE = NumericDomain(0, 1000, 1)
Engine = Callable[[Path], Aggregator]
ENGINES: dict[str, Engine] = {
    "memory": lambda path: InMemoryAggregator(open_dataset(path)),
    "embedded": lambda path: EmbeddedAggregator(FileSource(path, batch_rows=64)),
}


def _neighbours(
    tmp_path: Path, cells: list[str], replacement: str, delimiter: str = ","
) -> tuple[Path, Path]:
    """A file of ``cells`` (column "c", beside a numeric column "wage"), and the same file with its last
    record's cell replaced by ``replacement``."""
    paths = []
    for name, column in (("d", cells), ("d_prime", [*cells[:-1], replacement])):
        rows = [f"{cell}{delimiter}{i % 7}" for i, cell in enumerate(column)]
        path = tmp_path / f"{name}.csv"
        path.write_text(f"c{delimiter}wage\n" + "\n".join(rows) + "\n", encoding="utf-8")
        paths.append(path)
    return paths[0], paths[1]


def _cells(engine: Engine, path: Path) -> pd.Series:
    """Column "c" as the engine reads it, every batch in order."""
    if engine is ENGINES["memory"]:
        return open_dataset(path).frame["c"]
    batches = FileSource(path, batch_rows=64).batches(["c"])
    return pd.concat([batch.frame["c"] for batch in batches], ignore_index=True)


def _moved_by_one_record(engine: Engine, paths: tuple[Path, Path], domain: CategoricalDomain) -> np.ndarray:
    """The counts of the file minus those of its neighbour: what the one replaced record moved."""
    before, after = (engine(path).category_counts("c", domain, KEEP) for path in paths)
    return before - after


CASES = {
    "booleans": (["TRUE"] * 150 + ["FALSE"] * 250, CategoricalDomain(("true", "false"), other=True), 1),
    "whole-number codes written 1.0": (
        ["1.0"] * 30 + ["2.0"] * 40,
        CategoricalDomain(("1", "2"), other=True),
        1,
    ),
    "codes with leading zeros": (["007"] * 30 + ["012"] * 40, CategoricalDomain(("7", "12"), other=True), 1),
    "numbers written 2.50": (["2.50"] * 30 + ["3.0"] * 40, CategoricalDomain(("2.5", "3"), other=True), 1),
}


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_replacing_one_record_by_text_moves_one_count(tmp_path: Path, case, engine: Engine) -> None:
    cells, domain, replaced = case
    moved = _moved_by_one_record(engine, _neighbours(tmp_path, cells, "unknown"), domain)
    expected = np.zeros(domain.size, np.int64)
    expected[replaced] += 1  # the last record left its category (the second) ...
    expected[-1] -= 1  # ... for 'other'
    assert moved.tolist() == expected.tolist()


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_a_decimal_comma_file_reads_a_number_cell_alike_beside_text(tmp_path: Path, engine: Engine) -> None:
    cells = ["2,5"] * 30 + ["3,0"] * 40
    paths = _neighbours(tmp_path, cells, "unknown", delimiter=";")
    domain = CategoricalDomain(("2.5", "3"), other=True)
    assert engine(paths[0]).category_counts("c", domain, KEEP).tolist() == [30, 40, 0]
    assert _moved_by_one_record(engine, paths, domain).tolist() == [0, 1, -1]


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
@pytest.mark.parametrize("declared", [("1,3", "1,7", "2,0"), ("1.3", "1.7", "2")])
def test_a_point_in_another_column_leaves_a_semicolon_files_commas_read_alike(
    tmp_path: Path, engine: Engine, declared: tuple[str, ...]
) -> None:
    """Privacy review, session 34 (decimal_flip.py): the decimal mark was guessed from the first 64 KiB's
    numbers, a comma only when none was written with a point. One record's unused cell 0.5 in place of ok
    made every 1,3 text, and the counts 100/100/100/other 0 became 0/0/0/300. The marks now follow from the
    delimiter: 1,3 reads 1.3 whatever the other cells hold, and a declared 1,3 matches it."""
    grades = ["1,3", "1,7", "2,0"] * 100
    paths = []
    for name, note in (("d", "ok"), ("d_prime", "0.5")):
        path = tmp_path / f"{name}.csv"
        rows = [f"{grade};{note if i == 0 else 'ok'}" for i, grade in enumerate(grades)]
        path.write_text("c;note\n" + "\n".join(rows) + "\n", encoding="utf-8")
        paths.append(path)
    domain = CategoricalDomain(declared, other=True)
    counts = [engine(path).category_counts("c", domain, KEEP).tolist() for path in paths]
    assert counts == [[100, 100, 100, 0]] * 2


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
@pytest.mark.parametrize("huge", ["9223372036854775808", "18446744073709551615"])
def test_an_integer_beyond_2_63_leaves_the_other_records_missing_cells_missing(
    tmp_path: Path, engine: Engine, huge: str
) -> None:
    """Neighbour audit, session 34 (b_bigint_missing.py): pandas 3.1 returns a column holding an integer of
    2^63 or more as text, with every other record's empty, NA and null cells as those texts: a synthetic
    table's kept missing cells (its default) moved to 'other'."""
    cells = ["5"] * 30 + [""] * 10 + ["NA"] * 5 + ["null"] * 5 + ["7"] * 20
    paths = _neighbours(tmp_path, cells, huge)
    read = [[None if pd.isna(v) else cell_text(v) for v in _cells(engine, path)] for path in paths]
    assert read[0][:-1] == read[1][:-1] and read[0].count(None) == 20  # the missing cells stay missing
    assert read[1][-1] == cell_text(float(huge))


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
def test_a_whole_number_beyond_2_53_reads_alike_beside_an_empty_cell(tmp_path: Path, engine: Engine) -> None:
    """pandas keeps 9007199254740993 exact in a column of integers, and rounds it to ...992 in a column with
    a gap: every cell reads the rounded number, so emptying another cell moves nothing else."""
    cells = ["9007199254740993"] * 30 + ["5"] * 40
    paths = _neighbours(tmp_path, cells, "")
    domain = CategoricalDomain(("9007199254740993", "5"), other=True)
    assert engine(paths[0]).category_counts("c", domain, KEEP).tolist() == [30, 40, 0]
    assert _moved_by_one_record(engine, paths, domain).tolist() == [0, 1, -1]


@pytest.mark.parametrize("engine", ENGINES.values(), ids=ENGINES.keys())
@pytest.mark.parametrize(("cells", "positive"), [(["TRUE", "FALSE"], "TRUE"), (["1.0", "0.0"], "1")])
def test_a_positive_label_reads_alike_beside_text(
    tmp_path: Path, engine: Engine, cells: list[str], positive: str
) -> None:
    paths = _neighbours(tmp_path, [cells[0]] * 30 + [cells[1]] * 40, "unknown")
    positives = [
        engine(path).labelled_rows("wage", WAGE, MissingPolicy(), "c", positive)[1] for path in paths
    ]
    assert positives[0].sum() == 30
    assert np.array_equal(positives[0], positives[1])  # the replaced record was negative, and stays so


@pytest.mark.parametrize("marks", [POINT, POINT_OR_COMMA])
@pytest.mark.parametrize(
    "text",
    ["TRUE", "False", " 007 ", "+7", "-0", "1.0", "2.50", "1e5", "1E-3", ".5", "5.", "2,50", ",5", "inf",
     "-Infinity", "9007199254740993", "18446744073709551617", "1" * 400, "1,5e3", "1.234,5"],
)  # fmt: skip
def test_a_text_cell_reads_as_the_cell_pandas_types_from_it(text: str, marks: str) -> None:
    """Where ``pandas.read_csv`` makes the cell a boolean or a number (beside one other cell like it) with
    one of the ``marks`` as its decimal mark, its text as a category is the text of that value; elsewhere
    the cell is text, and reads stripped."""
    other = "TRUE" if text.strip().lower() in ("true", "false") else "1"
    typed = [pd.read_csv(io.StringIO(f'c\n"{text}"\n{other}\n'), decimal=mark)["c"].iloc[0] for mark in marks]
    numbers = [value for value in typed if not isinstance(value, str)]
    assert canonical_text(text, marks) == (cell_text(numbers[0]) if numbers else text.strip())


def test_text_that_is_no_number_keeps_its_spelling() -> None:
    for text in ("1_000", "0x1A", "١٢", "1.5.2", "tRuE-ish", " yes ", "nan", "1,200"):
        assert canonical_text(text) == text.strip()


@pytest.mark.parametrize(
    ("cells", "replacement", "declared"),
    [
        ([True, False, True, True, False], None, ("true", "false")),  # an empty cell: booleans stay booleans
        ([True, False, True, True, False], 3.5, ("true", "false")),  # a number beside booleans
        (["007", "010", "007", "007", "010"], "A12", ("7", "10")),  # a text code beside digit codes
    ],
)
def test_a_workbook_cell_reads_alike_whatever_its_column_holds(
    tmp_path: Path, cells: list[object], replacement: object, declared: tuple[str, ...]
) -> None:
    """Neighbour audit, session 34 (c_xlsx_typing.py): ``read_excel`` typed a column from all of its cells,
    so one empty cell turned TRUE and FALSE into 1.0 and 0.0, and one text code A12 kept the others from
    reading 7 and 10: (true, false, other) [3, 2, 0] became [0, 0, 5]. Each cell is read on its own now."""
    paths = []
    for name, column in (("d", cells), ("d_prime", [*cells[:-1], replacement])):
        path = tmp_path / f"{name}.xlsx"
        frame = pd.DataFrame({"id": range(len(column)), "c": pd.Series(column, dtype=object)})
        frame.to_excel(path, index=False)
        paths.append(path)
    domain = CategoricalDomain(declared, other=True)
    memory = ENGINES["memory"]
    assert memory(paths[0]).category_counts("c", domain, KEEP).tolist() == [3, 2, 0]
    assert _moved_by_one_record(memory, (paths[0], paths[1]), domain).tolist() == [0, 1, -1]
