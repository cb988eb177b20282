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
