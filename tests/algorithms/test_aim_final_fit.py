"""AIM's final estimate keeps to the time limit and to Finish now: after its first refit it skips the rest
(FINAL_FIT_FACTOR refits of FIT_ITERS otherwise). On a 50k x 20 table one final fit of 2,000 iterations
over the model a last round's batch had grown ran 70 s past a 100 s limit."""

from __future__ import annotations

import pytest

from dpgui.algorithms import marginal_table as mt
from dpgui.algorithms import pgm
from dpgui.algorithms.progress import FINISH_NOW, Progress, run_to_end
from dpgui.privacy.random import SeededRandom
from tests.algorithms.test_marginal_table import TickingClock, _data, _marginals


def _final_refits(monkeypatch, finish_now: bool = False, **limits) -> list[int]:
    """Iterations of each fit made after AIM's last round (the final estimate)."""
    fits: list[int] = []
    real = pgm.GraphicalModel.fit

    def counted(self, measurements, total, iters):
        fits.append(iters)
        return real(self, measurements, total, iters)

    monkeypatch.setattr(pgm.GraphicalModel, "fit", counted)
    rows, sizes = _data()
    run = mt.aim_table(sizes, _marginals(rows, sizes), len(rows), 0.2, 500, SeededRandom(4), **limits)
    after_rounds = 0

    def count_rounds(step: Progress) -> str | None:
        nonlocal after_rounds
        if isinstance(step.partial, mt.AimRound):
            after_rounds = len(fits)
        return FINISH_NOW if finish_now and step.partial is not None else None

    run_to_end(run, count_rounds)
    return fits[after_rounds:]


def test_without_a_limit_the_final_estimate_takes_all_its_refits(monkeypatch):
    assert _final_refits(monkeypatch) == [mt.FIT_ITERS] * mt.FINAL_FIT_FACTOR
    generous = _final_refits(monkeypatch, time_limit=1e9, clock=TickingClock(1))
    assert generous == [mt.FIT_ITERS] * mt.FINAL_FIT_FACTOR


@pytest.mark.parametrize(
    "how", [{"time_limit": 12.0, "clock": TickingClock(5)}, {"finish_now": True, "clock": lambda: 0.0}]
)
def test_past_the_time_limit_or_after_finish_now_the_final_estimate_stops_after_one_refit(monkeypatch, how):
    """Each clock read moves 5 s from the start at 5 s: round 2 ends at 25 s, past the 12 s limit, so the
    final estimate refits once (at 30 s) and stops (at 35 s)."""
    assert mt.FINAL_FIT_FACTOR > 1
    assert _final_refits(monkeypatch, **how) == [mt.FIT_ITERS]
