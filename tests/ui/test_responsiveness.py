"""The GUI thread stays responsive while a long release runs in the worker (no gap over 50 ms)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QElapsedTimer, QTimer

from dpgui.data import NumericDomain
from dpgui.ui.main_window import MainWindow
from tests.ui.test_main_window import pick_cdf, set_total

ROWS = 3_000_000
DOMAIN = NumericDomain(0, 2**16 - 1, 1)
TICK_MS = 10
MAX_GAP_MS = 50
MIN_RUN_S = 0.5


@pytest.fixture
def big_private(tmp_path: Path) -> Path:
    rng = np.random.default_rng(11)
    path = tmp_path / "big.parquet"
    pd.DataFrame({"value": rng.integers(0, 2**16, size=ROWS)}).to_parquet(path, index=False)
    return path


def worst_gap_during_a_release(qtbot, private: Path) -> tuple[float, float, int]:
    """Run one long CDF release; return (worst tick gap in ms, run seconds, number of gaps)."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    window.load_private(private)
    set_total(window, 10.0)
    pick_cdf(window, "value", DOMAIN, "tree-laplace")

    ticks: list[int] = []
    clock = QElapsedTimer()
    clock.start()
    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: ticks.append(clock.elapsed()))
    started = time.perf_counter()
    window.start_release()
    job = window.current_job
    assert job is not None
    timer.start()
    with qtbot.waitSignal(job.released, timeout=30_000):
        pass
    timer.stop()
    ran = time.perf_counter() - started
    gaps = np.diff(ticks[1:])  # the first tick may wait for the run's start-up
    return float(gaps.max()), ran, len(gaps)


def test_a_long_cdf_release_never_stalls_the_gui_thread_over_50_ms(qtbot, big_private: Path):
    """A stall the app causes shows on every run; another process loading this 2-core machine can delay
    one tick of one run, so a second run decides (its own stall must also stay under 50 ms)."""
    worst, ran, count = worst_gap_during_a_release(qtbot, big_private)
    assert ran >= MIN_RUN_S, f"the run took only {ran:.2f} s: make it longer"
    assert count > 0.5 * ran * 1000 / TICK_MS
    if worst >= MAX_GAP_MS:
        worst = min(worst, worst_gap_during_a_release(qtbot, big_private)[0])
    assert worst < MAX_GAP_MS, f"worst gap {worst} ms on two runs"
