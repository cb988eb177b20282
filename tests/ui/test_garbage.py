"""Cyclic garbage is collected in the GUI thread between events, never by a worker thread."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from dpgui.ui.main_window import MainWindow
from tests.ui.test_main_window import pick_cdf, run_and_wait, set_total


@pytest.fixture
def collecting_threads() -> Iterator[list[str]]:
    """The name of the thread in which each garbage collection of the test starts."""
    names: list[str] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            names.append(threading.current_thread().name)

    gc.callbacks.append(record)
    yield names
    gc.callbacks.remove(record)


def test_a_release_leaves_every_collection_to_the_gui_thread(
    qtbot, demo_window: MainWindow, collecting_threads: list[str]
):
    """An automatic collection could start in the worker (freeing Qt objects off their thread) or inside a
    Qt call on the GUI thread (the suite once froze in QObject::disconnect that way)."""
    window = demo_window
    assert not gc.isenabled()
    set_total(window, 10.0)
    pick_cdf(window, algorithm="tree-laplace")
    run_and_wait(qtbot, window)
    qtbot.waitUntil(lambda: len(collecting_threads) > 0, timeout=5_000)
    assert set(collecting_threads) == {threading.main_thread().name}
