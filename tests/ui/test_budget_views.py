"""The Budget page's views: predicted error against ε, the simulation preview and the budget timeline."""

from __future__ import annotations

import math
import threading

import numpy as np
import pytest
from PySide6.QtWidgets import QWidget

from dpgui.data.domain import NumericDomain
from dpgui.paths import demo_private_path
from dpgui.planner.plan import error_curve, plan
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, ReservationStatus
from dpgui.tasks.spec import TaskKind
from dpgui.ui import error_curve_view
from dpgui.ui.budget_page import best_error
from dpgui.ui.budget_timeline import TimelinePoint, step_xy
from dpgui.ui.error_curve_view import ErrorCurveView, epsilon_grid
from dpgui.ui.main_window import BUDGET, MainWindow
from dpgui.ui.simulation_view import histogram
from tests.ui.conftest import WAGE_DOMAIN
from tests.ui.test_main_window import pick_cdf, run_and_wait, set_total
from tests.ui.test_session import build

WAIT_MS = 20_000


def shown(window: MainWindow, view: QWidget) -> QWidget:
    """Show the Budget page with ``view``'s tab current: its plot is made and drawn only while shown."""
    page = window.budget_page
    window.show()
    window.go_to(BUDGET)
    (page.ledger_tabs if view is page.timeline else page.planner_tabs).setCurrentWidget(view)
    assert view.isVisible()
    return view


def wait_for_curve(qtbot, view: ErrorCurveView) -> None:
    qtbot.waitUntil(lambda: not view.computing, timeout=WAIT_MS)


def assert_curves_are_error_curves(view: ErrorCurveView, window: MainWindow) -> list[str]:
    """Each drawn curve's data is error_curve's finite values; returns the legend."""
    spec, n = window.current_spec(), window.dataset.n_rows
    grid = epsilon_grid(spec.epsilon)
    expected = error_curve(spec, n, list(grid))
    assert list(view.curves) == [row.algorithm for row in plan(spec, n) if row.feasible]
    for name, item in view.curves.items():
        kept = [(eps, err) for eps, err in zip(grid, expected[name], strict=True) if math.isfinite(err)]
        np.testing.assert_allclose(item.xData, [eps for eps, _ in kept])
        np.testing.assert_allclose(item.yData, [err for _, err in kept])
    return [label.text for _, label in view.plot.getPlotItem().legend.items]


def test_the_curve_has_error_curves_values_for_each_feasible_algorithm(qtbot, window: MainWindow):
    view = shown(window, window.budget_page.curve)
    pick_cdf(window)
    wait_for_curve(qtbot, view)
    assert assert_curves_are_error_curves(view, window) == [
        "tree-laplace [pure]",
        "pap [pure]",
        "privtree [pure]",
        "dawa [pure]",
    ]
    assert view.log_y  # every error is positive: log-log
    best = best_error(plan(window.current_spec(), window.dataset.n_rows))
    assert best is not None
    wait_for_best(qtbot, view, best)

    window.budget_page.delta.setText("1e-6")  # the approximate-DP algorithms can run now
    window.budget_page.delta.editingFinished.emit()
    wait_for_curve(qtbot, view)
    assert assert_curves_are_error_curves(view, window) == [
        "tree-laplace [pure]",
        "tree-gaussian [approx]",
        "san-thresholds [approx]",
        "pap [pure]",
        "privtree [pure]",
        "dawa [pure]",
    ]


def wait_for_best(qtbot, view, best: float | None) -> None:
    """The best-error line follows the planner's rows, which the window computes in the thread pool."""
    assert best is not None
    qtbot.waitUntil(lambda: view.best_line.value() == pytest.approx(math.log10(best)), timeout=5000)


def test_the_epsilon_marker_follows_the_spin_box_without_recomputing_the_curve(qtbot, window: MainWindow):
    view = shown(window, window.budget_page.curve)
    pick_cdf(window)
    wait_for_curve(qtbot, view)
    computed = view.series
    for epsilon in (0.5, 2.0):
        window.budget_page.epsilon.setValue(epsilon)
        assert not view.computing and view.series is computed  # the curve does not depend on ε
        assert list(view.curves) == ["tree-laplace", "pap", "privtree", "dawa"]
        assert 10 ** view.epsilon_line.value() == pytest.approx(epsilon)
        wait_for_best(qtbot, view, best_error(plan(window.current_spec(), window.dataset.n_rows)))
    window.budget_page.epsilon.setValue(40.0)  # outside the plotted span: the grid widens to include it
    assert view.computing
    wait_for_curve(qtbot, view)
    assert max(view.curves["tree-laplace"].xData) == pytest.approx(80.0)


def test_the_curve_is_computed_in_the_pool_and_a_superseded_one_is_dropped(qtbot, window, monkeypatch):
    threads: list[str] = []
    computed = error_curve_view.curve_series

    def recording(*args):
        threads.append(threading.current_thread().name)
        return computed(*args)

    monkeypatch.setattr(error_curve_view, "curve_series", recording)
    view = shown(window, window.budget_page.curve)
    pick_cdf(window)
    assert view.computing and view.curves == {}  # nothing drawn in the GUI thread
    window.task_page.select_task(TaskKind.MEDIAN)  # supersedes the CDF curve
    wait_for_curve(qtbot, view)
    assert list(view.curves) == ["em"]
    assert threads and threading.main_thread().name not in threads


def test_a_hidden_view_computes_and_draws_nothing_until_it_is_shown(qtbot, window: MainWindow):
    page = window.budget_page
    pick_cdf(window)  # the window is not shown
    for view in (page.curve, page.simulation, page.timeline):
        assert view.plot is None
    assert not page.curve.computing and page.curve.curves == {}
    shown(window, page.curve)
    assert page.curve.computing and page.curve.plot is not None
    wait_for_curve(qtbot, page.curve)
    assert list(page.curve.curves) == ["tree-laplace", "pap", "privtree", "dawa"]
    assert page.timeline.plot is None  # its tab has not been shown


def test_simulate_draws_every_trial_on_the_public_sample_and_spends_nothing(qtbot, window: MainWindow):
    window.task_page.select_task(TaskKind.MEDIAN)
    window.task_page.select_columns(["education"])  # in years in both files (wage is weekly vs hourly)
    window.task_page.declare("education", NumericDomain(0, 20, 1, unit="years"))
    view = shown(window, window.budget_page.simulation)
    assert view.button.isEnabled()
    view.trials.setValue(30)
    view.button.click()
    assert view.running and not view.button.isEnabled()
    qtbot.waitUntil(lambda: view.simulation is not None, timeout=WAIT_MS)
    simulation = view.simulation
    assert sum(view.bars.yData) == 30 == len(simulation.errors)
    assert min(view.bars.xData) <= min(simulation.errors) and max(simulation.errors) <= max(view.bars.xData)
    assert [line.value() for line in view.quantile_lines] == [
        pytest.approx(simulation.quantile(0.5)),
        pytest.approx(simulation.quantile(0.95)),
    ]
    assert simulation.algorithm == "em"  # auto resolved by the planner
    assert "public sample cps1985.csv" in view.caption.text()
    assert "no budget spent; not the private data" in view.caption.text()
    assert window.ledger.entries(window.record.id) == []
    window.budget_page.epsilon.setValue(0.5)  # a new spec clears the stale simulation
    assert view.simulation is None and view.bars not in view.plot.getPlotItem().items


def test_auto_is_resolved_for_a_simulation_in_the_pool_not_on_the_gui_thread(
    qtbot, window: MainWindow, monkeypatch
):
    """Every spec change resolved auto on the GUI thread (its simulations: seconds for a fine CDF grid)."""
    import threading

    from dpgui.ui import simulation_view

    threads: list[bool] = []
    real = simulation_view.choose_auto

    def recording(spec, n, **kwargs):
        threads.append(threading.current_thread() is threading.main_thread())
        return real(spec, n, **kwargs)

    monkeypatch.setattr(simulation_view, "choose_auto", recording)
    pick_cdf(window)
    view = shown(window, window.budget_page.simulation)
    assert threads == [] and "auto's pick" in view.caption.text()
    view.trials.setValue(5)
    view.button.click()
    qtbot.waitUntil(lambda: view.simulation is not None, timeout=WAIT_MS)
    assert threads == [False] and view.simulation.algorithm != "auto"


def test_a_public_sample_on_another_scale_is_not_simulated_on(qtbot, window: MainWindow):
    """The demo's public wages are hourly, the declared grid weekly: the sample would be a few point masses
    in its first 1%, so the preview (like auto) simulates synthetic data and says why."""
    window.task_page.select_task(TaskKind.MEDIAN)
    view = shown(window, window.budget_page.simulation)
    view.trials.setValue(5)
    view.button.click()
    qtbot.waitUntil(lambda: view.simulation is not None, timeout=WAIT_MS)
    assert "synthetic normal data on the declared domain" in view.caption.text()
    assert "the public sample does not describe it" in view.caption.text()


def test_without_a_public_sample_the_simulation_uses_synthetic_data(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(demo_private_path())
    window.task_page.select_task(TaskKind.MEDIAN)
    window.task_page.select_columns(["wage"])
    window.task_page.declare("wage", WAGE_DOMAIN)
    view = shown(window, window.budget_page.simulation)
    view.trials.setValue(10)
    view.button.click()
    qtbot.waitUntil(lambda: view.simulation is not None, timeout=WAIT_MS)
    assert sum(view.bars.yData) == 10
    assert "synthetic normal data on the declared domain" in view.caption.text()


def test_equal_errors_make_one_bar_that_starts_at_them():
    counts, edges = histogram((0.0, 0.0, 0.0))
    assert counts.tolist() == [3] and edges[0] == 0.0 < edges[1]
    counts, edges = histogram((0.0, 0.5, 1.0))
    assert counts.sum() == 3 and (edges[0], edges[-1]) == (0.0, 1.0)


def test_simulation_is_off_with_a_reason_for_a_task_it_does_not_support(window: MainWindow):
    build(window, TaskKind.HISTOGRAM)
    view = shown(window, window.budget_page.simulation)
    assert not view.button.isEnabled()
    assert "No simulation for the histogram task" in view.caption.text()
    build(window, TaskKind.MEDIAN)
    assert view.button.isEnabled()


def test_the_timeline_counts_what_the_ledger_counts_as_spent(qtbot, window: MainWindow):
    window.task_page.select_task(TaskKind.MEDIAN)
    set_total(window, 3.0)
    run_and_wait(qtbot, window)
    window.budget_page.epsilon.setValue(0.5)
    run_and_wait(qtbot, window)
    ledger, record = window.ledger, window.record
    cancelled = ledger.reserve(record.id, PrivacyCost(0.25), "cancelled before reading the data")
    ledger.refund(cancelled)
    Ledger(ledger.path).reserve(record.id, PrivacyCost(0.125), "open in another process")
    window.refresh_budget()

    timeline = shown(window, window.budget_page.timeline)
    qtbot.waitUntil(lambda: timeline.composing.isHidden() and len(timeline.steps.yData) > 0)
    statuses = [entry.status for entry in ledger.entries(record.id)]
    assert statuses == [
        ReservationStatus.COMMITTED,
        ReservationStatus.COMMITTED,
        ReservationStatus.REFUNDED,
        ReservationStatus.UNRESOLVED,
    ]
    spent = ledger.state(record.id).spent.epsilon
    assert spent == pytest.approx(1.0 + 0.5 + 0.125)
    assert [point.epsilon for point in timeline.timeline] == pytest.approx([1.0, 1.5, 1.5, spent])
    assert [point.counted for point in timeline.timeline] == [True, True, False, True]
    assert timeline.steps.yData[-1] == pytest.approx(spent)
    assert max(timeline.steps.yData) == pytest.approx(spent)  # the refunded 0.25 never adds
    assert "cancelled before reading the data" in timeline.points.data["data"][2]
    assert timeline.total_line.value() == pytest.approx(3.0)


def test_the_staircase_rises_only_at_counted_entries():
    points = (TimelinePoint(10.0, 1.0, "a", True), TimelinePoint(20.0, 1.0, "b", False))
    xs, ys = step_xy(points, end=30.0)
    assert xs.tolist() == [10.0, 10.0, 10.0, 30.0] and ys.tolist() == [0.0, 0.0, 1.0, 1.0]
