"""Collect cyclic garbage only in the GUI thread, between events (pyqtgraph's ``GarbageCollector``).

Python's automatic collector runs in whichever thread happens to allocate, at whatever point it allocates:

- inside a Qt call: the test suite froze when a collection started inside ``QObject::disconnect`` (PySide
  allocates there) and freed a PySide object whose destructor disconnected signals under the same Qt mutex;
- in a worker thread: it may destroy Qt objects away from their thread, and a full collection of a large
  heap holds the GIL for tens of milliseconds, stalling the GUI thread (benchmarks/gui_responsiveness.py).

pyqtgraph's collector disables the automatic one and collects from a GUI-thread timer, with the same
generation thresholds, where no Qt lock is held. It checks every 10 ms, so that a worker allocating fast
leaves little to collect per check (at 0.5 s, one check of generation 0 took 56 ms; a 65,536-row release
table alone is 65,536 tuples, about 20 ms), and the objects alive when it is installed (the imported
modules, the window) are frozen out of every later full collection.
"""

from __future__ import annotations

import gc

from pyqtgraph.util.garbage_collector import GarbageCollector

COLLECT_EVERY_S = 0.01
"""How often the GUI thread checks whether a generation is due for collection."""

_collector: GarbageCollector | None = None


def collect_garbage_in_the_gui_thread() -> None:
    """Install the GUI-thread collector once per process (call from the GUI thread, after QApplication)."""
    global _collector
    if _collector is None:
        gc.collect()
        gc.freeze()
        _collector = GarbageCollector(interval=COLLECT_EVERY_S)
