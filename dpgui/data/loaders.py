"""Reading a table from disk into a DataFrame, whatever the supported format."""

from __future__ import annotations

import csv
import numbers
import re
from collections.abc import Callable, Collection, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from dpgui.data.domain import POINT, canonical_text, number_of_text
from dpgui.data.errors import DataError, refuse_non_file
from dpgui.data.missing import MISSING_SPELLINGS
from dpgui.data.text_format import DELIMITED_SUFFIXES, TextFormat, refuse_non_table, sniff_text

Reader = Callable[[Path], pd.DataFrame]


def _read_delimited(path: Path, encoding: str | None = None) -> pd.DataFrame:
    """The whole file, each column typed from all of its cells (``low_memory=False``): by default pandas
    types each of its internal chunks (2^20 / columns rows, rounded down to a power of two) on its own,
    so a column of codes with text further down read '007' as 7 and 'TRUE' as true in its first chunks
    only, and a cell's category depended on where that chunk ended. Text cells are then read per cell
    (``canonical_cells``). ``encoding``: the declared encoding, None for the automatic reading."""
    text_format = sniff_text(path, encoding)
    frame = pd.read_csv(
        path,
        sep=text_format.delimiter,
        encoding=text_format.encoding,
        encoding_errors=text_format.encoding_errors,
        skip_blank_lines=text_format.skip_blank_lines,
        low_memory=False,
    )
    return canonical_cells(frame, text_format.decimal_marks)


def _number_of_cell(value: object, marks: str) -> float | None:
    """A cell's number: its text's (``number_of_text``), or a workbook's number itself (not a boolean)."""
    if isinstance(value, str):
        return number_of_text(value, marks)
    if isinstance(value, numbers.Real) and not isinstance(value, bool | np.bool_):
        return float(value)
    return None


def canonical_cells(frame: pd.DataFrame, marks: str, text: Collection[str] = ()) -> pd.DataFrame:
    """``frame`` (read from delimited text with pandas' decimal point, or a workbook's first sheet cell by
    cell) with every text cell replaced by its ``canonical_text`` under the file's decimal ``marks``: TRUE
    by "true", 007 by "7", 2,50 by "2.5" in a semicolon file. A column of numbers only becomes numeric,
    unless it is one of the ``text`` columns (a batch of a column the whole file makes text:
    ``backends.embedded.TextColumns``).

    ``pandas.read_csv`` makes such cells booleans or numbers only when every cell of their column is one, so
    without this one record of text kept every other cell of its column as written, and moved them all to
    another category (the noise of a count assumes one record moves one count). Every engine applies this
    to the cells it reads, so they count alike."""
    for column in frame.columns:
        values = frame[column]
        if values.dtype == object or pd.api.types.is_string_dtype(values):
            frame[column] = _canonical_column(values, marks, numbers=column not in text)
    return frame


def factorize_cells(values: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize``, except that a boolean cell and a number cell are never one value.

    pandas hashes True as 1 and False as 0, so in a column mixing them (a workbook's TRUE and 1) the first
    such cell decided what all of them read: a table audit's two files differing in one record released
    (true, 1) counts of [1000, 0] and [0, 1000]. Only a column of objects whose distinct values include a
    boolean, or a 0 or 1 that a boolean may hide behind, is factorized again, its booleans apart.
    """
    codes, uniques = pd.factorize(values)
    if values.dtype != object or not any(_may_hide_a_boolean(value) for value in uniques):
        return codes, uniques
    booleans = np.fromiter((isinstance(value, bool | np.bool_) for value in values), bool, len(values))
    if booleans.all() or not booleans.any():
        return codes, uniques
    other_codes, other_uniques = pd.factorize(values[~booleans])
    boolean_codes, boolean_uniques = pd.factorize(values[booleans])
    codes = np.empty(len(values), dtype=np.int64)
    codes[~booleans] = other_codes
    codes[booleans] = boolean_codes + len(other_uniques)  # a boolean cell is never missing: no -1 here
    return codes, np.array([*other_uniques, *boolean_uniques], dtype=object)


def _may_hide_a_boolean(value: object) -> bool:
    """A boolean, or a number equal to one (pandas' factorize files True under 1 and False under 0)."""
    return isinstance(value, bool | np.bool_) or (isinstance(value, numbers.Number) and value in (0, 1))


def _canonical_column(values: pd.Series, marks: str, *, numbers: bool) -> pd.Series:
    """The text cells of one column as their ``canonical_text`` (each distinct value converted once); with
    ``numbers``, a column whose every cell is a number as float64 (a semicolon file's 12,5 and 7: pandas,
    reading a point, left them as text), each cell the number its text reads, as ``canonical_text``
    writes it. A cell spelt as a missing value is missing: pandas 3.1 returns a column holding an integer of
    2^63 or more as text with every other record's empty, NA and null cells as those texts (a neighbour
    audit: one such record moved four missing cells to 'other')."""
    values = values.mask(values.isin(MISSING_SPELLINGS))  # see below
    codes, uniques = factorize_cells(values)
    read_numbers = [_number_of_cell(value, marks) for value in uniques]
    if numbers and len(uniques) and all(number is not None for number in read_numbers):
        if not any(isinstance(value, str) for value in uniques):  # a workbook's numbers: whole ones stay int
            return pd.to_numeric(values)
        return pd.Series(np.array([*read_numbers, np.nan])[codes], index=values.index, name=values.name)
    read = [canonical_text(value, marks) if isinstance(value, str) else value for value in uniques]
    cells = np.array([*read, np.nan], dtype=object)[codes]  # code -1, a missing cell, picks the NaN
    return pd.Series(cells, index=values.index, name=values.name, dtype=values.dtype)


OTHER_SHEETS = "other_sheets"
"""``DataFrame.attrs`` key: the names of a workbook's sheets after the first, which dpgui does not read."""


EXCEL_MISSING_ERRORS = frozenset({"#N/A"})
"""Excel's error values that mean "no value" (a lookup that found nothing): ``read_csv`` counts the same
text in a CSV export as missing, so the workbook's cell stays missing too."""


def _restore_error_cells(frame: pd.DataFrame, sheet: Any, path: Path) -> None:
    """Put Excel's error values (#DIV/0!, #VALUE!, #REF!) back into ``frame`` as the text a CSV export
    holds, so a numeric column refuses a broken formula as it refuses that text in a CSV.

    openpyxl reads an error cell as its text with type "e", and pandas turns it into a missing value: a
    broken formula was imputed like an empty cell, or its row dropped as blank. The sheet is read a second
    time, only when the frame has a missing cell. Its rows map to the frame's as ``read_excel`` maps them
    (the sheet's first row is the header, each later row a record, blank ones too, cells by position); a
    cell that does not map to a missing value of the frame is refused by its address.
    """
    if getattr(sheet, "read_only", False):
        sheet.reset_dimensions()  # as read_excel does: a sheet's declared extent may be wrong
    for row_number, cells in enumerate(sheet.rows, start=-1):
        for position, cell in enumerate(cells):
            if row_number < 0 or cell.data_type != "e" or cell.value in EXCEL_MISSING_ERRORS:
                continue
            if not (row_number < frame.shape[0] and position < frame.shape[1]) or not pd.isna(
                frame.iat[row_number, position]
            ):
                raise DataError(
                    f"{path.name}: cell {cell.coordinate} holds Excel's error {cell.value}; fix its formula "
                    "or clear it, or save the sheet as .csv"
                )
            column = frame.columns[position]
            if frame[column].dtype != object:
                frame[column] = frame[column].astype(object)
            frame.iat[row_number, position] = cell.value


def _refuse_unsaved_formulas(frame: pd.DataFrame, path: Path) -> None:
    """DataError for a formula cell whose result was never saved (a workbook written by a program that
    does not compute formulas, as openpyxl): it reads as an empty cell, and a release imputed it like a
    missing value (a loader fuzz). The formulas are read once more, only when the frame has a missing cell,
    and only up to the last row that has one (100,000 rows, one missing cell at the middle: 6.5 s to 4 s)."""
    from openpyxl import load_workbook  # lazy: only for workbooks

    missing_rows = np.flatnonzero(frame.isna().to_numpy().any(axis=1))  # only a missing cell can be one
    if not missing_rows.size:  # its missing cells were Excel errors, now back as their text
        return
    first, last = int(missing_rows[0]), int(missing_rows[-1])
    workbook = load_workbook(path, read_only=True, data_only=False)
    try:
        rows = workbook.worksheets[0].iter_rows(min_row=first + 2, max_row=last + 2)  # sheet row 2: record 0
        for row_number, cells in enumerate(rows, start=first):
            for position, cell in enumerate(cells):
                if cell.data_type != "f" or row_number >= frame.shape[0] or position >= frame.shape[1]:
                    continue
                if pd.isna(frame.iat[row_number, position]):
                    raise DataError(
                        f"{path.name}: cell {cell.coordinate} holds the formula {str(cell.value)[:40]} "
                        "without its result (the program that wrote the workbook did not compute it); open "
                        "and save it in Excel or LibreOffice, or save the sheet as .csv"
                    )
    finally:
        workbook.close()


_MERGED_RANGE = re.compile(rb'<(?:\w+:)?mergeCell\s+ref="([A-Z]+\d+)(?::([A-Z]+\d+))?"')
_CHUNK_BYTES = 1 << 20
"""How much of a sheet's XML is scanned for merged ranges at a time."""
_OVERLAP = 256
"""Bytes each chunk of a sheet's XML keeps from the one before, so no range is cut in two."""


def _merged_ranges(sheet: Any, path: Path) -> set[tuple[bytes, bytes]]:
    """The first sheet's merged ranges (first cell, last cell), read from its XML, where they follow the
    cells: the part is scanned to its end in chunks (``_CHUNK_BYTES``)."""
    import zipfile

    part = getattr(sheet, "_worksheet_path", None)
    if part is None:
        return set()
    found: set[tuple[bytes, bytes]] = set()
    tail = b""
    with zipfile.ZipFile(path) as archive, archive.open(part.lstrip("/")) as xml:
        while chunk := xml.read(_CHUNK_BYTES):
            text = tail + chunk
            found.update(_MERGED_RANGE.findall(text))
            tail = text[-_OVERLAP:]
    return found


def _refuse_merged_cells(frame: pd.DataFrame, sheet: Any, path: Path) -> None:
    """DataError for merged cells over the table's records: Excel shows the range's value in each of its
    cells, but only the first holds it, and the others read as missing values and were imputed (a loader
    fuzz). Read only when the frame has a missing cell; a range within the header row is let be."""
    from openpyxl.utils.cell import coordinate_to_tuple

    for first, last in sorted(_merged_ranges(sheet, path)):
        if not last:
            continue
        top, left = coordinate_to_tuple(first.decode("ascii"))
        bottom, right = coordinate_to_tuple(last.decode("ascii"))
        if top >= 2 and (top - 2 >= frame.shape[0] or left > frame.shape[1]):
            continue  # beyond the table
        if top >= 2 and pd.isna(frame.iat[top - 2, left - 1]):
            continue  # an empty range: Excel shows it empty too
        rows = range(max(top, 2) - 2, min(bottom - 1, frame.shape[0]))  # sheet row 2 is record 0
        columns = range(left - 1, min(right, frame.shape[1]))
        if any(pd.isna(frame.iat[r, c]) for r in rows for c in columns):
            span = f"{first.decode('ascii')}:{last.decode('ascii')}"
            raise DataError(
                f"{path.name}: cells {span} are merged: Excel shows the first cell's value in each, but only "
                "the first holds it and the others read as missing; unmerge them and fill the value into "
                "each cell, or save the sheet as .csv"
            )


def _refuse_hidden_first_sheet(sheet: Any, path: Path) -> None:
    """DataError when the first sheet, which dpgui reads, is hidden: Excel opens on a visible one, so the
    custodian reviewed other values than the release would count (a loader fuzz: a hidden 2019 sheet was
    released in place of the current one, without a word)."""
    if getattr(sheet, "sheet_state", "visible") != "visible":
        raise DataError(
            f"{path.name}: the workbook's first sheet {sheet.title!r} is hidden, and dpgui reads the first "
            "sheet only: unhide it if it is the table to release, or move the table's sheet to the front "
            "(or save it as .csv)"
        )


def _read_first_sheet(path: Path) -> pd.DataFrame:
    """The first sheet, to its last row that holds a value: a record whose every cell is missing is an empty
    row of the sheet, so an empty row between two filled ones is such a record (dropping them made the row
    count n, which every release states, count those records: replace one record by an empty one and n
    fell by one). Empty rows after the table are none: a sheet cannot tell them from its unused rows.
    Error cells are kept as their text (:func:`_restore_error_cells`).

    Each cell is read on its own (``dtype=object``, then ``canonical_cells``), as a text file's: pandas
    typed a column from all of its cells, so one empty cell turned a column's TRUE and FALSE into 1.0 and
    0.0, and one text cell A12 kept its column's 007 from reading 7 (a neighbour audit: (true, false,
    other) [3, 2, 0] became [0, 0, 5])."""
    with pd.ExcelFile(path, engine="openpyxl") as workbook:
        _refuse_hidden_first_sheet(workbook.book.worksheets[0], path)
        frame = pd.read_excel(workbook, sheet_name=0, dtype=object)
        frame.attrs[OTHER_SHEETS] = [str(name) for name in workbook.sheet_names[1:]]
        if frame.shape[1] and frame.isna().to_numpy().any():
            _restore_error_cells(frame, workbook.book.worksheets[0], path)
            _refuse_merged_cells(frame, workbook.book.worksheets[0], path)
            _refuse_unsaved_formulas(frame, path)
    if not frame.shape[1]:
        return frame
    filled = np.flatnonzero(frame.notna().to_numpy().any(axis=1))
    frame = frame.iloc[: filled[-1] + 1 if filled.size else 0].reset_index(drop=True)
    return canonical_cells(frame, POINT).infer_objects()  # a column of text or of booleans alone: typed


_READERS: dict[str, Reader] = {
    ".csv": _read_delimited,
    ".tsv": _read_delimited,
    ".tab": _read_delimited,
    ".parquet": pd.read_parquet,
    ".pq": pd.read_parquet,
    ".xlsx": _read_first_sheet,
    ".xls": _read_first_sheet,
    ".feather": pd.read_feather,
    ".arrow": pd.read_feather,
}

SUPPORTED_SUFFIXES: tuple[str, ...] = tuple(_READERS)
"""File suffixes ``load_table`` understands (lower case, with the dot), e.g. for file dialogs."""


def refuse_duplicate_names(names: Sequence[object], file_name: str) -> None:
    """Raise ``DataError`` when two columns share a name (readers would rename one silently: 'a.1')."""
    seen: set[str] = set()
    for name in (str(name) for name in names):
        if name in seen:
            raise DataError(
                f"{file_name}: the header names the column {name!r} twice; rename one of them so that every "
                "column has its own name"
            )
        seen.add(name)


def _parquet_names(path: Path) -> list[str]:
    import pyarrow.parquet as pq

    return pq.read_schema(path).names


def _feather_names(path: Path) -> list[str]:
    import pyarrow as pa

    with pa.memory_map(str(path)) as source:
        return pa.ipc.open_file(source).schema.names


def _excel_names(path: Path) -> list[str]:
    """The first sheet's first row as the workbook writes it (its empty cells left out: pandas names them
    'Unnamed: k')."""
    from openpyxl import load_workbook

    workbook = load_workbook(path, read_only=True, data_only=True)
    try:
        row = next(workbook.worksheets[0].iter_rows(min_row=1, max_row=1, values_only=True), ())
    finally:
        workbook.close()
    return [str(cell) for cell in row if cell is not None]


_SCHEMA_NAMES: dict[str, Callable[[Path], list[str]]] = {
    ".parquet": _parquet_names,
    ".pq": _parquet_names,
    ".feather": _feather_names,
    ".arrow": _feather_names,
    ".xlsx": _excel_names,
}


def column_names(path: Path, encoding: str | None = None) -> list[str] | None:
    """The column names a file's header row or schema writes (a folder of Parquet parts: its first part's),
    read without its rows; None when the file is gone or is not a table dpgui can read."""
    try:
        if path.is_dir():
            from dpgui.data.fingerprint import folder_parts

            parts = [part for part in folder_parts(path) if part.suffix.lower() in (".parquet", ".pq")]
            return _parquet_names(parts[0]) if parts else None
        suffix = path.suffix.lower()
        if suffix in _SCHEMA_NAMES:
            return _SCHEMA_NAMES[suffix](path)
        if suffix in DELIMITED_SUFFIXES:
            text_format = sniff_text(path, encoding)
            with text_format.open_text(path) as handle:
                header = next(csv.reader(handle, delimiter=text_format.delimiter), [])
            return [name.strip() for name in header]
    except Exception:  # every reader's own failure (a missing, damaged or foreign file): nothing to say
        return None
    return None


def refuse_bad_header(path: Path, encoding: str | None = None) -> None:
    """The column names as the file writes them: delimited text's header row and a workbook's first row
    (pandas would rename a duplicate to 'a.1' and release it under that name), a Parquet or Feather file's
    schema (pandas would fail with a reader's error); and delimited text's first record, refused when it
    has more fields than the header, as any later one is (``_too_many_fields``).

    pandas reads a first record with surplus fields as the sign of an unnamed index column: it made the
    first column the index and shifted every column of every record by one, so one record's trailing
    delimiter moved every other record's cells (a neighbour audit: L1 10 on five records). The out-of-core
    reader dropped the surplus field instead; both now refuse it."""
    if not path.is_file():
        return
    suffix = path.suffix.lower()
    if suffix in _SCHEMA_NAMES:
        try:
            names = _SCHEMA_NAMES[suffix](path)
        except Exception:  # the reader reports an unreadable file in its own words
            return
        refuse_duplicate_names(names, path.name)
        return
    if suffix not in DELIMITED_SUFFIXES:
        return
    text_format = sniff_text(path, encoding)
    try:
        with text_format.open_text(path) as handle:
            reader = csv.reader(handle, delimiter=text_format.delimiter)
            header = next(reader, [])
            first = next((row for row in reader if row), [])  # pandas skips an empty line
            line = reader.line_num
    except (OSError, csv.Error, UnicodeError):
        return  # the reader reports an unreadable file in its own words
    refuse_duplicate_names(header, path.name)
    if header and len(first) > len(header):
        raise _long_row(path, text_format, line, len(first), len(header))


_TOO_MANY_FIELDS = re.compile(r"Expected (\d+) fields in line (\d+), saw (\d+)")
"""pandas' words for a row with more fields than the header."""


def _first_long_row(path: Path, text_format: TextFormat, fields: int) -> tuple[int, int] | None:
    """(line in the file, field count) of the first row with more than ``fields`` fields, or None."""
    try:
        with text_format.open_text(path) as handle:
            reader = csv.reader(handle, delimiter=text_format.delimiter)
            for row in reader:
                if len(row) > fields:
                    return reader.line_num, len(row)
    except (OSError, csv.Error, UnicodeError):
        return None
    return None


def _too_many_fields(path: Path, exc: Exception, text_format: TextFormat) -> DataError | None:
    """The refusal of a row with more fields than the header, by its line in the file: pandas numbers
    records, not lines, so after a quoted cell that spans lines its "line 47" was another line (51)."""
    match = _TOO_MANY_FIELDS.search(str(exc))
    if match is None:
        return None
    expected, line, saw = map(int, match.groups())
    line, saw = _first_long_row(path, text_format, expected) or (line, saw)
    return _long_row(path, text_format, line, saw, expected)


def _long_row(path: Path, text_format: TextFormat, line: int, saw: int, expected: int) -> DataError:
    with text_format.open_text(path) as handle:
        first = handle.readline().strip()
    if first.startswith("#"):  # an audit's "# exported by tool" read as a header of one column
        return DataError(
            f"{path.name}: line {line} has {saw} fields, but the header names {expected}: the first line, "
            f"{first[:40]!r}, looks like a comment above the header; remove it, then open the file again"
        )
    return DataError(
        f"{path.name}: line {line} has {saw} fields, but the header names {expected} columns; a cell that "
        f"holds the delimiter (a {text_format.delimiter_name}) must be in double quotes: quote that cell or "
        "remove the extra fields, then open the file again"
    )


def unreadable(path: Path, exc: Exception, text_format: TextFormat | None = None) -> DataError:
    """The refusal of a file its reader could not read: a text file whose later bytes are not in the
    encoding its first 64 KiB showed is told so, a row with more fields than the header by its line;
    anything else names the reader's error."""
    ragged = _too_many_fields(path, exc, text_format) if text_format is not None else None
    if ragged is not None:
        return ragged
    if isinstance(exc, UnicodeDecodeError) and text_format is not None:
        return DataError(
            f"{path.name}: the file is not {text_format.encoding_name} text throughout: its "
            f"beginning reads as {text_format.encoding}, but a later part holds bytes that do not "
            f"({exc.reason}); it may join parts saved in different encodings: save the whole table again "
            "in one encoding (UTF-8)"
        )
    if isinstance(exc, UnicodeError) and text_format is not None:  # utf-16 declared for a file without a mark
        return DataError(
            f"{path.name}: cannot be read as {text_format.encoding_name} text ({exc}); declare the encoding "
            "the file was saved in, or leave it undeclared"
        )
    return DataError(
        f"{path.name}: could not be read as {path.suffix.lower() or 'a Parquet folder'} "
        f"({type(exc).__name__}: {exc}); check that the file is not damaged and that its suffix matches "
        "its format"
    )


def load_table(path: Path, encoding: str | None = None) -> pd.DataFrame:
    """Read a whole table; the reader is chosen by the file's suffix (case-insensitive).

    Excel files: the first sheet, read with openpyxl (an old binary .xls must be re-saved as .xlsx).
    Delimited text: the encoding (``encoding`` when declared) and delimiter of ``text_format.sniff_text``;
    a file that is not the table
    its suffix promises is refused in plain words (``text_format.refuse_non_table``).
    Column names are turned into strings. Raises ``DataError`` for an unknown suffix, a missing,
    unreadable or empty file, or a table without columns or rows.
    """
    path = Path(path)
    if path.is_dir():  # before the suffix: a folder of Parquet parts has none, and is no 'file type'
        raise DataError(
            f"{path.name}: is a folder, not a file; the in-memory engine reads one table file: name the "
            "file, or read a folder of Parquet parts with the out-of-core engine (--engine embedded)"
        )
    reader = _READERS.get(path.suffix.lower())
    if reader is None:
        raise DataError(
            f"{path.name}: unsupported file type {path.suffix or '(no suffix)'!r}; "
            f"save the table as one of {', '.join(SUPPORTED_SUFFIXES)}"
        )
    refuse_non_file(path)
    if not path.is_file():
        raise DataError(f"{path.name}: file not found at {path}; check the path")
    delimited = path.suffix.lower() in DELIMITED_SUFFIXES
    refuse_non_table(path, encoding)
    refuse_bad_header(path, encoding)
    try:
        frame = _read_delimited(path, encoding) if delimited else reader(path)
    except pd.errors.EmptyDataError as exc:
        raise DataError(f"{path.name}: the file is empty; choose a file with a header row and data") from exc
    except DataError:  # a reader's own refusal in words (a hidden sheet, an error cell): not "could not read"
        raise
    except Exception as exc:  # every reader raises its own exception types
        text_format = sniff_text(path, encoding) if delimited else None
        raise unreadable(path, exc, text_format) from exc
    if frame.shape[1] == 0 and frame.attrs.get(OTHER_SHEETS):
        others = ", ".join(map(repr, frame.attrs[OTHER_SHEETS]))
        raise DataError(
            f"{path.name}: the workbook's first sheet is empty, and dpgui reads the first sheet only; this "
            f"one also has the sheets {others}: move the table to the first sheet or save it as .csv"
        )
    if frame.shape[1] == 0:
        raise DataError(f"{path.name}: the table has no columns; the first row must name the columns")
    refuse_duplicate_names(frame.columns, path.name)
    if frame.shape[0] == 0:
        raise DataError(f"{path.name}: the table has a header but no data rows")
    frame.columns = [str(column) for column in frame.columns]
    return frame
