"""Qt test fixtures: offscreen rendering and a thread pool drained after every test."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QThreadPool  # imported after the platform is chosen


@pytest.fixture(autouse=True)
def drained_thread_pool() -> Iterator[None]:
    yield
    QThreadPool.globalInstance().waitForDone()
