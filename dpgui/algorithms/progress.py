"""What an algorithm yields while it runs, for progress bars and live plots."""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class Progress:
    """One step of a running algorithm.

    ``partial`` carries something a plot can draw (a frozen dataclass of the algorithm's module). It must
    hold only DP outputs already produced by the run or public quantities, never raw private statistics.
    """

    fraction: float
    message: str
    partial: object | None = None


AlgorithmRun = Generator[Progress, object, T]
"""An algorithm as a generator of its steps. A caller may ``send`` FINISH_NOW into it instead of calling
``next``: a run that can end early (AIM's rounds) makes its next round the last; the others ignore it."""

FINISH_NOW = "finish now"
"""The request to end a run early without losing its result (the app's Finish now button)."""


def map_steps(
    run: AlgorithmRun[T], transform: Callable[[Progress], Progress], pending: object = None
) -> AlgorithmRun[T]:
    """``run`` with each step passed through ``transform`` (a name, a share of a plan); a value sent in
    (FINISH_NOW) reaches ``run``, and closing this closes ``run``. Its result is ``run``'s.

    ``pending``: a request that arrived before ``run`` started (a started generator is the only kind that
    takes one), sent in at its first step unless another value is."""
    request: object = None
    try:
        while True:
            try:
                step = run.send(request)
            except StopIteration as stop:
                return stop.value
            request = yield transform(step)
            request, pending = (pending if request is None else request), None
    finally:
        run.close()


def run_to_end(run: AlgorithmRun[T], report: Callable[[Progress], object] | None = None) -> T:
    """Drive an algorithm generator to its end, handing each step to ``report`` (default: dropping the
    progress), and return its result. What ``report`` returns is sent into the run: FINISH_NOW asks it to
    end early (AIM after the step it was shown), None lets it go on."""
    request: object = None
    while True:
        try:
            step = run.send(request)
        except StopIteration as stop:
            return stop.value
        request = None if report is None else report(step)
