"""The optional public sample: data anyone may see, used for domains, cut points and previews.

A public sample never enters a private aggregate. Algorithms that use it (public-data-assisted release,
paper 001) are private for every fixed public sample: they read it only to choose cells or candidates.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from dpgui.data.dataset import Dataset, open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.errors import DataError
from dpgui.data.validation import binary_labels, distinct_text, numeric_column, require_columns


@dataclass(frozen=True)
class PublicSample:
    """A public file, identified by path and SHA-256 (hashable, so it can sit in a TaskSpec), and the
    text encoding declared for it (None: the automatic reading)."""

    path: Path
    sha256: str
    encoding: str | None = None

    @classmethod
    def from_file(cls, path: Path, encoding: str | None = None) -> PublicSample:
        """The sample as the file holds it now: read afresh, not from the copy of an earlier opening of the
        same path (which a rewritten file would no longer match)."""
        dataset = open_dataset(Path(path).resolve(), encoding)
        _load.remember(dataset, encoding)
        return cls(dataset.path, dataset.sha256, encoding)

    @property
    def frame(self) -> pd.DataFrame:
        return _load(self.path, self.sha256, self.encoding).frame

    @property
    def n_rows(self) -> int:
        return len(self.frame)

    def column_values(self, column: str, domain: NumericDomain | None = None) -> np.ndarray:
        """The column's finite values (missing ones dropped: the sample is public), clipped to ``domain``."""
        values = numeric_column(self.frame, column, file_name=self.path.name).to_numpy(dtype=np.float64)
        values = values[np.isfinite(values)]
        if domain is not None:
            values = np.clip(values, domain.lower, domain.upper)
        return values

    def column_categories(self, column: str) -> tuple[str, ...]:
        """The column's distinct present values, sorted, as text (as a CategoricalDomain compares cells)."""
        require_columns(self.frame, [column], file_name=self.path.name)
        _, texts = distinct_text(self.frame[column])
        return tuple(sorted(texts))

    def column_grid(self, column: str, domain: NumericDomain) -> np.ndarray:
        """The column's values as sorted uint64 grid indices of ``domain``."""
        return np.sort(domain.to_grid(self.column_values(column, domain)))

    def labels(self, column: str, positive: str | None) -> np.ndarray:
        return binary_labels(self.frame, column, positive, file_name=self.path.name)


class _Loaded:
    """The last few public samples read, by (path, SHA-256, encoding): the one :meth:`PublicSample.from_file`
    read (in the app, off the GUI thread) is remembered, not read again when its frame is first asked for.
    A remembered sample is the bytes chosen, whose SHA-256 the spec pins; a file rewritten since is refused
    when the sample must be read again."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._datasets: OrderedDict[tuple[Path, str, str | None], Dataset] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, dataset: Dataset, encoding: str | None) -> None:
        with self._lock:
            key = (dataset.path, dataset.sha256, encoding)
            self._datasets[key] = dataset
            self._datasets.move_to_end(key)
            while len(self._datasets) > self._size:
                self._datasets.popitem(last=False)

    def __call__(self, path: Path, sha256: str, encoding: str | None) -> Dataset:
        with self._lock:
            known = self._datasets.get((path, sha256, encoding))
        if known is not None:
            return known
        dataset = open_dataset(path, encoding)
        if dataset.sha256 != sha256:
            raise DataError(f"the public sample {path.name} changed since it was chosen; open it again")
        self.remember(dataset, encoding)
        return dataset

    def cache_clear(self) -> None:
        with self._lock:
            self._datasets.clear()


_load = _Loaded(4)
