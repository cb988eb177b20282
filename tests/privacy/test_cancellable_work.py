"""Long work between draws under a run's cancel (``cancel_checkpoint``, ``wait_cancellably``)."""

from __future__ import annotations

import subprocess
import sys
import threading

import pytest

from dpgui.privacy.cancellable import (
    CancellableRandom,
    DrawCancelled,
    abandoned_work_running,
    cancel_checkpoint,
    wait_cancellably,
    wait_for_abandoned_work,
)
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


def test_work_a_cancel_gave_up_is_counted_until_it_ends():
    let_go = threading.Event()

    def cancelled() -> None:
        raise DrawCancelled("cancelled by the test")

    assert wait_for_abandoned_work(30)  # an earlier test's given-up work has ended
    with pytest.raises(DrawCancelled):
        wait_cancellably(lambda: let_go.wait(30), cancelled)
    assert abandoned_work_running() and not wait_for_abandoned_work(0.0)
    let_go.set()
    assert wait_for_abandoned_work(30) and not abandoned_work_running()


EXIT_WITH_ABANDONED_WORK = """
import sys
from dpgui.privacy.cancellable import DrawCancelled, wait_cancellably

def work():
    sys.stdin.readline()  # held until the test writes a line
    print("work ended", flush=True)

def cancelled():
    raise DrawCancelled("cancelled")

try:
    wait_cancellably(work, cancelled)
except DrawCancelled:
    print("gave up", flush=True)
"""


def test_the_interpreter_exits_only_once_work_a_cancel_gave_up_has_ended():
    """No daemon thread: an exit (the app closed) while a given-up model fit still runs in JAX lets it end
    first rather than tear the interpreter down under it."""
    process = subprocess.Popen(
        [sys.executable, "-c", EXIT_WITH_ABANDONED_WORK],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert process.stdout is not None and process.stdin is not None
    assert process.stdout.readline() == "gave up\n"  # the main thread is done; the work still holds
    process.stdin.write("go\n")
    process.stdin.flush()
    assert process.stdout.read() == "work ended\n"
    assert process.wait(timeout=30) == 0
