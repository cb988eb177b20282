"""Choosing where the aggregates are computed: in memory, out of core on this machine, or in Spark.

Every backend grids, imputes and parses labels with the same functions (see ``embedded`` and ``spark``),
so the aggregates, and therefore a release's privacy, do not depend on the engine. The manifest records the
engine as the custodian chose it (``aggregation_backend``: ``auto`` stays ``auto``), never the engine
``auto`` resolved to: that depends on the private file's size, a bit about the data near the threshold.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from dpgui.data.aggregate import Aggregator, InMemoryAggregator
from dpgui.data.backends.embedded import (
    EMBEDDED_SUFFIXES,
    Cancelled,
    EmbeddedAggregator,
    FileSource,
    Progress,
    ScanCancelled,
    is_feather_v1,
    physical_memory,
)
from dpgui.data.backends.monitor import ScanMonitor
from dpgui.data.dataset import Dataset, DatasetHandle, open_dataset
from dpgui.data.engines import AUTO_MIN_BYTES, COLUMNAR_MIN_BYTES, Engine
from dpgui.data.errors import DataError
from dpgui.data.fingerprint import sha256_source

__all__ = [
    "PREVIEW_ROWS",
    "Engine",
    "OpenedData",
    "ScanCancelled",
    "ScanMonitor",
    "auto_threshold",
    "choose_engine",
    "open_aggregator",
]

COLUMNAR_SUFFIXES = frozenset({".parquet", ".pq", ".feather", ".arrow"})


PREVIEW_ROWS = 1000
"""Rows a scanning engine reads for the custodian's preview (the in-memory engine shows every row)."""


@dataclass(frozen=True)
class OpenedData:
    """The private input's public facts (``dataset``) and the aggregator that reads it."""

    dataset: Dataset | DatasetHandle
    aggregator: Aggregator
    engine_choice: str = Engine.AUTO.value
    """The engine as the custodian asked for it (what the manifest states), before ``auto`` resolves."""
    file_format: str = "—"
    """How the file is read, for the Data page (``text_format.describe_file_format``): described where it
    is opened (the app's worker), since sniffing a text file may guess its code page and a workbook is
    opened to name its sheets."""

    @property
    def in_memory(self) -> bool:
        return isinstance(self.dataset, Dataset)

    def preview(self, rows: int = PREVIEW_ROWS) -> pd.DataFrame:
        """Custodian-only rows to look at: the whole table in memory, else the first ``rows`` rows."""
        return self.dataset.frame if isinstance(self.dataset, Dataset) else self.aggregator.head(rows)


def auto_threshold() -> int:
    """File size above which ``auto`` uses the embedded engine: min(1 GiB, RAM / 4)."""
    return min(AUTO_MIN_BYTES, physical_memory() // 4)


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(part.stat().st_size for part in path.rglob("*") if part.is_file())
    return path.stat().st_size if path.is_file() else 0


def choose_engine(path: Path, threshold: int | None = None) -> Engine:
    """``auto``: the embedded engine for a large file it can read (or a folder), else in memory.

    "Large" is min(1 GiB, RAM / 4), or 16 MiB for columnar files (Parquet, Feather).
    """
    path = Path(path)
    if threshold is None:
        threshold = COLUMNAR_MIN_BYTES if path.suffix.lower() in COLUMNAR_SUFFIXES else auto_threshold()
    large = _size(path) > threshold
    readable = path.is_dir() or (path.suffix.lower() in EMBEDDED_SUFFIXES and not is_feather_v1(path))
    return Engine.EMBEDDED if (large or path.is_dir()) and readable else Engine.MEMORY


def open_aggregator(
    source: Path | str | None,
    engine: Engine | str = Engine.AUTO,
    *,
    table: str | None = None,
    spark_master: str | None = None,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
    threshold: int | None = None,
    encoding: str | None = None,
) -> OpenedData:
    """Open the private data with an engine: ``memory`` loads it into pandas; ``embedded`` and ``spark``
    never do (only the header, a streamed SHA-256 and the engine's row count are read here).

    ``table`` names a table of the Spark catalog instead of a file (Spark only); its fingerprint is the
    SHA-256 of its name, since its bytes cannot be hashed. ``progress``/``cancelled`` apply to the
    scanning engines. ``encoding`` is the custodian's declared encoding of a delimited text file (None: the
    automatic reading, ``text_format``'s module doc).
    """
    engine = Engine(engine)
    choice = Engine.SPARK.value if table is not None else engine.value
    if table is not None:
        if engine not in (Engine.SPARK, Engine.AUTO):
            raise DataError(f"a table name (--table {table}) needs the Spark engine, not {engine.value!r}")
        if source is not None:
            raise DataError(f"name the private file (--data) or a Spark table (--table {table}), not both")
        engine = Engine.SPARK
    elif source is None:
        raise DataError("name the private data file (--data), or a Spark table (--table)")
    path = Path(source) if source is not None else Path(str(table))
    if engine is Engine.AUTO:
        engine = choose_engine(path, threshold)
    if engine is Engine.MEMORY:
        dataset = open_dataset(path, encoding)
        return OpenedData(dataset, InMemoryAggregator(dataset), choice)
    scanning = {"progress": progress, "cancelled": cancelled}
    if engine is Engine.EMBEDDED:
        aggregator = EmbeddedAggregator(FileSource(path, encoding=encoding), **scanning)
        header = aggregator.source.header
    else:
        from dpgui.data.backends.spark import SparkAggregator

        aggregator = SparkAggregator.open(
            None if table else path, table=table, master=spark_master, encoding=encoding, **scanning
        )
        header = aggregator.header
    sha256 = hashlib.sha256(f"spark table {table}".encode()).hexdigest() if table else sha256_source(path)
    handle = DatasetHandle(path, sha256, aggregator.count(), header, encoding)
    return OpenedData(handle, aggregator, choice)
