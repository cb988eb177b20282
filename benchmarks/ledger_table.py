"""Ledger table benchmark: how long the Budget page takes to show and refresh a ledger of many entries.

A temporary DPGUI_HOME; the demo dataset opened in the main window (offscreen, 1200 x 800) and given a
total; its ledger filled through the ledger's API with committed releases of ε = 0.01 each. For each size:
entering the Budget page from the Data page, and a refresh of its ledger views (``refresh_budget``: the
table with the Ledger-table tab shown, the timeline's spend composed only when its tab is shown), each until
the events it posted are handled; then showing the Timeline tab, whose cumulative spend composes every
prefix of the ledger.

Run: QT_QPA_PLATFORM=offscreen python benchmarks/ledger_table.py [--sizes 100 1000 5000]
Writes benchmarks/ledger_table.md (keeping its "## Reading" part).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from reading import machine_line, write_output

OUT = Path(__file__).with_suffix(".md")
EACH = 0.01


def milliseconds(action: Callable[[], None]) -> float:
    """Wall milliseconds of ``action`` and of handling the events it posted."""
    from PySide6.QtWidgets import QApplication

    started = time.perf_counter()
    action()
    QApplication.processEvents()
    return (time.perf_counter() - started) * 1000


def measure(sizes: list[int]) -> list[str]:
    from dpgui.paths import demo_private_path
    from dpgui.privacy.cost import PrivacyCost
    from dpgui.privacy.ledger import ReservationRequest
    from dpgui.ui.app import application
    from dpgui.ui.main_window import BUDGET, DATA, MainWindow

    application()
    window = MainWindow()
    window.resize(1200, 800)
    window.show()
    window.load_private(demo_private_path())
    assert window.record is not None
    ledger, dataset_id = window.ledger, window.record.id
    ledger.set_total(dataset_id, PrivacyCost(1e6))
    page = window.budget_page
    rows, booked = [], 0
    for size in sizes:
        requests = [
            ReservationRequest(PrivacyCost(EACH), f"median of wage, run {i}") for i in range(booked, size)
        ]
        for reservation in ledger.reserve_all(dataset_id, requests):
            ledger.commit(reservation)
        booked = size
        page.ledger_tabs.setCurrentWidget(page.ledger_table)
        milliseconds(lambda: window.go_to(DATA))
        show = milliseconds(lambda: window.go_to(BUDGET))
        refresh = milliseconds(window.refresh_budget)
        timeline = milliseconds(lambda: page.ledger_tabs.setCurrentWidget(page.timeline))
        rows.append(f"| {size:,} | {show:.0f} | {refresh:.0f} | {timeline:.0f} |")
        print(rows[-1], flush=True)
    window.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["DPGUI_HOME"] = home
        rows = measure(sorted(args.sizes))
    lines = [
        "# The Budget page with a long ledger",
        "",
        f"{machine_line()} The demo dataset in the main window (offscreen, 1200 x "
        f"800), its ledger filled with committed releases of ε = {EACH:g}, no δ.",
        "",
        "| ledger entries | show the Budget page ms | refresh its ledger ms | show the Timeline tab ms |",
        "|---|---|---|---|",
        *rows,
        "",
    ]
    write_output(OUT, lines)


if __name__ == "__main__":
    main()
