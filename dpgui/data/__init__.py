"""The data layer: loading, validating, declaring domains and aggregating the private table.

Domains and bounds never come from the private data; DP algorithms read it only through ``Aggregator``.
"""

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
