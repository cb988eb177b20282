"""The aggregates DP algorithms read, behind one interface, and the in-memory numpy backend.

DP code never touches a DataFrame: it asks an ``Aggregator`` for counts over declared (public) domains.
Every method applies the missing-value policy (n stays fixed), clips to the domain and snaps to its grid
first, so the aggregates have the sensitivity the algorithms assume under replace-one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import ClassVar, Protocol

import numpy as np
import pandas as pd

from dpgui.data.dataset import Dataset
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.engines import Engine
from dpgui.data.errors import DataError
from dpgui.data.missing import MissingKind, MissingPolicy, apply_missing, cell_count, missing_mask
from dpgui.data.validation import binary_labels, numeric_column, require_columns

DENSE_LIMIT = 1 << 26
"""The most cells a dense histogram may have; larger grids must use ``sorted_distinct_counts``."""


class Aggregator(Protocol):
    """Aggregates of one private table over declared domains (the only door from data to DP code)."""

    name: ClassVar[str]

    def count(self) -> int:
        """The row count n (public)."""
        ...

    def refuse_changed_source(self) -> None:
        """Raise ``DataError`` when the data changed since it was opened and checked. A run asks before it
        touches the data, so a run refused here is refunded."""
        ...

    def head(self, rows: int) -> pd.DataFrame:
        """The table's first ``rows`` rows, for the custodian's preview only (never released)."""
        ...

    def sorted_distinct_counts(
        self, column: str, domain: NumericDomain, missing: MissingPolicy
    ) -> tuple[np.ndarray, np.ndarray]:
        """Sorted distinct grid indices (uint64) of the column and how many rows sit at each (int64)."""
        ...

    def histogram(self, column: str, domain: NumericDomain, missing: MissingPolicy) -> np.ndarray:
        """int64 count at every grid point (length ``domain.size``, at most 2^26)."""
        ...

    def labelled_distinct_counts(
        self, feature: str, domain: NumericDomain, missing: MissingPolicy, label: str, positive: str | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Sorted distinct feature grid indices, and the positive and negative label counts at each."""
        ...

    def category_counts(self, column: str, domain: CategoricalDomain, missing: MissingPolicy) -> np.ndarray:
        """int64 count of every category index (length ``domain.size``)."""
        ...

    def labelled_rows(
        self, feature: str, domain: NumericDomain, missing: MissingPolicy, label: str, positive: str | None
    ) -> tuple[np.ndarray, np.ndarray]:
        """Feature grid indices (uint64) and boolean labels, row by row in file order.

        PRIVATE rows: only for DP algorithms that need the public row order (the label-private learner
        splits the rows by position, a rule that does not depend on the data).
        """
        ...

    def marginals(
        self,
        columns: Sequence[str],
        domains: Sequence[NumericDomain | CategoricalDomain],
        missings: Sequence[MissingPolicy],
        cliques: Sequence[tuple[int, ...]],
    ) -> list[np.ndarray]:
        """int64 counts over every clique (positions in ``columns``), one array per clique shaped by the
        clique's domain sizes (numeric: grid points; categorical: category indices); one pass."""
        ...

    def column_matrix(
        self, columns: Sequence[str], domains: Sequence[NumericDomain], missings: Sequence[MissingPolicy]
    ) -> np.ndarray:
        """(n, k) float64 matrix of clipped values snapped to their grids.

        This is PRIVATE data, row by row: only DP code (the distance-query engines) may read it, and
        nothing derived from it may leave except through a DP mechanism.
        """
        ...


def _distinct_counts(indices: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct uint64 indices and int64 counts: bincount when the grid is small next to n
    (O(n + size)), otherwise a sort (O(n log n))."""
    if size <= max(indices.size, 1 << 16) and size <= DENSE_LIMIT:
        dense = np.bincount(indices.astype(np.intp), minlength=size)
        present = np.flatnonzero(dense)
        return present.astype(np.uint64), dense[present].astype(np.int64)
    values, counts = np.unique(indices, return_counts=True)
    return values, counts.astype(np.int64)


def _refuse_large(cells: int, what: str) -> None:
    if cells > DENSE_LIMIT:
        raise DataError(
            f"a {what} of {cells} cells is too large (limit 2^26); use sorted distinct counts for large grids"
        )


def cell_indices(
    frame: pd.DataFrame,
    column: str,
    domain: NumericDomain | CategoricalDomain,
    missing: MissingPolicy,
    *,
    file_name: str,
) -> np.ndarray:
    """intp index of every cell of one column on its declared domain (the missing policy applied; under
    KEEP a missing cell is the extra index ``domain.size``, see ``cell_count``)."""
    kept = missing.kind is MissingKind.KEEP
    if isinstance(domain, CategoricalDomain):
        if missing.fill_value is not None:
            raise DataError(
                f"column {column!r} is categorical: missing cells can only be counted as 'other', "
                "not replaced by a number"
            )
        require_columns(frame, [column], file_name=file_name)
        mask = missing_mask(frame[column], missing, file_name=file_name)
        kept_at = domain.size if kept else None  # the "missing" cell (see below); never a value in the column
        indices = domain.to_indices(frame[column], file_name=file_name, missing_index=kept_at).astype(np.intp)
    else:
        raw = numeric_column(frame, column, file_name=file_name)
        mask = raw.isna().to_numpy()
        present = MissingPolicy() if kept else missing  # under KEEP the filled cells are overwritten below
        indices = domain.to_grid(apply_missing(raw, present, domain, file_name=file_name)).astype(np.intp)
    if kept:
        indices[mask] = domain.size
    return indices


class MarginalCounter:
    """Adds up the counts of several marginals batch by batch (the marginals every backend shares)."""

    def __init__(self, sizes: Sequence[int], cliques: Sequence[tuple[int, ...]]) -> None:
        self._shapes = [tuple(int(sizes[i]) for i in clique) for clique in cliques]
        for clique, shape in zip(cliques, self._shapes, strict=True):
            if not clique or len(set(clique)) != len(clique):
                raise ValueError(f"a clique names distinct columns, got {clique}")
            _refuse_large(math.prod(shape), f"marginal over {len(clique)} columns")
        self._cliques = [tuple(clique) for clique in cliques]
        self.counts = [np.zeros(math.prod(shape), np.int64) for shape in self._shapes]

    def add(self, indices: Sequence[np.ndarray]) -> None:
        """``indices[j]``: the cell indices of column j for this batch's rows."""
        for clique, shape, counts in zip(self._cliques, self._shapes, self.counts, strict=True):
            cells = np.ravel_multi_index(tuple(indices[i] for i in clique), shape)
            counts += np.bincount(cells, minlength=counts.size)

    def result(self) -> list[np.ndarray]:
        return [counts.reshape(shape) for counts, shape in zip(self.counts, self._shapes, strict=True)]


class InMemoryAggregator:
    """``Aggregator`` over a ``Dataset`` held in memory, with numpy (O(n log n) at worst)."""

    name: ClassVar[str] = Engine.MEMORY.value

    def __init__(self, dataset: Dataset) -> None:
        self._dataset = dataset

    def refuse_changed_source(self) -> None:
        """Nothing to refuse: the rows are in memory, read once when the file was opened."""

    def count(self) -> int:
        return self._dataset.n_rows

    def head(self, rows: int) -> pd.DataFrame:
        return self._dataset.frame.head(rows)

    def _grid(self, column: str, domain: NumericDomain, missing: MissingPolicy) -> np.ndarray:
        """uint64 grid indices of the column after the missing policy, clipping and snapping."""
        file_name = self._dataset.name
        raw = numeric_column(self._dataset.frame, column, file_name=file_name)
        return domain.to_grid(apply_missing(raw, missing, domain, file_name=file_name))

    def sorted_distinct_counts(
        self, column: str, domain: NumericDomain, missing: MissingPolicy
    ) -> tuple[np.ndarray, np.ndarray]:
        return _distinct_counts(self._grid(column, domain, missing), domain.size)

    def histogram(self, column: str, domain: NumericDomain, missing: MissingPolicy) -> np.ndarray:
        _refuse_large(domain.size, "histogram")
        indices = self._grid(column, domain, missing).astype(np.intp)
        return np.bincount(indices, minlength=domain.size).astype(np.int64)

    def labelled_distinct_counts(
        self, feature: str, domain: NumericDomain, missing: MissingPolicy, label: str, positive: str | None
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        indices = self._grid(feature, domain, missing)
        labels = binary_labels(self._dataset.frame, label, positive, file_name=self._dataset.name)
        values, counts = _distinct_counts(indices, domain.size)
        positive_values, positive_counts = _distinct_counts(indices[labels], domain.size)
        positives = np.zeros_like(counts)
        positives[np.searchsorted(values, positive_values)] = positive_counts
        return values, positives, counts - positives

    def labelled_rows(
        self, feature: str, domain: NumericDomain, missing: MissingPolicy, label: str, positive: str | None
    ) -> tuple[np.ndarray, np.ndarray]:
        indices = self._grid(feature, domain, missing)
        return indices, binary_labels(self._dataset.frame, label, positive, file_name=self._dataset.name)

    def category_counts(self, column: str, domain: CategoricalDomain, missing: MissingPolicy) -> np.ndarray:
        if missing.fill_value is not None:
            raise DataError(
                f"column {column!r} is categorical: missing cells can only be counted as 'other', "
                "not replaced by a number"
            )
        require_columns(self._dataset.frame, [column], file_name=self._dataset.name)
        values = self._dataset.frame[column]
        missing_mask(values, missing, file_name=self._dataset.name)
        codes = domain.to_indices(values, file_name=self._dataset.name)
        return np.bincount(codes, minlength=domain.size).astype(np.int64)

    def marginals(
        self,
        columns: Sequence[str],
        domains: Sequence[NumericDomain | CategoricalDomain],
        missings: Sequence[MissingPolicy],
        cliques: Sequence[tuple[int, ...]],
    ) -> list[np.ndarray]:
        counter = MarginalCounter([cell_count(d, m) for d, m in zip(domains, missings, strict=True)], cliques)
        frame, name = self._dataset.frame, self._dataset.name
        counter.add(
            [
                cell_indices(frame, column, domain, missing, file_name=name)
                for column, domain, missing in zip(columns, domains, missings, strict=True)
            ]
        )
        return counter.result()

    def column_matrix(
        self, columns: Sequence[str], domains: Sequence[NumericDomain], missings: Sequence[MissingPolicy]
    ) -> np.ndarray:
        if not len(columns) == len(domains) == len(missings):
            raise ValueError("column_matrix needs one domain and one missing policy per column")
        matrix = np.empty((self.count(), len(columns)), dtype=np.float64)
        for j, (column, domain, missing) in enumerate(zip(columns, domains, missings, strict=True)):
            matrix[:, j] = domain.from_grid(self._grid(column, domain, missing))
        return matrix


class GridCountsAggregator:
    """``Aggregator`` over one numeric column already counted on its grid (simulations of many rows).

    Serves the count, histogram and sorted distinct counts that CDF and quantile algorithms read; the
    counts have no missing cells, so the missing-value policy has nothing to apply. Not for private data:
    the private path always counts a file through an aggregator that applies the policy."""

    name: ClassVar[str] = "grid counts"

    def __init__(self, column: str, domain: NumericDomain, counts: np.ndarray) -> None:
        self._column, self._domain = column, domain
        self._counts = np.asarray(counts, dtype=np.int64)

    def _check(self, column: str, domain: NumericDomain) -> None:
        if column != self._column or domain != self._domain:
            raise DataError(f"only {self._column!r} on its own grid was counted here, not {column!r}")

    def refuse_changed_source(self) -> None:
        """Nothing to refuse: these counts do not change under the run."""

    def count(self) -> int:
        return int(self._counts.sum())

    def histogram(self, column: str, domain: NumericDomain, missing: MissingPolicy) -> np.ndarray:
        self._check(column, domain)
        return self._counts.copy()

    def sorted_distinct_counts(
        self, column: str, domain: NumericDomain, missing: MissingPolicy
    ) -> tuple[np.ndarray, np.ndarray]:
        self._check(column, domain)
        values = np.flatnonzero(self._counts)
        return values.astype(np.uint64), self._counts[values]
