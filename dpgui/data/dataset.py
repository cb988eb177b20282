"""A loaded private table together with the fingerprint of the file it came from."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from dpgui.data.fingerprint import sha256_file
from dpgui.data.loaders import load_table


@dataclass(frozen=True)
class Dataset:
    """The private table (``frame``; not compared, not shown in repr) and its file's path and SHA-256."""

    path: Path
    sha256: str
    frame: pd.DataFrame = field(compare=False, repr=False)
    encoding: str | None = None
    """The text encoding the custodian declared for a delimited file, None for the automatic reading."""

    @property
    def name(self) -> str:
        """The file name, as used in messages and the manifest."""
        return self.path.name

    @property
    def n_rows(self) -> int:
        """The row count n, public under the neighbouring relation used throughout (replace one record)."""
        return len(self.frame)

    @property
    def header(self) -> pd.DataFrame:
        """The columns without rows (what ``require_columns`` checks)."""
        return self.frame.iloc[:0]


@dataclass(frozen=True)
class DatasetHandle:
    """A private table that stays where it is (a file scanned out of core, or a Spark table).

    It carries what a release states about its input, never rows: the path (or table name), the SHA-256
    of the file's bytes (computed by streaming; for a table, of its name), the row count as counted by
    the engine that will aggregate it, and a zero-row ``header`` naming the columns.
    """

    path: Path
    sha256: str
    n_rows: int
    header: pd.DataFrame = field(compare=False, repr=False)
    encoding: str | None = None
    """The text encoding the custodian declared for a delimited file, None for the automatic reading."""

    @property
    def name(self) -> str:
        """The file or table name, as used in messages and the manifest."""
        return self.path.name


def open_dataset(path: Path, encoding: str | None = None) -> Dataset:
    """Load a table (delimited text in the declared ``encoding``, if any) and fingerprint its file; raises
    ``DataError`` when it cannot be read."""
    path = Path(path)
    frame = load_table(path, encoding)
    return Dataset(path=path, sha256=sha256_file(path), frame=frame, encoding=encoding)
