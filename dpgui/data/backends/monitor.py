"""Forwarding a scanning aggregator's progress and cancel checks to whichever run is using it now.

A scanning engine (embedded, Spark) takes its ``progress`` and ``cancelled`` callbacks when it is opened,
but one opened file serves many runs (the opening row count, then each release). A :class:`ScanMonitor`
is what the engine is given; each run then :meth:`~ScanMonitor.watch`\\ es it with its own callbacks.
"""

from __future__ import annotations

from collections.abc import Callable


def _ignore(fraction: float) -> None:
    """No run is watching: progress goes nowhere."""


def _never() -> bool:
    return False


class ScanMonitor:
    """``progress(fraction)`` and ``cancelled()`` for an engine, delegated to the run watching it."""

    def __init__(self) -> None:
        self._progress: Callable[[float], None] = _ignore
        self._cancelled: Callable[[], bool] = _never

    def watch(self, progress: Callable[[float], None], cancelled: Callable[[], bool]) -> None:
        """Send the engine's reports to ``progress`` and ask ``cancelled`` between its batches."""
        self._progress, self._cancelled = progress, cancelled

    def progress(self, fraction: float) -> None:
        self._progress(fraction)

    def cancelled(self) -> bool:
        return self._cancelled()
