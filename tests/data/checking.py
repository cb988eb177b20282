"""Test helper: run the data checks over in-memory frames, as the app's check_data does over a file."""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from dpgui.data.checks import DataCheck, FrameChecker
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.missing import MissingPolicy


def check_frames(
    file_name: str,
    frames: Iterable[tuple[int, pd.DataFrame]],
    columns: tuple[str, ...],
    domains: tuple[NumericDomain | CategoricalDomain, ...],
    missing: MissingPolicy,
    *,
    label: str | None = None,
    positive: str | None = None,
) -> DataCheck:
    """Count every column's problems over ``frames`` ((row offset, frame) pairs covering the file)."""
    checker = FrameChecker(file_name, columns, domains, missing, label=label, positive=positive)
    for offset, frame in frames:
        checker.add(offset, frame)
    return checker.result()
