"""Long work between draws under a run's cancel (``cancel_checkpoint``, ``wait_cancellably``)."""

from __future__ import annotations

import threading

import pytest

from dpgui.privacy.cancellable import CancellableRandom, DrawCancelled, cancel_checkpoint, wait_cancellably
from dpgui.privacy.random import SeededRandom


def test_only_a_cancellable_runs_randomness_gives_a_checkpoint_and_it_raises_once_cancelled():
    assert cancel_checkpoint(SeededRandom(1), "fitting") is None  # the work runs as it always did
    cancelled = threading.Event()
    checkpoint = cancel_checkpoint(CancellableRandom(SeededRandom(1), cancelled.is_set), "fitting the model")
    assert checkpoint is not None
    checkpoint()
    cancelled.set()
    with pytest.raises(DrawCancelled, match="while fitting the model"):
        checkpoint()


def test_work_waited_for_gives_its_result_or_its_own_error():
    assert wait_cancellably(lambda: 42, lambda: None) == 42

    def late() -> None:
        raise TimeoutError("the work's own")  # not read as the wait's poll running out

    with pytest.raises(TimeoutError, match="the work's own"):
        wait_cancellably(late, lambda: None)


def test_a_cancel_is_raised_while_the_work_still_runs():
    """The work would end (returning False) only after 30 s without ``release``: the cancel comes first."""
    release = threading.Event()
    with pytest.raises(DrawCancelled):
        wait_cancellably(lambda: release.wait(30), CancellableRandom(SeededRandom(1), lambda: True).check)
    release.set()  # the work's thread ends
