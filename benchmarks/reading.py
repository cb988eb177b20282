"""The hand-written reading of a benchmark's output file, which a rerun keeps below its regenerated tables."""

from __future__ import annotations

import datetime
import os
import platform
from collections.abc import Sequence
from pathlib import Path

READING = "## Reading"
"""The heading the hand-written part of an output file starts at."""


def kept_reading(path: Path) -> str:
    """The part of an earlier output from its "## Reading" heading on ("" when there is none)."""
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    start = text.find(READING)
    return text[start:] if start >= 0 else ""


def machine_line() -> str:
    """The date, the machine and its load at the end of the run, as an output's first sentence."""
    load = os.getloadavg()[0]
    return (
        f"{datetime.date.today()}, {platform.machine()}, {os.cpu_count()} cores (load average {load:.1f} at "
        "the end: other jobs shared the machine)."
    )


def write_output(path: Path, lines: Sequence[str]) -> None:
    """Write the regenerated ``lines`` above the kept reading of ``path``'s earlier output, and print them."""
    reading = kept_reading(path)
    path.write_text("\n".join(lines) + ("\n" + reading if reading else ""), encoding="utf-8")
    print("\n".join(lines))
