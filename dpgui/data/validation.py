"""Checking and converting the columns a release reads, with messages that point at the offending cell.

Everything here runs on the private data but only for the data custodian: its results feed the
aggregates DP code consumes (``dpgui.data.aggregate``) or the custodian-only column view, never a release.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from dpgui.data.domain import POINT_OR_COMMA, canonical_text, cell_text
from dpgui.data.errors import POSITIVE_FIELD, DataError, cell_location, shown
from dpgui.data.loaders import OTHER_SHEETS, factorize_cells

_TRUTH: dict[str, bool] = {"0": False, "1": True, "false": False, "true": True, "no": False, "yes": True}
_VALUES_SHOWN = 5


def require_columns(frame: pd.DataFrame, columns: Iterable[str], *, file_name: str) -> None:
    """Raise ``DataError`` naming the first unknown column and listing the available ones (and, for a
    workbook, the sheets that were not read)."""
    for column in columns:
        if column not in frame.columns:
            available = ", ".join(repr(str(name)) for name in frame.columns)
            other_sheets = frame.attrs.get(OTHER_SHEETS)
            sheets = (
                " (dpgui reads a workbook's first sheet only; this one also has the sheets "
                f"{', '.join(map(repr, other_sheets))}: move the table to the first sheet or save it as .csv)"
                if other_sheets
                else ""
            )
            spaced = _spaced_name(frame.columns, column) or _header_not_first(frame.columns)
            raise DataError(f"{file_name}: no column {column!r}; the columns are {available}{sheets}{spaced}")


_UNNAMED = "Unnamed: "
"""How pandas names a column whose header cell is empty."""


def _header_not_first(names: Iterable[object]) -> str:
    """A hint when the first row is not the header: a title in its first cell and nothing beside it, or
    nothing at all (a table that starts further down or right); an audit's workbooks listed only
    "'My Survey Title', 'Unnamed: 1', 'Unnamed: 2'"."""
    listed = [str(name) for name in names]
    named = [name for name in listed if not name.startswith(_UNNAMED)]
    if len(named) > 1 or len(named) == len(listed):
        return ""
    what = f"a title ({named[0]!r}) and empty cells" if named else "only empty cells"
    return (
        f" (the first row holds {what}, so the table's header seems to be on a later row, or further "
        "right: remove the rows and columns above and left of it, then open the file again)"
    )


def _spaced_name(names: Iterable[object], column: str) -> str:
    """A hint when the header writes ``column`` with spaces around it ("a, b" after a comma): the name
    looked right, and the list of columns hides the spaces inside its quotes."""
    for name in map(str, names):
        if name != column and name.strip() == column.strip():
            if name == name.strip():  # the spaces are in the name asked for, not in the header
                return f" (the header writes it {name!r}, without the spaces around {column!r})"
            return (
                f" (the header writes it {name!r}, with spaces: name it so, or remove the spaces from the "
                "header)"
            )
    return ""


def first_position(mask: np.ndarray) -> int:
    """0-based position of the first True in a boolean mask that has one."""
    return int(np.flatnonzero(mask)[0])


INFINITE_HINT = " (it reads as infinity: the cell holds inf, Infinity or a number beyond 1.8e308 in size)"
"""Why a cell quoted as 'inf' is refused: the reader parsed it, so its spelling (INF, 1e309) is gone."""


BOOLEAN_HINT = (
    " (a true/false value: count such a column as categories, e.g. a histogram of its categories, or "
    "write it as 1 and 0)"
)
"""Why a cell quoted as 'True' is refused in a numeric column."""


def is_infinite(value: object) -> bool:
    """Whether a parsed cell is +-inf (a float the reader made of INF, Infinity or 1e309)."""
    return isinstance(value, float | np.floating) and bool(np.isinf(value))


def numeric_column(frame: pd.DataFrame, column: str, *, file_name: str) -> pd.Series:
    """The column as float64; missing cells stay NaN for the missing-value policy.

    A cell that is present but not a finite number (text, a date, ±inf) raises ``DataError`` naming the
    file, the 1-based data row and the column, and showing the value (truncated to 40 characters): an
    infinite value is invalid, never clipped to a bound.
    """
    require_columns(frame, [column], file_name=file_name)
    raw = frame[column]
    values = as_numbers(raw)
    bad = invalid_cells(raw, values)
    if bad.any():
        position = first_position(bad)
        cell = raw.iloc[position]
        raise DataError(
            f"{cell_location(file_name, position, column)}: {shown(cell)} is not a finite number"
            f"{INFINITE_HINT if is_infinite(cell) else BOOLEAN_HINT if is_boolean(cell) else ''}; correct "
            "the cell or leave it empty to apply the missing-value policy"
        )
    return values


def is_boolean(value: object) -> bool:
    return isinstance(value, bool | np.bool_)


def as_numbers(raw: pd.Series) -> pd.Series:
    """A column's cells as float64, NaN where missing or not a number. A column of dates or durations (a
    Parquet, Feather or Excel datetime) is not numbers: all NaN, so ``invalid_cells`` flags every present
    cell, where pandas would read nanoseconds since 1970 and a missing date as -2^63. Nor is a column of
    true/false values: pandas reads them as 1 and 0, and a CDF of a TRUE/FALSE column over [0, 100] was
    released (a loader fuzz); a task over categories counts them."""
    if (
        pd.api.types.is_datetime64_any_dtype(raw)
        or pd.api.types.is_timedelta64_dtype(raw)
        or pd.api.types.is_bool_dtype(raw)
    ):
        return pd.Series(np.nan, index=raw.index, dtype=np.float64)
    if raw.dtype == object:  # a true/false cell among numbers is no number either (pandas reads 1 and 0)
        raw = raw.where(~raw.map(is_boolean, na_action="ignore").fillna(False).astype(bool))
    numbers = pd.to_numeric(raw, errors="coerce")
    if pd.api.types.is_float_dtype(numbers) and numbers.dtype.itemsize < 8:
        return pd.Series(as_written(numbers.to_numpy(dtype=np.float32, na_value=np.nan)), index=raw.index)
    return numbers.astype(np.float64)


def as_written(values: np.ndarray) -> np.ndarray:
    """Single-precision numbers as the decimals they were written as (their shortest round-trip form):
    12.3 stored as float32 is 12.300000190734863 in float64, past the grid's snapping tolerance, so a
    Parquet float32 column's 12.3 counted at the grid point 12.4 where the same value in a CSV counted at
    12.3 (a loader fuzz). Converts each distinct value once."""
    codes, distinct = pd.factorize(values, use_na_sentinel=False)
    return np.asarray(distinct).astype(str).astype(np.float64)[codes]


def invalid_cells(raw: pd.Series, values: pd.Series) -> np.ndarray:
    """Mask of the cells present in ``raw`` whose parsed ``values`` are not finite numbers."""
    parsed = values.to_numpy(dtype=np.float64, na_value=np.nan)
    return (np.isnan(parsed) & raw.notna().to_numpy()) | np.isinf(parsed)


def distinct_text(values: pd.Series) -> tuple[np.ndarray, list[str]]:
    """The column as codes into its distinct values' text: cell i reads ``texts[codes[i]]``.

    Codes are int64 with -1 for a missing cell; texts are ``cell_text``'s: stripped, whole floats written as
    integers ("3", not "3.0": a column of codes with a gap is read as floats), booleans as "true" and
    "false" (delimited text's cells were already read per cell: ``loaders.canonical_cells``).
    Hashing first and converting only the distinct values keeps this O(n) and fast on large columns.
    """
    try:
        codes, uniques = factorize_cells(values)
    except TypeError as exc:  # lists, records or maps (a nested Parquet or Feather column) are unhashable
        present = values.dropna()
        example = f" such as {shown(present.iloc[0])}" if len(present) else ""
        raise DataError(
            f"column {values.name!r} holds nested values{example} (lists or records), not one text or number "
            "per cell; a category or label must be a single value: flatten the column, or choose another"
        ) from exc
    return codes.astype(np.int64), [cell_text(value) for value in uniques]


def positive_texts(positive: str) -> frozenset[str]:
    """The cell texts (as ``distinct_text`` writes them) that read the named positive value: the value as
    typed, stripped, and as a cell spelling it reads (``canonical_text``): a CSV's 1.0 reads "1", so
    ``--positive 1.0``, copied from the file, names it too, and ``--positive TRUE`` names a cell TRUE."""
    typed = positive.strip()
    return frozenset({typed, canonical_text(typed, POINT_OR_COMMA)})


def binary_labels(frame: pd.DataFrame, column: str, positive: str | None, *, file_name: str) -> np.ndarray:
    """The label column as a boolean array (True = positive).

    With ``positive`` given, a row is positive exactly when its cell reads ``positive`` (compared as
    stripped text; a missing cell is therefore negative). Without it every cell must be one of 0/1,
    true/false or yes/no (any case); a missing cell or any other value raises ``DataError``, listing the
    first few distinct values.
    """
    require_columns(frame, [column], file_name=file_name)
    codes, texts = distinct_text(frame[column])
    if positive is not None:
        named = positive_texts(positive)
        truth = [text in named for text in texts]
    else:
        missing = codes < 0
        if missing.any():
            raise DataError(
                f"{cell_location(file_name, first_position(missing), column)}: the label is missing; "
                f"fill it in, or name the positive value ({POSITIVE_FIELD}) so that other cells count as "
                "negative"
            )
        if not {text.lower() for text in texts} <= _TRUTH.keys():
            first = [shown(text) for text in texts[:_VALUES_SHOWN]]
            if len(texts) > _VALUES_SHOWN:
                first.append("...")
            raise DataError(
                f"{file_name}: label column {column!r} has {len(texts)} distinct values "
                f"({', '.join(first)}), not just 0/1, true/false or yes/no; "
                f"name the positive value ({POSITIVE_FIELD})"
            )
        truth = [_TRUTH[text.lower()] for text in texts]
    # the extra last entry is what code -1 (a missing cell) picks: negative
    return np.array([*truth, False], dtype=bool)[codes]


class ColumnKind(enum.Enum):
    """How a column can be used: as numbers, as categories, or not at all."""

    NUMERIC = "numeric"
    CATEGORICAL = "categorical"
    OTHER = "other"


@dataclass(frozen=True)
class ColumnSummary:
    """One column in the custodian-only view: its name, kind and number of missing cells (not for release)."""

    name: str
    kind: ColumnKind
    missing: int


def _holds_decimals(values: pd.Series) -> bool:
    """Whether every present cell is a ``decimal.Decimal``: a Parquet or Feather decimal column (money, as
    databases export it) reaches pandas as objects, yet ``numeric_column`` reads it as numbers."""
    return values.dtype == object and pd.api.types.infer_dtype(values, skipna=True) == "decimal"


MOSTLY_NUMBERS = 0.9
"""A text column whose present cells are at least this share of numbers is offered as numeric (a GUI audit:
an age column with 2% 'unknown' was offered to no numeric task; a release then names the text cells and
how to mark them missing, ``MARKER_HINT``)."""


def _kind(values: pd.Series) -> ColumnKind:
    if pd.api.types.is_bool_dtype(values) or pd.api.types.infer_dtype(values, skipna=True) == "boolean":
        return ColumnKind.CATEGORICAL  # a workbook's booleans beside an empty cell are objects
    if not values.notna().any():  # every cell missing: nothing to count or to declare (a GUI audit)
        return ColumnKind.OTHER
    if pd.api.types.is_numeric_dtype(values) or _holds_decimals(values) or _mostly_numbers(values):
        return ColumnKind.NUMERIC
    if pd.api.types.is_string_dtype(values) or isinstance(values.dtype, pd.CategoricalDtype):
        return ColumnKind.CATEGORICAL
    return ColumnKind.OTHER


def _mostly_numbers(values: pd.Series) -> bool:
    """Whether at least ``MOSTLY_NUMBERS`` of a text column's present cells read as numbers."""
    if values.dtype != object:
        return False
    present = values.dropna()
    return bool(pd.to_numeric(present, errors="coerce").notna().mean() >= MOSTLY_NUMBERS)


def summarize_columns(frame: pd.DataFrame) -> list[ColumnSummary]:
    """Name, kind and missing-cell count of every column, in order (custodian-only, never released)."""
    return [
        ColumnSummary(name=str(name), kind=_kind(frame[name]), missing=int(frame[name].isna().sum()))
        for name in frame.columns
    ]
