"""load_table: every supported format round-trips, and failures say which file and what to do."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dpgui.data import SUPPORTED_SUFFIXES, DataError, load_table, loaders
from dpgui.data.backends import open_aggregator
from dpgui.data.domain import NumericDomain
from dpgui.data.missing import MissingPolicy
from tests.data.checking import check_frames

FRAME = pd.DataFrame(
    {
        "wage": [354.94, 123.46, 370.37, 754.94],
        "education": [7, 12, 9, 11],
        "region": ["northeast", "south", "west", "midwest"],
    }
)

WRITERS = {
    ".csv": lambda frame, path: frame.to_csv(path, index=False),
    ".tsv": lambda frame, path: frame.to_csv(path, sep="\t", index=False),
    ".tab": lambda frame, path: frame.to_csv(path, sep="\t", index=False),
    ".parquet": lambda frame, path: frame.to_parquet(path, index=False),
    ".pq": lambda frame, path: frame.to_parquet(path, index=False),
    ".xlsx": lambda frame, path: frame.to_excel(path, index=False),
    ".feather": lambda frame, path: frame.to_feather(path),
    ".arrow": lambda frame, path: frame.to_feather(path),
}


@pytest.mark.parametrize("suffix", sorted(WRITERS))
def test_table_written_in_each_format_loads_back_equal(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"table{suffix}"
    WRITERS[suffix](FRAME, path)
    pd.testing.assert_frame_equal(load_table(path), FRAME)


def test_suffix_is_matched_case_insensitively(tmp_path: Path) -> None:
    path = tmp_path / "TABLE.CSV"
    FRAME.to_csv(path, index=False)
    pd.testing.assert_frame_equal(load_table(path), FRAME)


def test_supported_suffixes_lists_every_written_format() -> None:
    assert set(WRITERS) <= set(SUPPORTED_SUFFIXES)
    assert all(suffix.startswith(".") and suffix == suffix.lower() for suffix in SUPPORTED_SUFFIXES)


def test_unknown_suffix_names_the_file_and_lists_supported_suffixes(tmp_path: Path) -> None:
    path = tmp_path / "table.json"
    path.write_text("{}")
    with pytest.raises(DataError) as info:
        load_table(path)
    assert "table.json" in str(info.value)
    assert ".csv" in str(info.value) and ".parquet" in str(info.value)


def test_missing_file_names_the_file(tmp_path: Path) -> None:
    with pytest.raises(DataError, match=r"nowhere\.csv: file not found"):
        load_table(tmp_path / "nowhere.csv")


@pytest.mark.parametrize("text", ["", "   \n  \n", "\r\n\t"])  # blanks only: a column named '   ' (fuzz)
def test_empty_file_is_refused_with_its_name(tmp_path: Path, text: str) -> None:
    path = tmp_path / "empty.csv"
    path.write_text(text)
    with pytest.raises(DataError, match=r"empty\.csv: the file is empty"):
        load_table(path)


def test_header_without_rows_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "header.csv"
    path.write_text("a,b\n")
    with pytest.raises(DataError, match=r"header\.csv: .*no data rows"):
        load_table(path)


def test_damaged_file_is_reported_as_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "broken.parquet"
    path.write_bytes(b"not a parquet file")
    with pytest.raises(DataError, match=r"broken\.parquet: could not be read as \.parquet"):
        load_table(path)


def test_numeric_column_names_become_strings(tmp_path: Path) -> None:
    path = tmp_path / "numbers.xlsx"
    pd.DataFrame({0: [1.0], 1: [2.0]}).to_excel(path, index=False)
    assert list(load_table(path).columns) == ["0", "1"]


def test_a_column_on_another_sheet_is_named_with_the_sheets_not_read(tmp_path: Path) -> None:
    from dpgui.data.dataset import open_dataset
    from dpgui.data.text_format import describe_file_format
    from dpgui.data.validation import require_columns

    path = tmp_path / "book.xlsx"
    with pd.ExcelWriter(path) as workbook:
        pd.DataFrame({"note": ["read me"]}).to_excel(workbook, sheet_name="notes", index=False)
        FRAME.to_excel(workbook, sheet_name="data", index=False)
    frame = open_dataset(path).frame
    assert list(frame.columns) == ["note"]
    with pytest.raises(DataError, match=r"the columns are 'note' \(.*first sheet only.*'data'"):
        require_columns(frame, ["wage"], file_name=path.name)
    assert describe_file_format(path) == "Excel workbook (first sheet 'notes'; not read: 'data')"
    single = tmp_path / "single.xlsx"
    FRAME.to_excel(single, index=False)
    assert describe_file_format(single) == "Excel workbook (first sheet)"
    with pytest.raises(DataError, match=r"the columns are 'wage', 'education', 'region'$"):
        require_columns(load_table(single), ["age"], file_name=single.name)


def test_bundled_demo_files_load() -> None:
    resources = Path(__file__).resolve().parents[2] / "resources"
    assert load_table(resources / "cps1988.csv").shape == (28155, 7)
    assert len(load_table(resources / "cps1985.csv")) == 534


def test_an_empty_first_sheet_names_the_sheets_that_hold_the_table(tmp_path):
    from openpyxl import Workbook

    workbook = Workbook()
    workbook.active.title = "Cover"
    data = workbook.create_sheet("Data")
    for row in (["x", "y"], [1, 2], [3, 4]):
        data.append(row)
    path = tmp_path / "book.xlsx"
    workbook.save(path)
    with pytest.raises(DataError, match=r"first sheet is empty.*'Data'"):
        load_table(path)


def test_empty_rows_inside_a_sheet_are_records_and_those_after_it_are_not(tmp_path: Path) -> None:
    """An empty row between filled ones is a record whose every cell is missing (a sheet writes such a
    record so: dropping them made n count them, tests/data/test_a_missing_cell_is_still_a_record.py); the
    empty rows after the last value are the sheet's unused rows."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["x", "y"])
    for row in ([1, 2], [3, 4], [], [], [5, None], [], [None, None]):
        sheet.append(row)
    path = tmp_path / "blank_rows.xlsx"
    workbook.save(path)
    frame = load_table(path)
    assert len(frame) == 5 and frame["x"].iloc[[0, 1, 4]].tolist() == [1, 3, 5]
    assert frame.iloc[2:4].isna().all().all() and pd.isna(frame["y"].iloc[4])


@pytest.mark.parametrize("suffix", [".parquet", ".feather"])
def test_a_columnar_file_with_a_repeated_column_name_names_it(tmp_path: Path, suffix: str) -> None:
    """Parquet and Feather can hold two columns of one name; pandas then fails with a reader error that
    said the file might be damaged. The refusal names the column, as for a CSV header."""
    import pyarrow as pa
    import pyarrow.feather as feather
    import pyarrow.parquet as pq

    table = pa.Table.from_arrays([pa.array([1, 2]), pa.array([3, 4])], names=["wage", "wage"])
    path = tmp_path / f"twice{suffix}"
    (pq.write_table if suffix == ".parquet" else feather.write_feather)(table, path)
    with pytest.raises(DataError, match="names the column 'wage' twice"):
        load_table(path)
    with pytest.raises(DataError, match="names the column 'wage' twice"):
        open_aggregator(path, "embedded")  # from the schema it opens, without reading it again


def test_a_workbook_with_a_repeated_column_name_names_it(tmp_path: Path) -> None:
    """pandas renames a workbook's second 'x' to 'x.1': a release then ran on a column the file does not
    name (a fuzz run exported 'x.1', and declaring 'x' silently took the first). Refused as in a CSV."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    for row in (["x", "k", "x"], [1, "a", 2], [3, "b", 4]):
        sheet.append(row)
    path = tmp_path / "twice.xlsx"
    workbook.save(path)
    with pytest.raises(DataError, match="names the column 'x' twice"):
        load_table(path)
    sheet.cell(row=1, column=3, value="y")
    workbook.save(path)
    assert list(load_table(path).columns) == ["x", "k", "y"]  # the control: distinct names load


def test_excel_error_cells_are_text_as_in_a_csv(tmp_path: Path) -> None:
    """openpyxl hands pandas Excel's error cells (#DIV/0!, #VALUE!) as missing, so a broken formula was
    imputed like an empty cell, or its row taken for an empty one. They are kept as the text a CSV export
    holds: a numeric column refuses them, and #N/A stays missing, as read_csv counts it."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["x", "note"])
    for row in ([1, "a"], ["#DIV/0!", "b"], [], [3, "#N/A"], [None, "#REF!"], ["#VALUE!", None]):
        sheet.append(row)
    path = tmp_path / "errors.xlsx"
    workbook.save(path)
    assert sheet["A3"].data_type == "e"  # openpyxl stores these strings as error cells
    frame = load_table(path)
    assert frame["x"].tolist()[:2] == [1, "#DIV/0!"] and frame["x"].tolist()[5] == "#VALUE!"
    assert frame.iloc[2].isna().all()  # the empty row: a record with every cell missing
    assert pd.isna(frame["x"].iloc[4]) and pd.isna(frame["note"].iloc[3]) and pd.isna(frame["note"].iloc[5])
    assert frame["note"].tolist()[:2] == ["a", "b"] and frame["note"].iloc[4] == "#REF!"
    verdict = check_frames("errors.xlsx", [(0, frame)], ("x",), (NumericDomain(0, 10, 1),), MissingPolicy())
    assert verdict.columns[0].invalid == 2 and "'#DIV/0!' is not a finite number" in verdict.refusals[0]


def test_a_workbook_whose_only_missing_cell_is_an_excel_error_reads(tmp_path: Path) -> None:
    """An audit's sheet of 300 whole numbers, one of them #DIV/0!: once the error was back as its text no
    cell was missing, and the look for unsaved formulas indexed an empty list ("could not be read as
    .xlsx (IndexError ...)", the file called damaged). The error cell is now refused by its column."""
    from openpyxl import Workbook

    workbook = Workbook()
    sheet = workbook.active
    sheet.append(["x", "y"])
    for i in range(300):
        sheet.append(["#DIV/0!" if i == 3 else i % 100, i])
    path = tmp_path / "errcell.xlsx"
    workbook.save(path)
    frame = load_table(path)
    assert frame["x"].iloc[3] == "#DIV/0!" and not frame.isna().to_numpy().any()
    verdict = check_frames("errcell.xlsx", [(0, frame)], ("x",), (NumericDomain(0, 100, 1),), MissingPolicy())
    assert "'#DIV/0!' is not a finite number" in verdict.refusals[0]


@pytest.mark.parametrize("engine", ["memory", "embedded"])
@pytest.mark.parametrize(
    ("text", "line", "saw", "expected"),
    [
        ("id,sex,age\n1,F,30,\n2,M,40\n3,F,50\n", 2, 4, 3),  # a trailing delimiter on the first record
        ("id,sex,age\n\n1,F,30,7,8\n2,M,40\n", 3, 5, 3),  # after an empty line, which pandas skips
        ("city\nParis,France\nRome\nOslo\n", 2, 2, 1),  # one column: every other cell read as missing
    ],
)
def test_a_first_record_with_surplus_fields_is_refused_as_a_later_one_is(
    tmp_path: Path, engine: str, text: str, line: int, saw: int, expected: int
) -> None:
    """Neighbour audit, session 34 (a_implicit_index.py): pandas takes surplus fields on the FIRST record for
    an unnamed index column, made the first column the index and shifted every column of every record: one
    record's trailing comma moved (F, M, other) from [3, 2, 0] to [0, 0, 5]. The out-of-core reader dropped
    the surplus field. Both refuse it now, by its line, as any later record with surplus fields."""
    path = tmp_path / "people.csv"
    path.write_text(text, encoding="utf-8")
    refusal = rf"line {line} has {saw} fields, but the header names {expected} col"
    with pytest.raises(DataError, match=refusal):
        open_aggregator(path, engine)


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_a_row_with_too_many_fields_is_named_by_its_line_after_a_cell_spanning_lines(
    tmp_path: Path, engine: str
) -> None:
    """pandas counts records: after a quoted cell over two lines it called line 5 "line 4", and its
    "C error: Expected 2 fields" advised checking the file's suffix."""
    path = tmp_path / "notes.tsv"
    path.write_text('id\tnote\n1\t"two\nlines"\n2\tok\n3\tok\textra\n4\tok\n', encoding="utf-8")
    with pytest.raises(DataError) as refused:
        open_aggregator(path, engine)
    assert str(refused.value) == (
        "notes.tsv: line 5 has 3 fields, but the header names 2 columns; a cell that holds the delimiter (a "
        "tab) must be in double quotes: quote that cell or remove the extra fields, then open the file again"
    )


@pytest.mark.parametrize("engine", ["memory", "embedded"])
def test_a_quote_never_closed_is_refused_in_words_by_every_engine(tmp_path: Path, engine: str) -> None:
    """Neighbour audit, session 34 (g_embedded_crash.py): the out-of-core engine let pandas' ParserError
    out as a traceback where the in-memory one refused the file in words."""
    path = tmp_path / "open_quote.csv"
    path.write_text('cat,num\n"a,1\nb,2\n', encoding="utf-8")
    with pytest.raises(DataError, match=r"could not be read as \.csv"):
        open_aggregator(path, engine)


def test_a_hidden_first_sheet_is_refused_not_released_in_place_of_the_visible_one(tmp_path):
    """Loader fuzz (session 36): a hidden 'old_2019' sheet was read while Excel showed 'current'."""
    from openpyxl import Workbook

    workbook = Workbook()
    old = workbook.active
    old.title = "old_2019"
    for row in (["x"], [1], [1]):
        old.append(row)
    current = workbook.create_sheet("current")
    for row in (["x"], [99], [99]):
        current.append(row)
    old.sheet_state = "hidden"
    workbook.active = 1
    path = tmp_path / "book.xlsx"
    workbook.save(path)
    with pytest.raises(DataError, match=r"^book.xlsx: the workbook's first sheet 'old_2019' is hidden"):
        load_table(path)
    old.sheet_state = "visible"
    workbook.save(path)
    assert load_table(path)["x"].tolist() == [1, 1]  # a visible first sheet is read, as before


def test_a_formula_without_its_saved_result_is_refused_by_its_cell(tmp_path):
    """Loader fuzz (session 36): a formula written by a program that computes none read as an empty cell,
    and the release imputed it. A formula whose result was saved is read as that result."""
    from openpyxl import Workbook

    workbook = Workbook()
    for row in (["x", "y"], [1, 2], [3, 4], ["=A2+A3", 5], [None, 6]):
        workbook.active.append(row)
    path = tmp_path / "book.xlsx"
    workbook.save(path)
    with pytest.raises(DataError, match=r"^book.xlsx: cell A4 holds the formula =A2\+A3 without its result"):
        load_table(path)
    workbook.active["A4"] = 4  # as Excel saves it: the result
    workbook.save(path)
    assert load_table(path)["x"].tolist()[:3] == [1, 3, 4]


@pytest.mark.parametrize("chunk", [1 << 20, 7])  # 7 bytes: every range crosses a chunk boundary
def test_merged_cells_over_records_are_refused_by_their_range(tmp_path, monkeypatch, chunk):
    """Loader fuzz (session 36): Excel shows a merged range's value in each of its cells, but only the first
    holds it; the others read as missing and were imputed. An empty merged range and one in the header row
    read as Excel shows them, so they load."""
    from openpyxl import Workbook

    monkeypatch.setattr(loaders, "_CHUNK_BYTES", chunk)
    workbook = Workbook()
    for row in (["region", "x", "y"], ["north", 1, None], [None, 2, None], ["south", 3, 7]):
        workbook.active.append(row)
    path = tmp_path / "book.xlsx"
    workbook.active.merge_cells("C2:C3")  # empty: Excel shows it empty, as it reads
    workbook.save(path)
    assert load_table(path)["x"].tolist() == [1, 2, 3]
    workbook.active.merge_cells("A2:A3")
    workbook.save(path)
    with pytest.raises(DataError, match=r"^book.xlsx: cells A2:A3 are merged: Excel shows the first"):
        load_table(path)
