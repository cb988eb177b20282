"""Pins expected_error's bookkeeping around the simulations (stubbed here): the value is the simulated mean
error itself at the full n, floored at one record's share, routed to
grid counts only above CALIBRATION_ROWS, and the grid limits are inclusive (2^16 bins = 2^16 + 1 points)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

import dpgui.tasks.simulation as simulation
from dpgui.data.domain import NumericDomain
from dpgui.tasks.spec import TaskKind, TaskSpec

SHAPE_ERRORS = {"normal": 0.1, "skewed": 0.4, "spiky": 0.1, "heaped": 0.4}


@pytest.fixture
def calls(monkeypatch):
    seen: list[tuple] = []

    def fake(route):
        def run(spec, rows, trials, seed=0, shape="normal"):
            seen.append((route, rows, trials, shape))
            return SimpleNamespace(errors=(seen_errors.get(shape, 0.3),))

        return run

    seen_errors: dict = dict(SHAPE_ERRORS)
    monkeypatch.setattr(simulation, "simulate", fake("rows"))
    monkeypatch.setattr(simulation, "simulate_counts", fake("counts"))
    return SimpleNamespace(seen=seen, errors=seen_errors)


def cdf(size: int, kind: TaskKind = TaskKind.CDF) -> TaskSpec:
    return TaskSpec(kind, ("wage",), (NumericDomain(0, size - 1, 1),), 1.0, 0.0, "tree-laplace")


@pytest.mark.parametrize("n", [1000, 20_000, 30_000])
def test_expected_error_is_the_geometric_mean_of_the_shapes(calls, n: int) -> None:
    value = simulation.expected_error(cdf(5001), n)
    assert value == pytest.approx(0.2, rel=1e-12)
    routes = {(route, rows) for route, rows, _, _ in calls.seen}
    assert routes == ({("counts", n)} if n > simulation.CALIBRATION_ROWS else {("rows", n)})
    assert simulation.CALIBRATION_ROWS == 20_000


def test_expected_error_floors_each_shape_at_one_record(calls) -> None:
    calls.errors.update({shape: 0.0 for shape in SHAPE_ERRORS})
    assert simulation.expected_error(cdf(5001), 1000) == pytest.approx(1 / 1000, rel=1e-12)


def test_a_public_sample_run_is_its_mean_error(calls, monkeypatch) -> None:
    monkeypatch.setattr(simulation, "simulates_public_sample", lambda spec: True)
    assert simulation.expected_error(cdf(5001), 1000) == pytest.approx(0.1, rel=1e-12)  # the "normal" default


def test_grid_limits_are_inclusive(calls) -> None:
    assert simulation.expected_error(cdf((1 << 16) + 1), 1000) is not None
    assert simulation.expected_error(cdf((1 << 16) + 2), 1000) is None
    assert simulation.expected_error(cdf(1 << 20, TaskKind.QUANTILES), 1000) is not None
    assert simulation.expected_error(cdf((1 << 20) + 1, TaskKind.QUANTILES), 1000) is None
    assert simulation.expected_error(cdf(5001), 1) is not None
