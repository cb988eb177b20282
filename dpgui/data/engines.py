"""The aggregation engines' names, importable without the data layer (pandas): the CLI's flags and the
manifests spell them, and a command that reads no data must not pay for pandas to list them."""

from __future__ import annotations

import enum


class Engine(enum.Enum):
    """Where aggregates are computed."""

    MEMORY = "memory"
    EMBEDDED = "embedded"
    SPARK = "spark"
    AUTO = "auto"


AUTO_MIN_BYTES = 1 << 30
"""``auto`` scans out of core files above min(1 GiB, a quarter of RAM)."""

COLUMNAR_MIN_BYTES = 16 << 20
"""Parquet and Feather files above 16 MiB are scanned too: they expand several-fold in memory, and the
embedded scan reads only the needed columns (benchmarks/scale.md: 3.1 s / 377 MB against 5.2 s / 741 MB
in memory for 10^7 rows)."""
