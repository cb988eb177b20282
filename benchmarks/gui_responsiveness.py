"""GUI responsiveness benchmark: how long the GUI thread waits between events while a long release runs.

The tests (tests/ui/test_responsiveness.py) check that a release's steps and reads run in a worker thread
and that the GUI thread handles events meanwhile; how long it may be held up (the worker's GIL share, the
interpreter's switch interval ``dpgui.jobs.worker.GUI_SWITCH_INTERVAL``, garbage collection in the GUI
thread ``dpgui.ui.garbage``) is a measurement of this machine, so it lives here. A tree CDF over 2^16 grid
points of 3,000,000 rows runs from the main window (offscreen) while a GUI-thread timer ticks every 10 ms;
a gap is the time between two ticks, from the second tick (the first may wait for the run's start-up) to
the moment the result reaches the GUI thread. Drawing the finished result is not part of the run.

Run: QT_QPA_PLATFORM=offscreen python benchmarks/gui_responsiveness.py [--runs 5] [--rows 3000000]
Writes benchmarks/gui_responsiveness.md (keeping its "## Reading" part).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from reading import machine_line, write_output

OUT = Path(__file__).with_suffix(".md")
DOMAIN_SIZE = 2**16
TICK_MS = 10


def gaps_of_one_release(private: Path) -> tuple[np.ndarray, float]:
    """The gaps (ms) between GUI-thread ticks during one tree-CDF release from the main window, and the run's
    seconds."""
    from PySide6.QtCore import QElapsedTimer, QTimer

    from dpgui.data import NumericDomain
    from dpgui.jobs.release_job import ReleaseJob
    from dpgui.privacy.cost import PrivacyCost
    from dpgui.tasks.spec import TaskKind
    from dpgui.ui.app import application
    from dpgui.ui.main_window import MainWindow

    app = application()
    window = MainWindow()
    window.show()
    window.load_private(private)
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(10.0))
    page = window.task_page
    page.select_task(TaskKind.CDF)
    page.select_columns(["value"])
    page.declare("value", NumericDomain(0, DOMAIN_SIZE - 1, 1))
    page.select_algorithm("tree-laplace")
    ticks: list[int] = []
    arrived: list[int] = []
    clock = QElapsedTimer()
    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: None if arrived else ticks.append(clock.elapsed()))
    show_result = ReleaseJob._on_finished

    def on_finished(job: ReleaseJob, table: object) -> None:
        arrived.append(clock.elapsed())
        show_result(job, table)

    ReleaseJob._on_finished = on_finished  # the moment the result reaches the GUI thread
    try:
        clock.start()
        started = time.perf_counter()
        window.start_release()
        timer.start()
        while window.current_job is not None:
            app.processEvents()
            time.sleep(0.001)
        seconds = time.perf_counter() - started
    finally:
        ReleaseJob._on_finished = show_result
        timer.stop()
        window.close()
    return np.diff([*ticks[1:], arrived[0]]), seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--rows", type=int, default=3_000_000)
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DPGUI_HOME"] = str(Path(folder) / "home")
        private = Path(folder) / "big.parquet"
        values = np.random.default_rng(11).integers(0, DOMAIN_SIZE, size=args.rows)
        pd.DataFrame({"value": values}).to_parquet(private, index=False)
        for run in range(1, args.runs + 1):
            gaps, seconds = gaps_of_one_release(private)
            rows.append(
                f"| {run} | {seconds:.2f} | {len(gaps)} | {np.median(gaps):.0f} | "
                f"{np.percentile(gaps, 99):.0f} | {gaps.max():.0f} |"
            )
            print(rows[-1], flush=True)
    lines = [
        "# GUI responsiveness during a long release",
        "",
        f"{machine_line()} A tree CDF (tree-laplace) over {DOMAIN_SIZE:,} grid "
        f"points of {args.rows:,} rows, run from the main window (offscreen); a GUI-thread timer ticks every "
        f"{TICK_MS} ms.",
        "",
        "| run | seconds from Run to result | gaps | median gap ms | 99th percentile ms | worst gap ms |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
    ]
    write_output(OUT, lines)


if __name__ == "__main__":
    main()
