"""Pins found by planting errors in the progress helpers (tools/planted_errors.py, session 29).

No test held the inner run while closing the run ``map_steps`` made of it, so a ``map_steps`` that left the
inner run open (its ``finally`` blocks waiting for the garbage collector) passed.
"""

from __future__ import annotations

from collections.abc import Generator

from dpgui.algorithms.progress import Progress, map_steps


def test_closing_a_mapped_run_closes_the_run_inside_it() -> None:
    log: list[str] = []

    def inner() -> Generator[Progress, object, int]:
        try:
            yield Progress(0.5, "half")
            yield Progress(1.0, "done")
            return 1
        finally:
            log.append("closed")

    run = inner()
    mapped = map_steps(run, lambda step: step)
    next(mapped)
    mapped.close()
    assert log == ["closed"]
