"""The GUI thread stays free while a release runs: the algorithm's steps and reads run in a worker thread,
the GUI thread handles events while the worker is held, and progress reaches the GUI as queued signals.

Each test fails if the release ran on the GUI thread (``GeneratorWorker.start`` calling ``run`` directly).
How long the GUI thread waits between events during a long release is measured, not tested:
benchmarks/gui_responsiveness.py.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from dataclasses import dataclass, field

import pytest
from PySide6.QtCore import QTimer

from dpgui.algorithms.progress import Progress
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.jobs import release_job
from dpgui.jobs.release_job import ReleaseJob
from dpgui.ui.main_window import MainWindow
from tests.ui.test_main_window import pick_cdf, set_total

HOLD_SECONDS = 30
"""How long a held step waits to be let go: a bound for a broken test, never reached by a passing one."""
TICKS = 5
"""GUI-thread timer ticks the test waits for while the worker is held."""


@dataclass
class RecordedRun:
    """The threads a release's steps, data reads and progress slots ran in (``record_the_run``)."""

    steps: list[int] = field(default_factory=list)
    reads: list[int] = field(default_factory=list)
    step_messages: list[str] = field(default_factory=list)
    shown_messages: list[tuple[str, int]] = field(default_factory=list)
    hold_at_step: int | None = None
    held: threading.Event = field(default_factory=threading.Event)
    let_go: threading.Event = field(default_factory=threading.Event)


def record_the_run(monkeypatch: pytest.MonkeyPatch) -> RecordedRun:
    """Record the thread of every step of the next release's algorithm (where the worker resumes it) and of
    every read of the data in memory, and the messages its job's ``progress`` carries to the GUI (connected
    before the job starts); with ``hold_at_step`` set, that step waits for ``let_go``."""
    recorded = RecordedRun()
    run_algorithm = release_job.run_algorithm
    start = ReleaseJob.start

    def starting(job: ReleaseJob, *args, **kwargs) -> None:
        job.progress.connect(
            lambda _, message: recorded.shown_messages.append((message, threading.get_ident()))
        )
        start(job, *args, **kwargs)

    def recording(*args, **kwargs) -> Generator[Progress, object, object]:
        run = run_algorithm(*args, **kwargs)
        request: object = None
        while True:
            recorded.steps.append(threading.get_ident())
            if len(recorded.steps) == recorded.hold_at_step:
                recorded.held.set()
                recorded.let_go.wait(HOLD_SECONDS)
                recorded.held.clear()
            try:
                step = run.send(request)
            except StopIteration as stop:
                return stop.value
            recorded.step_messages.append(step.message)
            request = yield step

    def reading(method: Callable[..., object]) -> Callable[..., object]:
        def read(*args, **kwargs) -> object:
            recorded.reads.append(threading.get_ident())
            return method(*args, **kwargs)

        return read

    monkeypatch.setattr(release_job, "run_algorithm", recording)
    monkeypatch.setattr(ReleaseJob, "start", starting)
    for name in ("histogram", "sorted_distinct_counts"):
        monkeypatch.setattr(InMemoryAggregator, name, reading(getattr(InMemoryAggregator, name)))
    return recorded


def start_cdf_release(window: MainWindow) -> None:
    """A tree CDF of wage started from the Run page (its review already accepted)."""
    set_total(window, 10.0)
    pick_cdf(window, algorithm="tree-laplace")
    window.start_release()


def released(qtbot, window: MainWindow) -> None:
    """Wait until the window shows the release."""
    qtbot.waitUntil(lambda: window.release is not None, timeout=HOLD_SECONDS * 1000)


def test_every_step_and_read_of_a_release_runs_off_the_gui_thread(qtbot, window: MainWindow, monkeypatch):
    recorded = record_the_run(monkeypatch)
    gui = threading.get_ident()
    start_cdf_release(window)
    released(qtbot, window)
    assert len(recorded.steps) > 2 and recorded.reads  # the tree's levels, and the data read once
    assert gui not in recorded.steps + recorded.reads


def test_the_gui_thread_handles_events_while_the_worker_is_held(qtbot, window: MainWindow, monkeypatch):
    """A step held on an Event the test sets: a GUI-thread timer fires TICKS times meanwhile."""
    recorded = record_the_run(monkeypatch)
    recorded.hold_at_step = 2  # after the data was read and the first level was reported
    ticks: list[bool] = []
    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(lambda: ticks.append(recorded.held.is_set()))
    timer.start()
    start_cdf_release(window)
    qtbot.waitUntil(lambda: ticks.count(True) >= TICKS, timeout=HOLD_SECONDS * 1000)
    assert window.current_job is not None and window.run_page.cancel_button.isEnabled()
    recorded.let_go.set()
    released(qtbot, window)
    timer.stop()


def test_progress_reaches_the_gui_thread_as_queued_signals_in_order(qtbot, window: MainWindow, monkeypatch):
    """Every step's message is produced in the worker and reaches a slot in the GUI thread, in order: a
    signal crossing threads is a queued call (a direct one would run the slot in the worker's thread)."""
    recorded = record_the_run(monkeypatch)
    gui = threading.get_ident()
    start_cdf_release(window)
    released(qtbot, window)
    produced_in = set(recorded.steps)
    assert recorded.step_messages and gui not in produced_in
    assert recorded.shown_messages == [(message, gui) for message in recorded.step_messages]
