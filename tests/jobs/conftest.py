"""A private thread pool per test, drained before the test's ledger and files go away; a model fit a cancel
gave up."""

from __future__ import annotations

import threading
from collections.abc import Iterator

import pytest
from PySide6.QtCore import QThreadPool

from dpgui.privacy.cancellable import (
    DrawCancelled,
    abandoned_work_running,
    wait_cancellably,
    wait_for_abandoned_work,
)

ABANDONED_FIT_SECONDS = 600
"""How long the abandoned fit runs unless its test lets it go first (the fixture's teardown always does): far
longer than the runs a test makes before it waits for the fit, even on a loaded machine. The test's own waits
use it as their timeout too."""


@pytest.fixture
def pool(qapp: object) -> Iterator[QThreadPool]:
    pool = QThreadPool()
    yield pool
    pool.waitForDone()


@pytest.fixture
def abandoned_fit() -> Iterator[threading.Event]:
    """A model fit a cancel gave up (``wait_cancellably``), running until the test sets the returned Event."""
    let_go = threading.Event()

    def cancelled() -> None:
        raise DrawCancelled("cancelled by the test")

    with pytest.raises(DrawCancelled):
        wait_cancellably(lambda: let_go.wait(ABANDONED_FIT_SECONDS), cancelled)
    assert abandoned_work_running()
    yield let_go
    let_go.set()
    assert wait_for_abandoned_work(ABANDONED_FIT_SECONDS)
