"""A private thread pool per test, drained before the test's ledger and files go away."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import QThreadPool


@pytest.fixture
def pool(qapp: object) -> Iterator[QThreadPool]:
    pool = QThreadPool()
    yield pool
    pool.waitForDone()
