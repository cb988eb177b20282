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

__all__ = [
    "DENSE_LIMIT",
    "SUPPORTED_SUFFIXES",
    "Aggregator",
    "CategoricalDomain",
    "ColumnKind",
    "ColumnSummary",
    "DataError",
    "Dataset",
    "InMemoryAggregator",
    "MissingKind",
    "MissingPolicy",
    "NumericDomain",
    "apply_missing",
    "binary_labels",
    "default_granularity",
    "load_table",
    "numeric_column",
    "open_dataset",
    "require_columns",
    "sha256_file",
    "suggest_domain",
    "summarize_columns",
]


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


if TYPE_CHECKING:
    from dpgui.data.aggregate import DENSE_LIMIT, Aggregator, InMemoryAggregator
    from dpgui.data.dataset import Dataset, open_dataset
    from dpgui.data.domain import CategoricalDomain, NumericDomain, default_granularity, suggest_domain
    from dpgui.data.errors import DataError
    from dpgui.data.fingerprint import sha256_file
    from dpgui.data.loaders import SUPPORTED_SUFFIXES, load_table
    from dpgui.data.missing import MissingKind, MissingPolicy, apply_missing
    from dpgui.data.validation import (
        ColumnKind,
        ColumnSummary,
        binary_labels,
        numeric_column,
        require_columns,
        summarize_columns,
    )
