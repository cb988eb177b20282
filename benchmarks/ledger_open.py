"""How long the GUI thread is held up when the app opens a file whose ledger record holds many releases.

The window shows the file's spent budget as soon as it is opened. Composing a long ledger's releases (the
PLD accountant folds one release at a time) takes about a second at 1,000 releases of mixed kinds, plus
dp-accounting's import the first time. The open's worker composes it ahead
(``dpgui.jobs.open_job.compose_budget_ahead``), so the window reads it from the accountant's cache. Each
run is a fresh process (the accountant's cache and dp-accounting's import start empty), opening a small
CSV from the main window (offscreen) with the in-memory engine while a GUI-thread timer ticks every 10 ms,
until the budget is shown; "not ahead" replaces ``compose_budget_ahead`` by a no-op in the same script, so
the window composes on the GUI thread as it did before (session 28).

Run: QT_QPA_PLATFORM=offscreen python benchmarks/ledger_open.py [--releases 1000] [--runs 3]
Writes benchmarks/ledger_open.md (keeping its "## Reading" part).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
from reading import machine_line, write_output

OUT = Path(__file__).with_suffix(".md")
TICK_MS = 10


def build_ledger(folder: Path, releases: int) -> Path:
    """A CSV and a ledger in DPGUI_HOME where it has a total with delta and ``releases`` releases: tree CDFs
    with their discrete Laplace noise (a PLD) alternating with medians booked as (epsilon, delta)."""
    import pandas as pd

    from dpgui.data.fingerprint import sha256_file
    from dpgui.privacy.cost import PrivacyCost
    from dpgui.privacy.curve import NoiseKind, NoiseRounds, PrivacyCurve
    from dpgui.privacy.ledger import Ledger

    private = folder / "data.csv"
    pd.DataFrame({"value": np.arange(1000) % 97}).to_csv(private, index=False)
    ledger = Ledger()
    record = ledger.open_dataset(private, sha256_file(private))
    ledger.set_total(record.id, PrivacyCost(50.0, 1e-5))
    for i in range(releases):
        if i % 2:
            curve = PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 200.0 + i % 7, 1, 2),))
            reservation = ledger.reserve(record.id, PrivacyCost(0.01), f"cdf {i}", curve=curve)
        else:
            reservation = ledger.reserve(record.id, PrivacyCost(0.01, 1e-9), f"median {i}")
        ledger.commit(reservation, f"release {i}")
    return private


def one_open(private: Path, ahead: bool) -> dict[str, float]:
    """Open ``private`` from the main window; the GUI-thread gaps until its budget is shown, and seconds."""
    from PySide6.QtCore import QElapsedTimer, QTimer

    from dpgui.data.backends import Engine
    from dpgui.jobs import open_job
    from dpgui.privacy.accountant import preload_in_background
    from dpgui.ui.app import application
    from dpgui.ui.main_window import MainWindow

    if not ahead:
        open_job.compose_budget_ahead = lambda ledger, opened: None
    app = application()
    preload_in_background()  # as the app does at start-up
    window = MainWindow()
    window.show()
    window.data_page.select_engine(Engine.MEMORY)
    ticks: list[int] = []
    clock = QElapsedTimer()
    timer = QTimer()
    timer.setInterval(TICK_MS)
    timer.timeout.connect(lambda: ticks.append(clock.elapsed()))
    clock.start()
    started = time.perf_counter()
    timer.start()
    window.open_private(window.data_page.request(str(private)))
    while window.open_job is not None or window.record is None:
        app.processEvents()
        time.sleep(0.001)
    shown = clock.elapsed()
    seconds = time.perf_counter() - started
    timer.stop()
    window.close()
    gaps = np.diff([0, *ticks, shown])  # the timer starts with the clock
    return {"seconds": seconds, "worst_gap_ms": float(gaps.max()), "median_gap_ms": float(np.median(gaps))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--releases", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--worker", nargs=2, metavar=("FILE", "AHEAD"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(one_open(Path(args.worker[0]), args.worker[1] == "ahead")))
        return
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        os.environ["DPGUI_HOME"] = str(Path(folder) / "home")
        private = build_ledger(Path(folder), args.releases)
        for run in range(1, args.runs + 1):
            for mode in ("ahead", "not ahead"):
                command = [sys.executable, __file__, "--worker", str(private), mode.replace(" ", "-")]
                worker = subprocess.run(command, capture_output=True, text=True)
                if worker.returncode:
                    raise SystemExit(worker.stderr)
                result = json.loads(worker.stdout)
                rows.append(
                    f"| {run} | {mode} | {result['seconds']:.2f} | {result['median_gap_ms']:.0f} | "
                    f"{result['worst_gap_ms']:.0f} |"
                )
                print(rows[-1], flush=True)
    lines = [
        "# Opening a file whose ledger holds many releases",
        "",
        f"{machine_line()} {args.releases:,} releases (tree CDFs with their noise's PLD alternating with "
        "medians booked as (ε, δ)); a total with δ = 1e-5, so the PLD accountant composes them. A fresh "
        f"process per open; a GUI-thread timer ticks every {TICK_MS} ms from the open until the budget is "
        "shown. 'ahead': the open's worker composes the budget; 'not ahead': the window does, on the GUI "
        "thread.",
        "",
        "| run | budget composed | seconds from open to budget shown | median gap ms | worst gap ms |",
        "|---|---|---|---|---|",
        *rows,
        "",
    ]
    write_output(OUT, lines)


if __name__ == "__main__":
    main()
