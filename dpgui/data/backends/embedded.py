"""The embedded out-of-core ``Aggregator``: scans a file in record batches, never holding the table.

Exact by construction: every batch becomes a small pandas DataFrame and goes through the SAME functions
the in-memory backend uses (``numeric_column``, ``apply_missing``, ``NumericDomain.to_grid``,
``binary_labels``, ``CategoricalDomain.to_indices``); only the counts are merged across batches. So the
clipping, the snapping to the nearest grid point, the missing-value policy and the label rules are those of
``InMemoryAggregator`` for every value, and a release's privacy never depends on the backend.

Readers (chosen by suffix):

* Parquet (a file or a folder of files) and Feather/Arrow: ``pyarrow.dataset`` record batches of the
  needed columns, converted with ``Table.to_pandas`` exactly as ``pandas.read_parquet`` does.
* CSV/TSV: pandas' own C parser in chunks (``read_csv(chunksize=...)``), the parser and NA rules the
  in-memory loader uses, so every cell is parsed to the same float; a column the whole file makes text is
  read as text in every chunk (``TextColumns``, learned when the rows are counted), and every text cell
  is read per cell (``loaders.canonical_cells``), as the in-memory loader reads it.

Why pyarrow datasets and not DuckDB (measured in benchmarks/scale.md, 2 cores): both feed the same numpy
gridding. The pyarrow route meets the targets: two scans (histogram + sorted distinct counts) of 10^7
rows in 0.7 s at a peak of 318 MB, of 10^8 rows in 10.9 s at 352 MB (peak memory no longer grows with the
file: ``_SCAN_OPTIONS``). DuckDB's ``to_arrow_reader`` was faster (one histogram scan of 10^8 rows: 2.5 s),
but it hands pandas DuckDB's own types (its mapping of Parquet types, not the Arrow types
``pandas.read_parquet`` converts), so exactness would need its own proofs and tests, and it would add a
core dependency; pyarrow is already one. Gridding inside DuckDB's SQL is not provably identical to
``to_grid``'s rounding at .5 ties and past 2^53. DuckDB's CSV reader was not used either: its NA tokens and
number parsing differ from ``pandas.read_csv``. Switching the Parquet reader to DuckDB is the known speed-up.

Progress: ``progress(fraction)`` after every batch (rows done / n for Arrow sources, bytes read / file
size for CSV). Cancel: ``cancelled()`` is checked between batches and raises :class:`ScanCancelled`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as pa_dataset

from dpgui.data.aggregate import (
    DENSE_LIMIT,
    MarginalCounter,
    _distinct_counts,
    _refuse_large,
    cell_count,
    cell_indices,
)
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.errors import DataError, refuse_non_file
from dpgui.data.fingerprint import folder_parts
from dpgui.data.loaders import canonical_cells, refuse_bad_header, refuse_duplicate_names, unreadable
from dpgui.data.missing import MissingPolicy, apply_missing, missing_mask
from dpgui.data.text_format import DELIMITED_SUFFIXES, TextFormat, refuse_non_table, sniff_text
from dpgui.data.validation import binary_labels, numeric_column, require_columns

BATCH_ROWS = 1 << 20
"""Rows per record batch (about 8 MB per float column)."""

ARROW_FORMATS: dict[str, str] = {
    ".parquet": "parquet",
    ".pq": "parquet",
    ".feather": "feather",
    ".arrow": "feather",
}
EMBEDDED_SUFFIXES: tuple[str, ...] = (*ARROW_FORMATS, *DELIMITED_SUFFIXES)
"""File suffixes the embedded backend scans (Excel files need the in-memory backend)."""

_READAHEAD = 2
"""Batches pyarrow decodes ahead (its default, 16, holds about 1 GB more at 10^8 rows)."""

_SCAN_OPTIONS: dict[str, pa_dataset.FragmentScanOptions] = {
    "parquet": pa_dataset.ParquetFragmentScanOptions(pre_buffer=False)
}
"""Per-format scan options: Parquet without ``pre_buffer``, which keeps the buffered column chunks of a
whole file alive while it is scanned (peak memory grew with the file: 1.85 GB at 10^8 rows). The scan also
runs without pyarrow's threads: with them, row groups were decoded ahead of a consumer busy gridding the
previous batch, without bound (0.7 GB of Arrow buffers at 10^8 rows, against 0.13 GB without)."""

_MERGE_PENDING = 1 << 24
"""Pending (value, count) pairs of a large grid merged once this many have accumulated."""

Progress = Callable[[float], None]
Cancelled = Callable[[], bool]


class ScanCancelled(Exception):
    """The user cancelled while the private data was being scanned; nothing was released."""


def _no_progress(fraction: float) -> None:
    del fraction


def _never() -> bool:
    return False


FEATHER_V1_MAGIC = b"FEA1"


def is_feather_v1(path: Path) -> bool:
    """Whether the file is a Feather version 1 file (pandas reads it; Arrow datasets cannot scan it)."""
    if not path.is_file():  # checked first: opening a named pipe would wait for a writer
        return False
    try:
        with path.open("rb") as handle:
            return handle.read(4) == FEATHER_V1_MAGIC
    except OSError:
        return False


def physical_memory() -> int:
    """Bytes of RAM (Linux/macOS); 8 GiB when the system does not say."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def _shift_rows(error: DataError, file_name: str, offset: int) -> DataError:
    """The error with its batch-relative 1-based row number made file-relative (``offset`` rows before)."""
    if offset == 0:
        return error
    prefix = re.escape(f"{file_name}, row ")
    message = re.sub(prefix + r"(\d+)", lambda m: f"{file_name}, row {int(m.group(1)) + offset}", str(error))
    return DataError(message)


def merge_distinct(parts: Sequence[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """Merge (sorted distinct uint64 values, int64 counts) pairs into one such pair (counts added)."""
    if not parts:
        return np.empty(0, np.uint64), np.empty(0, np.int64)
    values = np.concatenate([part[0] for part in parts])
    counts = np.concatenate([part[1] for part in parts])
    order = np.argsort(values, kind="stable")
    values, counts = values[order], counts[order]
    starts = np.flatnonzero(np.r_[True, values[1:] != values[:-1]])
    return values[starts], np.add.reduceat(counts, starts) if starts.size else counts


class DistinctCounter:
    """Accumulates distinct grid indices and their counts over batches, in O(grid) or O(distinct) memory.

    Grids of at most 2^26 points are counted densely; larger ones keep per-batch sorted pairs that are
    merged whenever 2^24 have piled up (the result is the same either way: exact integer counts).
    """

    def __init__(self, size: int) -> None:
        self._dense = np.zeros(size, np.int64) if size <= DENSE_LIMIT else None
        self._size = size
        self._parts: list[tuple[np.ndarray, np.ndarray]] = []
        self._pending = 0

    def add(self, indices: np.ndarray) -> None:
        if self._dense is not None:
            self._dense += np.bincount(indices.astype(np.intp), minlength=self._size)
            return
        self.add_counts(*_distinct_counts(indices, self._size))

    def add_counts(self, values: np.ndarray, counts: np.ndarray) -> None:
        """Add already-counted distinct values (a Spark partition's or a batch's)."""
        if self._dense is not None:
            np.add.at(self._dense, values.astype(np.intp), counts)
            return
        self._parts.append((values, counts))
        self._pending += values.size
        if self._pending >= _MERGE_PENDING and len(self._parts) > 1:
            self._parts = [merge_distinct(self._parts)]
            self._pending = self._parts[0][0].size

    def dense(self) -> np.ndarray:
        assert self._dense is not None, "dense counts exist only for grids of at most 2^26 points"
        return self._dense

    def result(self) -> tuple[np.ndarray, np.ndarray]:
        if self._dense is not None:
            present = np.flatnonzero(self._dense)
            return present.astype(np.uint64), self._dense[present]
        return merge_distinct(self._parts)


def labelled_split(
    values: np.ndarray, counts: np.ndarray, positive_values: np.ndarray, positive_counts: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(values, positive counts, negative counts) from all and positive distinct counts."""
    positives = np.zeros_like(counts)
    positives[np.searchsorted(values, positive_values)] = positive_counts
    return values, positives, counts - positives


def check_categorical_fill(column: str, missing: MissingPolicy) -> None:
    """The in-memory backend's refusal of a numeric fill value for a categorical column."""
    if missing.fill_value is not None:
        raise DataError(
            f"column {column!r} is categorical: missing cells can only be counted as 'other', "
            "not replaced by a number"
        )


def check_matrix_fits(n: int, k: int, limit: int) -> None:
    """Refuse an (n, k) float64 matrix larger than ``limit`` bytes, saying how large it would be."""
    need = n * k * 8
    if need > limit:
        raise DataError(
            f"the {n:,} x {k} matrix of private values needs {need / 2**30:.1f} GiB, more than the "
            f"{limit / 2**30:.1f} GiB allowed; this algorithm needs every row in memory: use a machine with "
            "more memory, fewer columns, or an algorithm that works from counts"
        )


def _refuse_mismatched_parts(dataset: pa_dataset.Dataset, folder: Path) -> None:
    """DataError naming the first part of a Parquet folder whose columns (names and types, in order) are not
    the first part's: Arrow reads a column a part lacks as missing cells, so a release imputed a whole part
    without a word (a loader fuzz), and a part that types a column otherwise failed with Arrow's words."""
    parts = list(dataset.get_fragments())
    if not parts:
        return
    first = parts[0].physical_schema
    for part in parts[1:]:
        schema = part.physical_schema
        if schema.names != first.names or schema.types != first.types:
            described = ", ".join(f"{field.name} ({field.type})" for field in schema)
            expected = ", ".join(f"{field.name} ({field.type})" for field in first)
            raise DataError(
                f"{folder.name}: its parts hold different columns: {Path(part.path).name} has {described}, "
                f"{Path(parts[0].path).name} has {expected}; a folder is one table: give every part the same "
                "columns and types"
            )


def _stamp(path: Path) -> object:
    """What changes when a file (or a folder's part) is edited, replaced or deleted; None when it is gone."""
    try:
        if path.is_dir():
            return tuple((str(part.relative_to(path)), *_file_stamp(part)) for part in folder_parts(path))
        return _file_stamp(path)
    except OSError:
        return None


def _file_stamp(path: Path) -> tuple[int, int, int]:
    status = path.stat()
    return status.st_size, status.st_mtime_ns, status.st_ino


_READ_KINDS = {"integer": "number", "floating": "number", "mixed-integer-float": "number", "boolean": "bool"}
"""What pandas makes of a column of delimited text (``pandas.api.types.infer_dtype``); the rest is text."""


class TextColumns:
    """The columns of delimited text that the whole file makes text, learned batch by batch.

    ``pandas.read_csv`` types a column from all of its cells: numbers when every present cell is one,
    booleans when every one is True or False, else text, each cell as written ('007', '1.0', 'TRUE'). A
    batch read on its own is typed from its own cells only, so a batch of digits read '007' as 7, '1.0' as 1
    and 'TRUE' as true where the whole file keeps the text, and a cell's category (and so the counts)
    depended on where the batches fell. A column is text when some batch reads it as text, or some as
    numbers and others as booleans (a batch of missing cells says nothing); every batch then reads it as
    text, as the in-memory loader reads the whole file.
    """

    def __init__(self) -> None:
        self._kinds: dict[str, set[str]] = {}

    def add(self, frame: pd.DataFrame) -> None:
        """Note how this batch reads each of its columns."""
        for column in frame.columns:
            values = frame[column]
            if values.notna().any():
                self.note(column, _READ_KINDS.get(pd.api.types.infer_dtype(values, skipna=True), "text"))

    def note(self, column: str, kind: str) -> None:
        """Note that a batch reads ``column`` as ``kind`` ('number', 'bool' or 'text')."""
        self._kinds.setdefault(column, set()).add(kind)

    def kinds(self) -> list[tuple[str, str]]:
        """Every (column, kind) noted (a Spark partition's, combined on the driver with ``note``)."""
        return [(column, kind) for column, kinds in self._kinds.items() for kind in sorted(kinds)]

    def columns(self) -> frozenset[str]:
        return frozenset(column for column, kinds in self._kinds.items() if "text" in kinds or len(kinds) > 1)


@dataclass(frozen=True)
class _Batch:
    offset: int
    """Rows of the file before this batch."""
    frame: pd.DataFrame
    fraction: float
    """How much of the file has been read once this batch is done."""


@dataclass(frozen=True)
class FileSource:
    """A table on disk read batch by batch: its header, row count and batches of chosen columns."""

    path: Path
    batch_rows: int = BATCH_ROWS
    encoding: str | None = None
    """The declared encoding of delimited text, None for the automatic reading."""
    _format: str = field(init=False, repr=False)
    _stamp: object = field(init=False, repr=False, compare=False)
    """Size, modification time and inode when opened: every scan refuses a file that has changed since, whose
    rows would no longer be the ones checked, counted (n) and fingerprinted."""
    _text: frozenset[str] | None = field(init=False, repr=False, compare=False, default=None)
    """Delimited text's columns that the whole file makes text (``TextColumns``), once a pass read it all."""

    def __post_init__(self) -> None:
        suffix = self.path.suffix.lower()
        if self.path.is_dir():
            suffix = ".parquet"
        if suffix not in EMBEDDED_SUFFIXES:
            raise DataError(
                f"{self.path.name}: the out-of-core engine reads {', '.join(EMBEDDED_SUFFIXES)} files, "
                f"not {suffix or '(no suffix)'!r}; use the in-memory engine or save the table as Parquet"
            )
        if not self.path.exists():
            raise DataError(f"{self.path.name}: file not found at {self.path}; check the path")
        refuse_non_file(self.path)
        if self.path.is_file():
            refuse_non_table(self.path, self.encoding)
        object.__setattr__(self, "_format", suffix)
        object.__setattr__(self, "_stamp", _stamp(self.path))

    def refuse_if_changed(self) -> None:
        """Raise ``DataError`` when the file's size, modification time or inode differ from when it was
        opened (a run asks before it touches the data; every scan asks before and after reading)."""
        if _stamp(self.path) != self._stamp:
            raise DataError(
                f"{self.name} changed on disk after it was opened (edited, replaced or deleted), so its rows "
                "are no longer the ones that were checked and counted; nothing was released from it: open it "
                "again to release from its new content"
            )

    @cached_property
    def text_format(self) -> TextFormat:
        """Encoding and delimiter of delimited text, decided as the in-memory loader decides them."""
        return sniff_text(self.path, self.encoding)

    @property
    def name(self) -> str:
        return self.path.name

    @cached_property
    def _arrow(self) -> pa_dataset.Dataset:
        try:
            dataset = pa_dataset.dataset(self.path, format=ARROW_FORMATS[self._format])
            if self.path.is_dir():
                _refuse_mismatched_parts(dataset, self.path)
            return dataset
        except (OSError, pa.ArrowException) as exc:
            if is_feather_v1(self.path):
                raise DataError(
                    f"{self.name}: the file is in the old Feather version 1 format, which the out-of-core "
                    "engine cannot scan; open it with the in-memory engine (--engine memory), or save it "
                    "again as Feather version 2 or Parquet"
                ) from exc
            refuse_bad_header(
                self.path, self.encoding
            )  # Arrow's datasets refuse a repeated name without naming it
            raise DataError(
                f"{self.name}: could not be read as {self._format} ({type(exc).__name__}: {exc}); "
                "check that the file is not damaged and that its suffix matches its format"
            ) from exc

    def _csv(self, **options: object) -> Any:
        """``pandas.read_csv`` with the in-memory loader's options (a frame, or a chunk reader); a byte the
        encoding refuses in the block it decodes first (even for the header alone) is refused in words."""
        text_format = self.text_format
        try:
            return pd.read_csv(  # type: ignore[call-overload]
                self.path,
                sep=text_format.delimiter,
                encoding=text_format.encoding,
                encoding_errors=text_format.encoding_errors,
                skip_blank_lines=text_format.skip_blank_lines,
                **options,
            )
        except (UnicodeError, pd.errors.ParserError) as exc:  # ParserError: a quote never closed
            raise self._unreadable(exc) from exc

    @cached_property
    def columns(self) -> tuple[str, ...]:
        """Column names as the in-memory loader names them (strings; pandas' renaming of duplicates)."""
        if self._format in ARROW_FORMATS:
            names = self._arrow.schema.names
        else:
            try:
                names = self._csv(nrows=0).columns
            except pd.errors.EmptyDataError as exc:
                raise DataError(
                    f"{self.name}: the file is empty; choose a file with a header row and data"
                ) from exc
        if len(names) == 0 and self.path.is_dir():
            raise DataError(
                f"{self.name}: the folder holds no Parquet parts; name a file, or a folder of .parquet files"
            )
        if len(names) == 0:
            raise DataError(f"{self.name}: the table has no columns; the first row must name the columns")
        if self._format not in ARROW_FORMATS:  # pandas renames a repeated header name; check the file's
            refuse_bad_header(self.path, self.encoding)
        refuse_duplicate_names(names, self.name)
        return tuple(str(name) for name in names)

    @property
    def format_is_arrow(self) -> bool:
        """Parquet or Feather (row count from metadata), rather than delimited text."""
        return self._format in ARROW_FORMATS

    @cached_property
    def arrow_rows(self) -> int:
        """The row count in a Parquet or Feather file's metadata (delimited text needs a scan to count:
        ``EmbeddedAggregator.count``)."""
        try:
            return self._arrow.count_rows()
        except (OSError, pa.ArrowException) as exc:  # a part of a folder that is not Parquet
            raise self._unreadable(exc) from exc

    def text_columns(self) -> frozenset[str]:
        """The columns of delimited text that every batch reads as text (``TextColumns``): learned by the
        pass that reads every field (the row count's), or by one made here when none has run yet."""
        if self._text is None:
            for _ in self._batches(self.columns, all_fields=True):
                pass
        assert self._text is not None
        return self._text

    @cached_property
    def header(self) -> pd.DataFrame:
        """A zero-row frame naming the columns (what ``require_columns`` checks against)."""
        return pd.DataFrame(columns=list(self.columns))

    def head(self, rows: int) -> pd.DataFrame:
        """The first ``rows`` rows of every column, read as the in-memory loader would (custodian-only)."""
        if self.format_is_arrow:
            frame = self._arrow.head(rows).to_pandas()
        else:
            frame = canonical_cells(self._csv(nrows=rows), self.text_format.decimal_marks)
        return frame.set_axis(list(self.columns), axis=1)

    def batches(self, columns: Sequence[str], *, all_fields: bool = False) -> Iterator[_Batch]:
        """Batches holding ``columns`` (unique, in that order) with their offsets and progress.

        ``all_fields`` parses every field of delimited text (in smaller batches), so that a row with more
        fields than the header is refused as the in-memory loader refuses it; the row count's scan does."""
        require_columns(self.header, columns, file_name=self.name)
        self.refuse_if_changed()
        yield from self._batches(columns, all_fields)
        self.refuse_if_changed()  # changed while it was read: what was read is not one version of it

    def _batches(self, columns: Sequence[str], all_fields: bool) -> Iterator[_Batch]:
        wanted = list(dict.fromkeys(columns))
        offset = 0
        if self._format in ARROW_FORMATS:
            positions = [self.columns.index(column) for column in wanted]
            names = [self._arrow.schema.names[i] for i in positions]
            batches = self._arrow.to_batches(
                columns=names,
                batch_size=self.batch_rows,
                batch_readahead=_READAHEAD,
                fragment_readahead=1,
                fragment_scan_options=_SCAN_OPTIONS.get(ARROW_FORMATS[self._format]),
                use_threads=False,
            )
            try:
                for batch in batches:
                    if batch.num_rows == 0:
                        continue
                    frame = pa.Table.from_batches([batch]).to_pandas()
                    frame.columns = wanted
                    offset += batch.num_rows
                    yield _Batch(offset - batch.num_rows, frame, offset / self.arrow_rows)
            except (OSError, pa.ArrowException) as exc:  # a damaged part found only when it is decoded
                raise self._unreadable(exc) from exc
            return
        positions = sorted({self.columns.index(column) for column in wanted})
        typing = TextColumns() if all_fields else None  # the pass over every field learns the typing
        text = self.text_columns() if typing is None else frozenset()
        if all_fields:
            positions = list(range(len(self.columns)))
        rows = self.batch_rows if not all_fields else max(1024, self.batch_rows // len(self.columns))
        size = max(self.path.stat().st_size, 1)
        with self.path.open("rb") as handle:
            try:  # the reader decodes a first block when it is made: a bad byte there fails it
                reader = pd.read_csv(
                    handle,
                    sep=self.text_format.delimiter,
                    encoding=self.text_format.encoding,
                    encoding_errors=self.text_format.encoding_errors,
                    skip_blank_lines=self.text_format.skip_blank_lines,
                    usecols=None if all_fields else positions,
                    dtype={self.columns[p]: str for p in positions if self.columns[p] in text},
                    chunksize=rows,
                )
                for chunk in reader:  # usecols keeps the file's column order
                    frame = chunk.set_axis([self.columns[p] for p in positions], axis=1)
                    if typing is not None:
                        typing.add(frame)
                    frame = canonical_cells(frame[wanted], self.text_format.decimal_marks, text)
                    offset += len(frame)
                    yield _Batch(
                        offset - len(frame), frame.reset_index(drop=True), min(handle.tell() / size, 1.0)
                    )
            except (pd.errors.ParserError, UnicodeError) as exc:
                raise self._unreadable(exc) from exc
        if typing is not None:
            object.__setattr__(self, "_text", typing.columns())

    def _unreadable(self, exc: Exception) -> DataError:
        """The in-memory loader's words for a file whose reader failed part-way (``loaders.unreadable``)."""
        return unreadable(self.path, exc, self.text_format if self._format in DELIMITED_SUFFIXES else None)


class EmbeddedAggregator:
    """``Aggregator`` over a file scanned in batches (memory: one batch plus the counts).

    ``memory_limit`` caps the private matrix ``column_matrix`` may build (default: a quarter of RAM).
    """

    name: ClassVar[str] = "embedded"

    def __init__(
        self,
        source: FileSource,
        *,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        memory_limit: int | None = None,
    ) -> None:
        self._source = source
        self._progress = progress or _no_progress
        self._cancelled = cancelled or _never
        self._memory_limit = physical_memory() // 4 if memory_limit is None else memory_limit
        self._rows: int | None = None

    @classmethod
    def open(cls, path: Path, **options: object) -> EmbeddedAggregator:
        return cls(FileSource(Path(path)), **options)  # type: ignore[arg-type]

    @property
    def source(self) -> FileSource:
        return self._source

    def refuse_changed_source(self) -> None:
        self._source.refuse_if_changed()

    def count(self) -> int:
        """The row count: Arrow metadata, or a pass over delimited text that reports progress and can be
        cancelled (counted once); a table without data rows is refused."""
        if self._rows is None:
            rows = self._source.arrow_rows if self._source.format_is_arrow else self._scanned_rows()
            if rows == 0:
                raise DataError(f"{self._source.name}: the table has a header but no data rows")
            self._rows = rows
        return self._rows

    def _scanned_rows(self) -> int:
        rows = 0

        def consume(_: int, frame: pd.DataFrame) -> None:
            nonlocal rows
            rows += len(frame)

        self._scan(self._source.columns[:1], consume, all_fields=True)
        return rows

    def head(self, rows: int) -> pd.DataFrame:
        """The file's first ``rows`` rows (the custodian's preview; never released)."""
        return self._source.head(rows)

    def scan(self, columns: Sequence[str], consume: Callable[[int, pd.DataFrame], None]) -> None:
        """Every batch of ``columns`` to ``consume(offset, frame)``, with progress and cancel: for the
        custodian-only check before a release (``dpgui.data.checks``), never for DP code."""
        self._scan(columns, consume)

    def _scan(
        self,
        columns: Sequence[str],
        consume: Callable[[int, pd.DataFrame], None],
        *,
        all_fields: bool = False,
    ) -> None:
        """Call ``consume(offset, frame)`` on every batch; report progress after each, check cancel between.

        A ``DataError`` raised on a batch gets its row number shifted from the batch's to the file's.
        """
        if self._cancelled():
            raise ScanCancelled("cancelled before the private data was scanned")
        for batch in self._source.batches(columns, all_fields=all_fields):
            try:
                consume(batch.offset, batch.frame)
            except DataError as error:
                raise _shift_rows(error, self._source.name, batch.offset) from error
            self._progress(batch.fraction)
            if self._cancelled():
                raise ScanCancelled(f"cancelled while scanning {self._source.name}; nothing was released")

    def _grid(
        self, frame: pd.DataFrame, column: str, domain: NumericDomain, missing: MissingPolicy
    ) -> np.ndarray:
        name = self._source.name
        raw = numeric_column(frame, column, file_name=name)
        return domain.to_grid(apply_missing(raw, missing, domain, file_name=name))

    def _distinct(self, column: str, domain: NumericDomain, missing: MissingPolicy) -> DistinctCounter:
        counter = DistinctCounter(domain.size)
        self._scan([column], lambda _, frame: counter.add(self._grid(frame, column, domain, missing)))
        return counter

    def sorted_distinct_counts(
        self, column: str, domain: NumericDomain, missing: MissingPolicy
    ) -> tuple[np.ndarray, np.ndarray]:
        return self._distinct(column, domain, missing).result()

    def histogram(self, column: str, domain: NumericDomain, missing: MissingPolicy) -> np.ndarray:
        _refuse_large(domain.size, "histogram")
        return self._distinct(column, domain, missing).dense()

    def labelled_distinct_counts(
        self, feature: str, domain: NumericDomain, missing: MissingPolicy, label: str, positive: str | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        every, positives = DistinctCounter(domain.size), DistinctCounter(domain.size)

        def consume(_: int, frame: pd.DataFrame) -> None:
            indices = self._grid(frame, feature, domain, missing)
            every.add(indices)
            positives.add(indices[binary_labels(frame, label, positive, file_name=self._source.name)])

        self._scan([feature, label], consume)
        return labelled_split(*every.result(), *positives.result())

    def labelled_rows(
        self, feature: str, domain: NumericDomain, missing: MissingPolicy, label: str, positive: str | None
    ) -> tuple[np.ndarray, np.ndarray]:
        indices: list[np.ndarray] = []
        labels: list[np.ndarray] = []

        def consume(_: int, frame: pd.DataFrame) -> None:
            indices.append(self._grid(frame, feature, domain, missing))
            labels.append(binary_labels(frame, label, positive, file_name=self._source.name))

        self._scan([feature, label], consume)
        if not indices:
            return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=bool)
        return np.concatenate(indices), np.concatenate(labels)

    def category_counts(self, column: str, domain: CategoricalDomain, missing: MissingPolicy) -> np.ndarray:
        check_categorical_fill(column, missing)
        counts = np.zeros(domain.size, np.int64)

        def consume(_: int, frame: pd.DataFrame) -> None:
            missing_mask(frame[column], missing, file_name=self._source.name)
            counts[:] += np.bincount(
                domain.to_indices(frame[column], file_name=self._source.name), minlength=domain.size
            )

        self._scan([column], consume)
        return counts

    def marginals(
        self,
        columns: Sequence[str],
        domains: Sequence[NumericDomain | CategoricalDomain],
        missings: Sequence[MissingPolicy],
        cliques: Sequence[tuple[int, ...]],
    ) -> list[np.ndarray]:
        counter = MarginalCounter([cell_count(d, m) for d, m in zip(domains, missings, strict=True)], cliques)
        name = self._source.name

        def consume(_: int, frame: pd.DataFrame) -> None:
            counter.add(
                [
                    cell_indices(frame, column, domain, missing, file_name=name)
                    for column, domain, missing in zip(columns, domains, missings, strict=True)
                ]
            )

        self._scan(list(dict.fromkeys(columns)), consume)
        return counter.result()

    def column_matrix(
        self, columns: Sequence[str], domains: Sequence[NumericDomain], missings: Sequence[MissingPolicy]
    ) -> np.ndarray:
        if not len(columns) == len(domains) == len(missings):
            raise ValueError("column_matrix needs one domain and one missing policy per column")
        check_matrix_fits(self.count(), len(columns), self._memory_limit)
        matrix = np.empty((self.count(), len(columns)), dtype=np.float64)

        def consume(offset: int, frame: pd.DataFrame) -> None:
            rows = slice(offset, offset + len(frame))
            for j, (column, domain, missing) in enumerate(zip(columns, domains, missings, strict=True)):
                matrix[rows, j] = domain.from_grid(self._grid(frame, column, domain, missing))

        self._scan(columns, consume)
        return matrix
