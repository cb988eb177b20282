"""Writing to a standard output that may be closed or full, without importing the rest of dpgui."""

from __future__ import annotations

import csv
import os
import sys
from collections.abc import Iterable


def silence_stdout() -> None:
    """Point stdout at the null device, so that the interpreter's final flush to a closed pipe is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass


def print_version(text: str) -> int:
    """``dpgui --version``'s line and exit status: 0 when stdout is closed (as every command), 2 with one
    line on stderr when it cannot be written (a full disk); it ran outside the guarded path and printed a
    traceback for both (a CLI fuzz)."""
    try:
        print(text, flush=True)
    except BrokenPipeError:
        silence_stdout()
    except OSError as error:
        silence_stdout()
        print(f"dpgui: error: cannot write to standard output: {error.strerror or error}", file=sys.stderr)
        return 2
    return 0


def print_csv_rows(rows: Iterable[Iterable[object]]) -> None:
    """Rows to stdout as CSV, quoted where a cell holds a comma, a quote or a line break (a column or
    category name may), so that the output parses as the files a release writes."""
    csv.writer(sys.stdout, lineterminator="\n").writerows(rows)
