"""Run an algorithm generator in Qt's thread pool, reporting back through queued signals.

The generator runs in a pool thread; the signals are emitted from there and, because the
:class:`WorkerSignals` object lives in the GUI thread, are delivered to GUI-thread slots as queued calls.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Generator

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

from dpgui.algorithms.progress import FINISH_NOW, Progress

GUI_SWITCH_INTERVAL = 0.0005
"""Seconds a thread may keep the GIL while another waits for it. Python's default, 5 ms, lets a worker that
runs Python code hold up the GUI thread 5 ms at every Qt call (each releases and retakes the GIL), so a
slot of twenty calls could stall 100 ms; at 0.5 ms the worst gap stays a few tens of ms
(benchmarks/gui_responsiveness.md)."""


def keep_the_gui_thread_responsive() -> None:
    """Lower the interpreter's thread switch interval to :data:`GUI_SWITCH_INTERVAL` (never raise it)."""
    if sys.getswitchinterval() > GUI_SWITCH_INTERVAL:
        sys.setswitchinterval(GUI_SWITCH_INTERVAL)


class Cancelled(Exception):
    """The worker stopped the generator because a cancel was requested."""


class WorkerSignals(QObject):
    """What a :class:`GeneratorWorker` reports; create it (with the worker) in the GUI thread."""

    progress = Signal(float, str)
    """Fraction done in [0, 1] and a short message."""
    partial = Signal(object)
    """A step's ``partial`` payload, when it has one."""
    finished = Signal(object)
    """The generator's return value."""
    failed = Signal(object)
    """The exception that ended the run (a :class:`Cancelled` after a cancel)."""


class GeneratorWorker(QRunnable):
    """Drives a ``Generator[Progress, None, T]`` to its end in a pool thread.

    The cancel is cooperative: :meth:`cancel` sets an event that is checked before each step, so a step
    that is running completes first. Exactly one of ``finished`` and ``failed`` is emitted.
    """

    def __init__(self, generator: Generator[Progress, None, object]) -> None:
        super().__init__()
        self.setAutoDelete(False)  # Python keeps the worker alive; Qt must not delete it under us
        self.signals = WorkerSignals()
        self._generator = generator
        self._cancel = threading.Event()
        self._finish = threading.Event()

    def cancel(self) -> None:
        """Ask the run to stop before its next step (safe from any thread)."""
        self._cancel.set()

    def finish_now(self) -> None:
        """Ask the run to end early with its result (safe from any thread): FINISH_NOW is sent into the
        generator once, at its next step; a run that cannot end early ignores it."""
        self._finish.set()

    def is_cancelled(self) -> bool:
        return self._cancel.is_set()

    def start(self, pool: QThreadPool | None = None, priority: int = 0) -> None:
        """Queue the run on ``pool`` (default: the global pool), ahead of queued runs of lower priority."""
        keep_the_gui_thread_responsive()
        (pool or QThreadPool.globalInstance()).start(self, priority)

    def run(self) -> None:
        """Pool-thread entry point: step the generator, emitting progress, then the outcome."""
        started = sent = False  # a generator takes a request only once it has started
        try:
            while True:
                if self._cancel.is_set():
                    self._generator.close()
                    raise Cancelled("cancelled by the user")
                request = FINISH_NOW if started and not sent and self._finish.is_set() else None
                sent, started = sent or request is not None, True
                step = self._generator.send(request)
                self.signals.progress.emit(step.fraction, step.message)
                if step.partial is not None:
                    self.signals.partial.emit(step.partial)
        except StopIteration as stop:
            self.signals.finished.emit(stop.value)
        except Exception as error:
            self.signals.failed.emit(error)
