"""The GUI thread stays responsive while a long release runs in the worker (no gap over 50 ms)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QElapsedTimer, QTimer

from dpgui.data import NumericDomain
from dpgui.jobs.release_job import ReleaseJob
from dpgui.ui.main_window import MainWindow
from tests.ui.test_main_window import pick_cdf, set_total

ROWS = 3_000_000
DOMAIN = NumericDomain(0, 2**16 - 1, 1)
TICK_MS = 10
MAX_GAP_MS = 50
MIN_RUN_S = 0.2
RUNS = 3
SHOW_RESULT = ReleaseJob._on_finished
"""The job's slot that receives the run's result and shows it."""


@pytest.fixture
def big_private(tmp_path: Path) -> Path:
    rng = np.random.default_rng(11)
    path = tmp_path / "big.parquet"
    pd.DataFrame({"value": rng.integers(0, 2**16, size=ROWS)}).to_parquet(path, index=False)
    return path


def worst_gap_during_a_release(qtbot, private: Path, monkeypatch) -> tuple[float, float]:
    """Run one long CDF release; return (worst gap in ms between GUI-thread ticks, run seconds).

    The gaps run from the second tick (the first may wait for the run's start-up) to the moment the result
    reaches the GUI thread, so a stall at any point of the run counts, and a timer that never ran fails.
    Drawing the finished result on Review is not part of the run.
    """
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.load_private(private)
    set_total(window, 10.0)
    pick_cdf(window, "value", DOMAIN, "tree-laplace")

    ticks: list[int] = []
    result_arrived: list[int] = []
    clock = QElapsedTimer()
    clock.start()

    def arrived(job: ReleaseJob, table: object) -> None:
        result_arrived.append(clock.elapsed())
        SHOW_RESULT(job, table)

    monkeypatch.setattr(ReleaseJob, "_on_finished", arrived)
    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: None if result_arrived else ticks.append(clock.elapsed()))
    started = time.perf_counter()
    window.start_release()
    job = window.current_job
    assert job is not None
    timer.start()
    with qtbot.waitSignal(job.released, timeout=30_000):
        pass
    timer.stop()
    ran = time.perf_counter() - started
    gaps = np.diff([*ticks[1:], result_arrived[0]]) if len(ticks) >= 2 else [result_arrived[0]]
    return float(np.max(gaps)), ran


def test_a_long_cdf_release_never_stalls_the_gui_thread_over_50_ms(qtbot, big_private: Path, monkeypatch):
    """A stall the app causes shows on every run; another process loading this 2-core machine can delay
    a tick of one run, so the best of up to :data:`RUNS` runs decides."""
    worsts: list[float] = []
    while len(worsts) < RUNS and min(worsts, default=MAX_GAP_MS) >= MAX_GAP_MS:
        worst, ran = worst_gap_during_a_release(qtbot, big_private, monkeypatch)
        assert ran >= MIN_RUN_S, f"the run took only {ran:.2f} s: make it longer"
        worsts.append(worst)
    assert min(worsts) < MAX_GAP_MS, f"worst gaps {worsts} ms"
