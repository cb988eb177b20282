"""AIM's final estimate is one warm-started refit of FIT_ITERS after the last round, with
or without a time limit or Finish now; the time limit keeps room for it as for one more round. Four
refits (2,000 iterations) were no more accurate and took about 45 s of a 180 s run at epsilon 3."""

from __future__ import annotations

import pytest

from dpgui.algorithms import marginal_table as mt
from dpgui.algorithms import pgm
from dpgui.algorithms.progress import FINISH_NOW, Progress, run_to_end
from dpgui.privacy.random import SeededRandom
from tests.algorithms.test_marginal_table import TickingClock, _data, _marginals


def _counted_fits(monkeypatch) -> list[int]:
    """The iterations of every model fit from now on, in order (the list fills as the fits run)."""
    fits: list[int] = []
    real = pgm.GraphicalModel.fit

    def counted(self, measurements, total, iters, checkpoint=None):
        fits.append(iters)
        return real(self, measurements, total, iters, checkpoint)

    monkeypatch.setattr(pgm.GraphicalModel, "fit", counted)
    return fits


def _final_refits(monkeypatch, finish_now: bool = False, **limits) -> list[int]:
    """Iterations of each fit made after AIM's last round (the final estimate)."""
    fits = _counted_fits(monkeypatch)
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


@pytest.mark.parametrize(
    "how",
    [
        {},
        {"time_limit": 1e9, "clock": TickingClock(1)},
        {"time_limit": 12.0, "clock": TickingClock(5)},
        {"finish_now": True, "clock": lambda: 0.0},
    ],
    ids=["no limit", "limit far off", "past the limit", "finish now"],
)
def test_the_final_estimate_is_one_refit_whatever_ended_the_rounds(monkeypatch, how):
    assert _final_refits(monkeypatch, **how) == [mt.FIT_ITERS]


def test_mst_fits_once_with_its_own_iterations(monkeypatch):
    fits = _counted_fits(monkeypatch)
    rows, sizes = _data()
    run_to_end(mt.mst_table(sizes, _marginals(rows, sizes), len(rows), 0.2, 500, SeededRandom(4)))
    assert fits[-1] == mt.MST_FIT_ITERS == 2000
