"""The Spark ``Aggregator``: the aggregation runs in Spark, and only counts come back to the driver.

Each numeric column is gridded by a pandas UDF that calls the SAME functions as the in-memory backend
(``numeric_column``, ``apply_missing``, ``NumericDomain.to_grid``; ``binary_labels`` for labels,
``CategoricalDomain.to_indices`` for categories) on each Arrow batch, then Spark counts rows per grid
index with ``groupBy(...).count()``. Grid indices are uint64; Spark has no unsigned type, so the UDF
returns their bit patterns as int64 and the driver views them back as uint64 (grouping is unaffected).

Cells reach pandas as the in-memory loader would have read them:

* Parquet files and tables are typed: Spark hands the UDF their values through Arrow.
* CSV/TSV files are read by Spark as text, and the UDF re-parses each batch's cells with
  ``pandas.read_csv`` (every cell quoted, a null as an empty field), so the number parsing and the NA
  tokens are pandas' own, as in the in-memory backend. A column the whole file makes text (``TextColumns``,
  learned by one job over every column first) is re-parsed as text in every batch, as the file is read,
  and every text cell is read per cell (``loaders.canonical_cells``), as the in-memory loader reads it.

Errors found in a UDF (a missing cell under the fail policy, a cell that is not a number, a bad label)
come back as ``DataError``; Spark does not keep row numbers, so the message says "a row".

Progress is coarse (one step per Spark job) and cancel is checked between jobs. On a cluster, dpgui must
be installed on the executors (the UDFs import it). Needs the optional extra ``dpgui[spark]`` and Java 17.
"""

from __future__ import annotations

import csv
import io
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import numpy as np
import pandas as pd

from dpgui.data.aggregate import MarginalCounter, _refuse_large, cell_count, cell_indices
from dpgui.data.backends.embedded import (
    ARROW_FORMATS,
    Cancelled,
    DistinctCounter,
    Progress,
    ScanCancelled,
    TextColumns,
    check_categorical_fill,
    check_matrix_fits,
    labelled_split,
    physical_memory,
)
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.errors import DataError
from dpgui.data.loaders import canonical_cells
from dpgui.data.missing import MissingPolicy, apply_missing, missing_mask
from dpgui.data.text_format import DELIMITED_SUFFIXES, TextFormat, refuse_non_table, sniff_text
from dpgui.data.validation import binary_labels, numeric_column, require_columns

if TYPE_CHECKING:
    from pyspark.sql import Column, DataFrame, SparkSession

LOCAL_MASTER = "local[2]"
_DATA_ERROR = re.compile(r"DataError: (.*)")


def spark_session(master: str | None = None) -> SparkSession:
    """The active Spark session, or a new one at ``master`` (default: local mode on 2 cores).

    Column names are case-sensitive, as in the other engines: by default Spark renamed a CSV's 'Name' and
    'name' to 'Name9' and 'name10' (and a Parquet file's could not be told apart), so neither was found.
    """
    try:
        from pyspark.sql import SparkSession
    except ImportError as exc:
        raise DataError("the Spark engine needs pyspark: pip install 'dpgui[spark]'") from exc
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    return (
        SparkSession.builder.master(master or LOCAL_MASTER)
        .appName("dpgui")
        .config("spark.sql.execution.arrow.pyspark.enabled", "true")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.sql.caseSensitive", "true")
        .config("spark.ui.enabled", "false")
        .getOrCreate()
    )


def _analysed(read: Callable[[], DataFrame], refusal: str) -> DataFrame:
    """``read()``, with Spark's analysis error (a missing table or path, an unreadable schema) turned into a
    DataError saying ``refusal`` and Spark's first line of reason."""
    from pyspark.errors import AnalysisException

    try:
        return read()
    except AnalysisException as error:
        reason = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        raise DataError(f"{refusal} ({reason})") from None


SPARK_CHARSETS = {
    "utf-8": "UTF-8",
    "utf-8-sig": "UTF-8",
    "utf-16": "UTF-16",
    "latin-1": "ISO-8859-1",
    "iso8859-1": "ISO-8859-1",
    "ascii": "US-ASCII",
}
"""The text encodings Spark's CSV reader accepts, by the codec names ``sniff_text`` returns (Spark 4 reads
no other code page: a declared cp1251 is refused before anything is charged)."""


def _spark_charset(file_name: str, text_format: TextFormat) -> str:
    """Spark's name for the file's encoding, or a refusal (before any charge) naming what to do.

    A UTF-8 file whose first 64 KiB hold bytes that are not UTF-8 is refused: Spark reads them as U+FFFD,
    where the other engines read them as Windows-1252 (``text_format.FALLBACK_ERRORS``). Such a byte further
    on is read as U+FFFD in its own cell only."""
    charset = SPARK_CHARSETS.get(text_format.encoding)
    if charset is None or text_format.looks_like is not None:
        raise DataError(
            f"{file_name}: the file is {text_format.encoding_name} text, which the Spark engine cannot read "
            "(it reads UTF-8, UTF-16 and ISO-8859-1); re-save it as UTF-8, or open it with the embedded or "
            "in-memory engine"
        )
    return charset


@dataclass(frozen=True)
class TextCells:
    """How a UDF re-parses one column's CSV text cells: the file's decimal marks
    (``TextFormat.decimal_marks``), and whether the whole file makes the column text (``TextColumns``), so
    that every batch keeps its cells as written."""

    marks: str
    as_text: bool


def _whitespace_line(frame: DataFrame, delimiter: str) -> Column:
    """The rows Spark makes of lines holding only spaces (and tabs, unless they delimit the fields): their
    first field is that whitespace and every other is null. ``pandas.read_csv`` skips such a line as a
    blank one, so it is no row of the file for the other engines (a row whose only content is a quoted
    first field of spaces is dropped too: Spark does not say which fields were quoted)."""
    first, *others = frame.columns
    # isNotNull first: a null rlike is null, and a filter drops a row whose condition is null (a row of empty
    # fields, which is a row of missing cells)
    condition = frame[first].isNotNull() & frame[first].rlike("^ +$" if delimiter == "\t" else "^[ \t]+$")
    for column in others:
        condition &= frame[column].isNull()
    return condition


def _as_read_csv(values: pd.Series, reading: TextCells) -> pd.Series:
    """Text cells as ``pandas.read_csv`` would have parsed them in the whole file (nulls were empty
    fields)."""
    buffer = io.StringIO()
    buffer.write("c\n")
    writer = csv.writer(buffer, quoting=csv.QUOTE_ALL, lineterminator="\n")
    for cell in values.tolist():
        if cell is None or (isinstance(cell, float) and np.isnan(cell)):
            buffer.write("\n")  # an empty field, as in the file
        else:
            writer.writerow([cell])
    buffer.seek(0)
    text = str if reading.as_text else None
    return pd.read_csv(buffer, skip_blank_lines=False, dtype=text)["c"]


def _cells(values: pd.Series, column: str, reading: TextCells | None) -> pd.DataFrame:
    """A UDF batch as the one-column frame the in-memory backend would have read (``reading``: how to
    re-parse text cells, None for typed cells)."""
    if reading is None:
        return pd.DataFrame({column: values.reset_index(drop=True)})
    text = (column,) if reading.as_text else ()
    return canonical_cells(pd.DataFrame({column: _as_read_csv(values, reading)}), reading.marks, text)


_KINDS_SCHEMA = "column string, kind string"


def _read_kinds(frames: Iterator[pd.DataFrame]) -> pd.DataFrame:
    """How a partition's batches read each column (``TextColumns.kinds``), as a frame of ``_KINDS_SCHEMA``."""
    typing = TextColumns()
    for frame in frames:
        typing.add(frame)
    return pd.DataFrame(typing.kinds(), columns=["column", "kind"])


class SparkAggregator:
    """``Aggregator`` over a Spark DataFrame; ``text_marks`` are the decimal marks of cells that are CSV
    text to re-parse (``TextFormat.decimal_marks``; None: typed cells)."""

    name: ClassVar[str] = "spark"

    def __init__(
        self,
        frame: DataFrame,
        *,
        source_name: str,
        text_marks: str | None = None,
        progress: Progress | None = None,
        cancelled: Cancelled | None = None,
        memory_limit: int | None = None,
    ) -> None:
        self._frame = frame
        self._name = source_name
        self._marks = text_marks
        self._progress = progress or (lambda fraction: None)
        self._cancelled = cancelled or (lambda: False)
        self._memory_limit = physical_memory() // 4 if memory_limit is None else memory_limit
        self._count: int | None = None
        self._text: frozenset[str] | None = None

    @classmethod
    def open(
        cls,
        path: Path | None = None,
        *,
        table: str | None = None,
        master: str | None = None,
        encoding: str | None = None,
        **options: object,
    ) -> SparkAggregator:
        """Read a Parquet/CSV/TSV file (or folder) or a table of the session's catalog (``encoding``: the
        declared encoding of CSV/TSV text, None for the automatic reading)."""
        spark = spark_session(master)
        if table is not None:
            frame = _analysed(
                lambda: spark.table(table), f"no table {table!r} in the Spark session's catalog"
            )
            return cls(frame, source_name=table, **options)  # type: ignore[arg-type]
        if path is None:
            raise DataError("the Spark engine needs a data file or a table name (--table)")
        path = Path(path)
        suffix = ".parquet" if path.is_dir() else path.suffix.lower()
        if suffix in ARROW_FORMATS and ARROW_FORMATS[suffix] == "parquet":
            frame = _analysed(
                lambda: spark.read.parquet(str(path)), f"{path}: Spark cannot read it as Parquet"
            )
            return cls(frame, source_name=path.name, **options)  # type: ignore[arg-type]
        if suffix in DELIMITED_SUFFIXES:
            refuse_non_table(path, encoding)
            text_format = sniff_text(path, encoding)
            if text_format.blank_lines_are_records:
                raise DataError(
                    f"{path.name}: a text file of one column writes a missing value as an empty line, which "
                    "Spark's reader skips (and the row count n with it); open it with the embedded or "
                    "in-memory engine, or save it as Parquet"
                )
            frame = spark.read.csv(
                str(path),
                header=True,
                sep=text_format.delimiter,
                encoding=_spark_charset(path.name, text_format),
                inferSchema=False,
                multiLine=True,
                escape='"',
            )
            first = frame.columns[0] if frame.columns else ""
            if first.startswith("\ufeff"):  # a UTF-8 byte-order mark read as part of the first name
                frame = frame.withColumnRenamed(first, first.lstrip("\ufeff"))
            frame = frame.filter(~_whitespace_line(frame, text_format.delimiter))
            return cls(frame, source_name=path.name, text_marks=text_format.decimal_marks, **options)  # type: ignore[arg-type]
        raise DataError(
            f"{path.name}: the Spark engine reads Parquet, CSV and TSV, not {suffix or '(no suffix)'!r}"
        )

    @property
    def columns(self) -> tuple[str, ...]:
        return tuple(self._frame.columns)

    @property
    def header(self) -> pd.DataFrame:
        return pd.DataFrame(columns=list(self.columns))

    def head(self, rows: int) -> pd.DataFrame:
        """The first ``rows`` rows Spark returns (the custodian's preview; never released)."""
        return self._frame.limit(rows).toPandas()

    def _job(self, run: Callable[[], pd.DataFrame]) -> pd.DataFrame:
        """One Spark job, with cancel checked before it, progress after it, and UDF errors unwrapped."""
        if self._cancelled():
            raise ScanCancelled(f"cancelled before scanning {self._name} in Spark; nothing was released")
        from pyspark.errors import PySparkException

        try:
            result = run()
        except PySparkException as exc:
            found = _DATA_ERROR.search(str(exc))
            if found is None:
                raise
            message = re.sub(r", row \d+,", ", a row,", found.group(1))
            raise DataError(message) from None
        self._progress(1.0)
        return result

    def summarise_partitions(
        self,
        columns: Sequence[str],
        summarise: Callable[[Iterator[pd.DataFrame]], pd.DataFrame],
        schema: str,
    ) -> pd.DataFrame:
        """Run ``summarise`` on each partition's batches of ``columns`` (cells as the in-memory loader reads
        them) in Spark, and collect the small frames it returns (a data check's counts, never rows)."""
        require_columns(self.header, list(columns), file_name=self._name)
        return self._summarise(columns, summarise, schema, [self._reading(column) for column in columns])

    def _summarise(
        self,
        columns: Sequence[str],
        summarise: Callable[[Iterator[pd.DataFrame]], pd.DataFrame],
        schema: str,
        readings: Sequence[TextCells | None],
    ) -> pd.DataFrame:
        """``summarise_partitions`` with each column's cells re-parsed as ``readings`` say."""
        wanted = list(zip(columns, readings, strict=True))  # no self: the function must pickle

        def per_partition(batches: Iterator[pd.DataFrame]) -> Iterator[pd.DataFrame]:
            frames = (
                pd.concat([_cells(batch[column], column, reading) for column, reading in wanted], axis=1)
                for batch in batches
            )
            yield summarise(frames)

        selected = self._frame.select(*[self._frame[column] for column in columns])
        return self._job(lambda: selected.mapInPandas(per_partition, schema).toPandas())

    def _reading(self, column: str) -> TextCells | None:
        """How the UDFs re-parse ``column``'s cells: None for typed cells (Parquet, a catalog table)."""
        if self._marks is None:
            return None
        if self._text is None:  # one job over every column, once: what the whole file makes text
            readings = [TextCells(self._marks, as_text=False)] * len(self.columns)
            kinds = self._summarise(self.columns, _read_kinds, _KINDS_SCHEMA, readings)
            typing = TextColumns()
            for name, kind in zip(kinds["column"], kinds["kind"], strict=True):
                typing.note(name, kind)
            self._text = typing.columns()
        return TextCells(self._marks, as_text=column in self._text)

    def refuse_changed_source(self) -> None:
        """Not checked: Spark reads the source itself, and a catalog table has no file to stamp."""

    def count(self) -> int:
        if self._count is None:
            self._count = int(self._job(lambda: pd.DataFrame({"n": [self._frame.count()]}))["n"].iloc[0])
        return self._count

    def _grid(self, column: str, domain: NumericDomain, missing: MissingPolicy) -> Column:
        from pyspark.sql.functions import pandas_udf

        require_columns(self.header, [column], file_name=self._name)
        name, reading = self._name, self._reading(column)  # no self: UDFs must pickle

        @pandas_udf("long")  # type: ignore[call-overload]
        def grid(values: pd.Series) -> pd.Series:
            raw = numeric_column(_cells(values, column, reading), column, file_name=name)
            return pd.Series(
                domain.to_grid(apply_missing(raw, missing, domain, file_name=name)).view(np.int64)
            )

        return grid(self._frame[column])

    def _labels(self, column: str, positive: str | None) -> Column:
        from pyspark.sql.functions import pandas_udf

        require_columns(self.header, [column], file_name=self._name)
        name, reading = self._name, self._reading(column)  # no self: UDFs must pickle

        @pandas_udf("boolean")  # type: ignore[call-overload]
        def truth(values: pd.Series) -> pd.Series:
            return pd.Series(binary_labels(_cells(values, column, reading), column, positive, file_name=name))

        return truth(self._frame[column])

    def _counts(self, *keys: Column) -> pd.DataFrame:
        """Rows per distinct key tuple (columns k0, k1, ... and n), computed in Spark."""
        named = [key.alias(f"k{i}") for i, key in enumerate(keys)]
        return self._job(
            lambda: (
                self._frame.select(*named).groupBy(*[f"k{i}" for i in range(len(keys))]).count().toPandas()
            )
        )

    def _distinct(self, counts: pd.DataFrame, size: int) -> DistinctCounter:
        counter = DistinctCounter(size)
        counter.add_counts(
            counts["k0"].to_numpy(np.int64).view(np.uint64), counts["count"].to_numpy(np.int64)
        )
        return counter

    def sorted_distinct_counts(
        self, column: str, domain: NumericDomain, missing: MissingPolicy
    ) -> tuple[np.ndarray, np.ndarray]:
        return self._distinct(self._counts(self._grid(column, domain, missing)), domain.size).result()

    def histogram(self, column: str, domain: NumericDomain, missing: MissingPolicy) -> np.ndarray:
        _refuse_large(domain.size, "histogram")
        return self._distinct(self._counts(self._grid(column, domain, missing)), domain.size).dense()

    def labelled_distinct_counts(
        self, feature: str, domain: NumericDomain, missing: MissingPolicy, label: str, positive: str | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        counts = self._counts(self._grid(feature, domain, missing), self._labels(label, positive))
        positive_rows = counts["k1"].to_numpy(bool)
        every = self._distinct(counts, domain.size)
        positives = self._distinct(counts[positive_rows], domain.size)
        return labelled_split(*every.result(), *positives.result())

    def _category_index(self, column: str, domain: CategoricalDomain, missing: MissingPolicy) -> Column:
        from pyspark.sql.functions import pandas_udf

        check_categorical_fill(column, missing)
        require_columns(self.header, [column], file_name=self._name)
        name, reading = self._name, self._reading(column)  # no self: UDFs must pickle

        @pandas_udf("long")  # type: ignore[call-overload]
        def index(values: pd.Series) -> pd.Series:
            frame = _cells(values, column, reading)
            missing_mask(frame[column], missing, file_name=name)
            return pd.Series(domain.to_indices(frame[column], file_name=name))

        return index(self._frame[column])

    def category_counts(self, column: str, domain: CategoricalDomain, missing: MissingPolicy) -> np.ndarray:
        counts = self._counts(self._category_index(column, domain, missing))
        result = np.zeros(domain.size, np.int64)
        np.add.at(result, counts["k0"].to_numpy(np.intp), counts["count"].to_numpy(np.int64))
        return result

    def marginals(
        self,
        columns: Sequence[str],
        domains: Sequence[NumericDomain | CategoricalDomain],
        missings: Sequence[MissingPolicy],
        cliques: Sequence[tuple[int, ...]],
    ) -> list[np.ndarray]:
        """One Spark group-by per clique (cell counts only leave the cluster)."""
        sizes = [cell_count(domain, missing) for domain, missing in zip(domains, missings, strict=True)]
        MarginalCounter(sizes, cliques)  # refuses bad or too large cliques
        result = []
        for clique in cliques:
            keys = [self._cell_index(columns[j], domains[j], missings[j]) for j in clique]
            counts = self._counts(*keys)
            joint = np.zeros(tuple(sizes[j] for j in clique), np.int64)
            index = tuple(counts[f"k{i}"].to_numpy(np.intp) for i in range(len(clique)))
            np.add.at(joint, index, counts["count"].to_numpy(np.int64))
            result.append(joint)
        return result

    def _cell_index(
        self, column: str, domain: NumericDomain | CategoricalDomain, missing: MissingPolicy
    ) -> Column:
        """A column's cell in a marginal, by the in-memory engines' ``cell_indices`` (KEEP's extra cell)."""
        from pyspark.sql.functions import pandas_udf

        if isinstance(domain, CategoricalDomain):
            check_categorical_fill(column, missing)
        require_columns(self.header, [column], file_name=self._name)
        name, reading = self._name, self._reading(column)  # no self: UDFs must pickle

        @pandas_udf("long")  # type: ignore[call-overload]
        def index(values: pd.Series) -> pd.Series:
            cells = cell_indices(_cells(values, column, reading), column, domain, missing, file_name=name)
            return pd.Series(cells.astype(np.int64))

        return index(self._frame[column])

    def labelled_rows(
        self, feature: str, domain: NumericDomain, missing: MissingPolicy, label: str, positive: str | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Rows in the source's order (file order for file sources; a catalog table's scan order)."""
        check_matrix_fits(self.count(), 2, self._memory_limit)
        keys = (self._grid(feature, domain, missing).alias("k0"), self._labels(label, positive).alias("k1"))
        rows = self._job(lambda: self._frame.select(*keys).toPandas())
        return rows["k0"].to_numpy(np.int64).view(np.uint64), rows["k1"].to_numpy(bool)

    def column_matrix(
        self, columns: Sequence[str], domains: Sequence[NumericDomain], missings: Sequence[MissingPolicy]
    ) -> np.ndarray:
        if not len(columns) == len(domains) == len(missings):
            raise ValueError("column_matrix needs one domain and one missing policy per column")
        check_matrix_fits(self.count(), len(columns), self._memory_limit)
        grids = [
            self._grid(column, domain, missing).alias(f"k{j}")
            for j, (column, domain, missing) in enumerate(zip(columns, domains, missings, strict=True))
        ]
        rows = self._job(lambda: self._frame.select(*grids).toPandas())
        matrix = np.empty((len(rows), len(columns)), dtype=np.float64)
        for j, domain in enumerate(domains):
            matrix[:, j] = domain.from_grid(rows[f"k{j}"].to_numpy(np.int64).view(np.uint64))
        return matrix
