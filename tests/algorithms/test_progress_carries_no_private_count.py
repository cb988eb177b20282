"""Progress messages of the exponential mechanism over ranks carry no statistic of the data.

Rule checked: live progress shows DP outputs and public facts only (docs/privacy.md: "Live plots during a
run show only DP outputs"; ``dpgui release`` prints a long run's steps on stderr and the app shows them on
the Run page). ``em_over_ranks`` said "sampling among N score pieces", N about twice the number of distinct
grid values of the private column: on cps1988 wages at granularity 0.01, "11785 score pieces" for 5,970
distinct values, a count without noise.
"""

from __future__ import annotations

import numpy as np

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.rank_scores import em_over_ranks, interior_point_score
from dpgui.privacy.random import SeededRandom


def messages(values: list[int]) -> list[str]:
    distinct, counts = np.unique(np.asarray(values, dtype=np.uint64), return_counts=True)
    shown: list[str] = []
    run = em_over_ranks(distinct, counts, 1000, interior_point_score(len(values)), 1.0, SeededRandom(0))
    run_to_end(run, lambda step: shown.append(step.message))
    return shown


def test_neighbouring_datasets_show_the_same_progress_messages():
    tied = [500] * 6  # one distinct value
    spread = [500] * 5 + [900]  # a neighbour: one record replaced, two distinct values
    assert messages(tied) == messages(spread)
