"""The data layer: loading, validating, declaring domains and aggregating the private table.

Domains and bounds never come from the private data; DP algorithms read it only through ``Aggregator``.

The names below are imported on first use (PEP 562), so that a command which reads no data (``dpgui
--help``, ``dpgui algorithms``, a table's ``dpgui plan``) can import ``dpgui.data.errors`` without pandas.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_HOMES = {
    "DENSE_LIMIT": "aggregate",
    "Aggregator": "aggregate",
    "InMemoryAggregator": "aggregate",
    "Dataset": "dataset",
    "open_dataset": "dataset",
    "CategoricalDomain": "domain",
    "NumericDomain": "domain",
    "default_granularity": "domain",
    "suggest_domain": "domain",
    "DataError": "errors",
    "sha256_file": "fingerprint",
    "SUPPORTED_SUFFIXES": "loaders",
    "load_table": "loaders",
    "MissingKind": "missing",
    "MissingPolicy": "missing",
    "apply_missing": "missing",
    "ColumnKind": "validation",
    "ColumnSummary": "validation",
    "binary_labels": "validation",
    "numeric_column": "validation",
    "require_columns": "validation",
    "summarize_columns": "validation",
}

__all__ = list(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:  # the same names, for type checkers (re-exports, hence noqa)
    from dpgui.data.aggregate import DENSE_LIMIT, Aggregator, InMemoryAggregator  # noqa: F401
    from dpgui.data.dataset import Dataset, open_dataset  # noqa: F401
    from dpgui.data.domain import CategoricalDomain, NumericDomain, default_granularity, suggest_domain  # noqa: F401
    from dpgui.data.errors import DataError  # noqa: F401
    from dpgui.data.fingerprint import sha256_file  # noqa: F401
    from dpgui.data.loaders import SUPPORTED_SUFFIXES, load_table  # noqa: F401
    from dpgui.data.missing import MissingKind, MissingPolicy, apply_missing  # noqa: F401
    from dpgui.data.validation import (  # noqa: F401
        ColumnKind,
        ColumnSummary,
        binary_labels,
        numeric_column,
        require_columns,
        summarize_columns,
    )
