"""The Run page's live views: each partial type is drawn from exactly what it carries."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.approximate_quantiles import QuantilesSoFar
from dpgui.algorithms.heavypaths import HeavyPathsStep
from dpgui.algorithms.recconcave import RecConcaveStep
from dpgui.algorithms.rectangles import BoxStep
from dpgui.algorithms.san_points import PointFrequencies
from dpgui.algorithms.tree_cdf import CdfSoFar
from dpgui.algorithms.treelog import TreeLogStep
from dpgui.data import NumericDomain
from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import MainWindow
from dpgui.ui.run_page import RunPage
from tests.ui.test_main_window import run_and_wait, set_total

DOMAIN = NumericDomain(0, 100, 10)


@pytest.fixture
def page(qtbot) -> RunPage:
    page = RunPage()
    qtbot.addWidget(page)
    page.prepare("a run", (DOMAIN,))
    return page


def drawn(page: RunPage) -> tuple[list[float], list[float]]:
    x, y = page.curve.getData()
    return ([] if x is None else x.tolist()), ([] if y is None else y.tolist())


def test_a_new_run_starts_with_an_empty_hidden_plot(page: RunPage):
    assert not page.plot.isVisibleTo(page)
    assert drawn(page) == ([], []) and page.plot.marker_positions() == []


def test_the_cdf_so_far_is_a_step_curve_over_the_grid(page: RunPage):
    page.show_partial(CdfSoFar(1, np.array([4, 10], dtype=np.uint64), np.array([0.25, 1.0])))
    assert drawn(page) == ([40.0, 100.0], [0.25, 1.0])
    assert page.plot.isVisibleTo(page)
    assert page.plot.getAxis("left").labelText == "P[X ≤ value]"


def test_quantiles_so_far_are_vertical_lines_on_the_domain(page: RunPage):
    page.show_partial(QuantilesSoFar((0.5,), (5,)))
    page.show_partial(QuantilesSoFar((0.1, 0.5), (1, 5)))
    assert page.plot.marker_positions() == [10.0, 50.0]
    assert [line.label.format for line in page.plot.markers] == ["q=0.1", "q=0.5"]
    assert not page.plot.getAxis("left").isVisible()  # no CDF axis for quantile lines
    assert drawn(page) == ([], [])


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        ([RecConcaveStep(1, 1023, None), RecConcaveStep(2, 9, None)], ([1.0, 2.0], [10.0, math.log2(10)])),
        ([TreeLogStep(0, 32, 500), TreeLogStep(1, 5, 400)], ([0.0, 1.0], [32.0, 5.0])),
        (
            [HeavyPathsStep("stopping point", 0, 32), HeavyPathsStep("level up", 3, 4)],
            ([0.0, 3.0], [32.0, 4.0]),
        ),
    ],
)
def test_recursion_steps_plot_the_level_against_the_log_domain_size(page: RunPage, steps, expected):
    for step in steps:
        page.show_partial(step)
    assert drawn(page) == expected
    assert page.plot.getAxis("left").labelText == "log₂ of the domain size"
    assert page.plot.getAxis("bottom").labelText == "recursion level"


def test_box_edges_are_one_segment_per_axis_as_fractions_of_their_domain(qtbot):
    page = RunPage()
    qtbot.addWidget(page)
    page.prepare("a box", (DOMAIN, NumericDomain(0, 20, 1)))
    page.show_partial(BoxStep(0, (2, 8)))
    page.show_partial(BoxStep(1, (5, 15)))
    assert drawn(page) == ([0.2, 0.8, 0.25, 0.75], [1.0, 1.0, 2.0, 2.0])


def test_point_frequencies_are_stems_at_the_released_values(page: RunPage):
    page.show_partial(PointFrequencies((3, 7), (0.5, 0.25), 10))
    assert drawn(page) == ([30.0, 30.0, 70.0, 70.0], [0.0, 0.5, 0.0, 0.25])


def test_a_partial_without_a_view_draws_nothing(page: RunPage):
    page.show_partial("a message-only partial")
    assert drawn(page) == ([], []) and not page.plot.isVisibleTo(page)


def test_a_new_run_forgets_the_previous_view(page: RunPage):
    page.show_partial(CdfSoFar(1, np.array([4, 10], dtype=np.uint64), np.array([0.25, 1.0])))
    page.show_partial(QuantilesSoFar((0.5,), (5,)))
    page.prepare("another run", (DOMAIN,))
    page.show_partial(TreeLogStep(0, 7, 100))
    assert drawn(page) == ([0.0], [7.0]) and page.plot.marker_positions() == []


def test_a_quantiles_release_ends_with_lines_at_the_released_quantiles(qtbot, window: MainWindow):
    set_total(window, 5.0)
    page = window.task_page
    page.select_task(TaskKind.QUANTILES)
    page.select_columns(["wage"])
    page.declare("wage", NumericDomain(0, 20000, 10))
    page.select_algorithm("aq")
    page.parameters.set_values((("q", "0.1,0.5,0.9"),))
    run_and_wait(qtbot, window)
    assert window.release is not None
    released = [float(value) for _, value in window.release.table.rows]
    assert len(released) == 3
    assert sorted(window.run_page.plot.marker_positions()) == sorted(released)


def test_aim_rounds_plot_each_rounds_noise_and_name_the_marginal(page: RunPage):
    from dpgui.algorithms.marginal_table import AimRound

    page.show_partial(AimRound(1, (0, 1), (16, 16), 40.0, 0.12, "wage × age (16 × 16 bins)"))
    page.show_partial(AimRound(2, (0,), None, 20.0, 0.03, "wage"))
    assert drawn(page) == ([1.0, 2.0], [40.0, 20.0])
    labels = [line.label.format for line in page.plot.markers]
    assert labels == ["wage × age (16 × 16 bins): TV 0.12", "wage: TV 0.03"]


def test_a_long_aim_run_names_only_its_latest_rounds_and_spreads_its_round_ticks(page: RunPage):
    """80 rounds (AIM on 25 columns) drew 80 labelled lines over one another and a tick at every round."""
    from dpgui.algorithms.marginal_table import AimRound
    from dpgui.ui.live_views import LABELLED_ROUNDS, MAX_WHOLE_TICKS

    for t in range(1, 81):
        page.show_partial(AimRound(t, (0, 1), None, 100.0 / (1 + t // 30), 0.01, f"m{t}"))
    assert len(drawn(page)[0]) == 80
    assert page.plot.marker_positions() == [float(t) for t in range(81 - LABELLED_ROUNDS, 81)]
    assert [line.label.format for line in page.plot.markers][-1] == "m80: TV 0.01"
    spacing = page.plot.getAxis("bottom")._tickSpacing[0][0]
    assert spacing == 10 and 79 / spacing <= MAX_WHOLE_TICKS
