"""The generic generator worker: progress, outcome, failure and the cooperative cancel."""

from __future__ import annotations

import sys
from collections.abc import Generator

import pytest
from PySide6.QtCore import QThreadPool

from dpgui.algorithms.progress import Progress
from dpgui.jobs.worker import GUI_SWITCH_INTERVAL, Cancelled, GeneratorWorker


def three_steps(log: list[str]) -> Generator[Progress, None, int]:
    log.append("started")
    yield Progress(0.25, "one")
    yield Progress(0.5, "two", partial="half")
    yield Progress(1.0, "three")
    return 42


def test_emits_progress_partials_and_the_return_value(qtbot, pool: QThreadPool):
    worker = GeneratorWorker(three_steps([]))
    steps: list[tuple[float, str]] = []
    partials: list[object] = []
    worker.signals.progress.connect(lambda fraction, message: steps.append((fraction, message)))
    worker.signals.partial.connect(partials.append)
    with qtbot.waitSignal(worker.signals.finished, timeout=5000) as finished:
        worker.start(pool)
    assert finished.args == [42]
    assert steps == [(0.25, "one"), (0.5, "two"), (1.0, "three")]
    assert partials == ["half"]


def test_an_exception_is_reported_through_failed(qtbot, pool: QThreadPool):
    def broken() -> Generator[Progress, None, None]:
        yield Progress(0.1, "about to fail")
        raise ValueError("boom")

    worker = GeneratorWorker(broken())
    with qtbot.waitSignal(worker.signals.failed, timeout=5000) as failed:
        worker.start(pool)
    assert isinstance(failed.args[0], ValueError)


def test_a_cancel_before_the_start_never_runs_the_generator(qtbot, pool: QThreadPool):
    log: list[str] = []
    worker = GeneratorWorker(three_steps(log))
    worker.cancel()
    with qtbot.waitSignal(worker.signals.failed, timeout=5000) as failed:
        worker.start(pool)
    assert isinstance(failed.args[0], Cancelled)
    assert worker.is_cancelled()
    assert log == []


def test_starting_a_worker_shortens_the_gil_switch_interval_for_the_gui_thread(qtbot, pool: QThreadPool):
    original = sys.getswitchinterval()
    sys.setswitchinterval(0.005)  # Python's default
    try:
        worker = GeneratorWorker(three_steps([]))
        with qtbot.waitSignal(worker.signals.finished, timeout=5000):
            worker.start(pool)
        assert sys.getswitchinterval() == pytest.approx(GUI_SWITCH_INTERVAL)
    finally:
        sys.setswitchinterval(original)


def test_finish_now_is_sent_into_the_run_once_at_its_next_step(qtbot, pool: QThreadPool):
    """Finish now reaches the generator as FINISH_NOW, exactly once, and never before it has started (a
    just-started generator cannot take a value); every other step gets None, as next() would send."""
    from dpgui.algorithms.progress import FINISH_NOW

    received: list[object] = []
    holder: list[GeneratorWorker] = []

    def listening() -> Generator[Progress, object, int]:
        holder[0].finish_now()  # asked before the first step has been yielded
        for i in range(4):
            received.append((yield Progress(i / 4, f"step {i}")))
        return len(received)

    worker = GeneratorWorker(listening())
    holder.append(worker)
    with qtbot.waitSignal(worker.signals.finished, timeout=5000) as finished:
        worker.start(pool)
    assert finished.args == [4]
    assert received == [FINISH_NOW, None, None, None]
