"""Pins SanThresholds' curve to exactly what its longest run draws: c calls of 2 counts each (a curve with
more counts over-charges the ledger; test_curves already catches fewer)."""

from __future__ import annotations

import numpy as np

from dpgui.tasks.registry import get_algorithm
from tests.tasks.test_curves import _grid_run


def test_san_thresholds_curve_counts_are_exactly_two_per_call(monkeypatch) -> None:
    from dpgui.tasks.sanitize_papers import _thresholds_plan

    masses = np.zeros(2**16, dtype=np.int64)
    masses[np.arange(200) * 300 + 150] = 10**5
    spec, seen = _grid_run("san-thresholds", masses, monkeypatch, steer=10**9, alpha=0.5)
    plan = _thresholds_plan(spec)
    (counts,) = get_algorithm("san-thresholds").recorded_curve(spec).noise
    assert counts.count == 2 * plan.cap
    assert len(seen["counts"]) == counts.count
