"""Distance releases in the window: the Review page's explorer (offline) and the Run page's online view."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox, QPushButton

from dpgui.algorithms.distance.cdf_route import STRUCTURE_FILE, DistanceStructure
from dpgui.algorithms.distance.huang_roth import OnlineAnswer
from dpgui.data.domain import NumericDomain
from dpgui.numbers import readable
from dpgui.paths import demo_public_path
from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import MainWindow
from dpgui.ui.online_view import UPDATE_BRUSH, OnlineView
from tests.ui.conftest import WAGE_DOMAIN
from tests.ui.test_main_window import review_shown, run_and_wait, set_total
from tests.ui.test_session import build

COLUMNS = ["education", "experience"]


@pytest.fixture
def window(demo_window: MainWindow, monkeypatch) -> MainWindow:
    monkeypatch.setattr(QMessageBox, "critical", lambda *args: pytest.fail(f"unexpected dialog {args}"))
    window = demo_window
    build(window, TaskKind.DISTANCE)
    set_total(window, 3.0)
    return window


def test_the_explorer_answers_a_clicked_point_from_the_released_structure(qtbot, window: MainWindow):
    window.task_page.select_algorithm("cdf-route")
    run_and_wait(qtbot, window)
    explorer = window.review_page.distance_explorer
    assert explorer.isVisibleTo(window) and not window.review_page.plot.isVisibleTo(window)
    (attachment,) = [a for a in window.release.table.attachments if a.file_name == STRUCTURE_FILE]
    structure = DistanceStructure.from_bytes(attachment.content)
    assert structure.in_data_units  # l1 without an embedding: every answer in the columns' units
    assert explorer.query((12, 20)) == structure.answer_in_data_units(np.array([[12, 20]]))[0]

    public = pd.read_csv(demo_public_path())[COLUMNS].to_numpy(dtype=np.float64)
    x, y = explorer.background.getData()
    assert np.array_equal(np.column_stack([x, y]), public)

    window.resize(1200, 800)
    window.show()  # a real click needs the plot's geometry
    plot = explorer.plot
    scene_point = plot.plotItem.vb.mapViewToScene(QPointF(12, 20))
    qtbot.mouseClick(plot.viewport(), Qt.MouseButton.LeftButton, pos=plot.mapFromScene(scene_point))
    assert explorer.picked == pytest.approx((12, 20), abs=0.5)  # within a pixel of the clicked point
    expected = structure.answer_in_data_units(np.array([explorer.picked]))[0]
    assert f"= {readable(expected)} (columns' units) (answered from the released structure; no budget" in (
        explorer.answer_label.text()
    )
    assert explorer.marker.getData()[0].tolist() == [explorer.picked[0]]
    assert list(window.review_page.plots()) == ["Average distance answered from the released structure"]


def three_column_structure(qtbot, window: MainWindow) -> DistanceStructure:
    """Release a CDF-route structure over education, experience and wage; return the released structure."""
    window.task_page.select_columns([*COLUMNS, "wage"])
    window.task_page.declare("wage", WAGE_DOMAIN)
    window.task_page.select_algorithm("cdf-route")
    run_and_wait(qtbot, window)
    return DistanceStructure.from_bytes(window.release.table.attachments[0].content)


def test_columns_beyond_the_plotted_two_are_fixed_at_editable_values(qtbot, window: MainWindow):
    structure = three_column_structure(qtbot, window)
    explorer = window.review_page.distance_explorer
    assert structure.columns == ("wage", *COLUMNS)  # the data's column order: experience is fixed
    (experience,) = explorer.fixed.values()
    assert list(explorer.fixed) == ["experience"] and experience.value() == 32.5  # the domain's middle
    assert explorer.query((600, 12)) == structure.answer_in_data_units(np.array([[600, 12, 32.5]]))[0]
    explorer.pick((600, 12))
    experience.setValue(20)
    expected = structure.answer_in_data_units(np.array([[600, 12, 20]]))[0]
    assert explorer.query((600, 12)) == expected
    assert f"from (600, 12, 20) = {readable(expected)}" in explorer.answer_label.text()


def test_the_explorer_answers_in_data_units_on_chosen_axes_typed_points_and_keeps_a_history(
    qtbot, window: MainWindow
):
    """Issue 15: answers in the columns' units (an l1 distance of wage dollars plus years), the plotted
    columns chosen, a typed point answered, and every point asked listed newest first."""
    structure = three_column_structure(qtbot, window)
    explorer = window.review_page.distance_explorer
    unit = structure.answer(np.array([[600, 12, 20]]))[0]
    data = structure.answer_in_data_units(np.array([[600, 12, 20]]))[0]
    assert data > 10 * unit  # wage's range is thousands of dollars: normalised answers are far smaller

    explorer.x_axis.setCurrentIndex(2)  # experience across, education up; wage is typed
    explorer.x_axis.activated.emit(2)
    assert explorer.axes == (2, 1) and list(explorer.fixed) == ["wage"]
    assert explorer.plot.plotItem.getAxis("bottom").labelText == "experience"
    explorer.coordinates["wage"].setValue(600)
    assert explorer.query((20, 12)) == pytest.approx(data)

    for name, value in zip(structure.columns, (900, 16, 5), strict=True):
        explorer.coordinates[name].setValue(value)
    typed = explorer.ask_typed()
    assert typed == structure.answer_in_data_units(np.array([[900, 16, 5]]))[0]
    explorer.pick((20, 12))
    rows = [
        (explorer.history.item(row, 0).text(), explorer.history.item(row, 1).text())
        for row in range(explorer.history.rowCount())
    ]
    assert rows == [("900, 12, 20", readable(explorer.query((20, 12)))), ("900, 16, 5", readable(typed))]

    assert explorer.colour_bar.isVisible() and "columns' units" in explorer.colour_bar.axis.labelText
    low, high = explorer.colour_bar.levels()
    assert low < typed < high
    assert "in the columns' units" in explorer.note.text()


def test_public_points_of_a_column_in_other_units_are_left_out_and_the_plot_says_why(
    qtbot, window: MainWindow
):
    """The demo's public wages are hourly (cps1985), the private ones weekly: on a wage axis every public
    point sat at wage ≈ 0, as if the public sample earned nothing. They are left out and the plot's title
    says why; on the other columns' axes they are drawn."""
    three_column_structure(qtbot, window)
    explorer = window.review_page.distance_explorer
    title = explorer.plot.plotItem.titleLabel
    assert explorer.axes == (0, 1)  # wage across, education up
    assert len(explorer.background.getData()[0]) == 0
    assert "public sample not drawn: its wage does not fit the declared range" in title.text

    explorer.x_axis.setCurrentIndex(2)  # experience across, education up
    explorer.x_axis.activated.emit(2)
    public = pd.read_csv(demo_public_path())[["experience", "education"]].to_numpy(dtype=np.float64)
    x, y = explorer.background.getData()
    assert np.array_equal(np.column_stack([x, y]), public)
    assert "not drawn" not in title.text


def test_the_online_session_draws_every_answer_as_it_is_released(
    qtbot, window: MainWindow, monkeypatch, tmp_path: Path
):
    queries = tmp_path / "queries.csv"
    grid = np.random.default_rng(1).integers([0, -5], [21, 71], size=(20, 2))
    pd.DataFrame(grid, columns=COLUMNS).to_csv(queries, index=False)
    window.task_page.select_algorithm("huang-roth-online")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(queries), ""))
    window.task_page.parameters.findChild(QPushButton, "queries-browse").click()
    assert window.task_page.parameters.editors["queries"].text() == str(queries)

    run_and_wait(qtbot, window)
    view = window.run_page.online_view
    x, y = view.answers()
    assert x.tolist() == list(range(20))
    assert y.tolist() == [float(v) for v in window.release.table.column("distance")]
    used, cap = re.search(r"(\d+) of (\d+) updates used", " ".join(window.release.table.notes)).groups()
    assert f"updates used {used} of {cap}" in view.status.text()
    red = [brush.color() == UPDATE_BRUSH.color() for brush in view.points.data["brush"]]
    assert sum(red) == int(used)
    assert not window.review_page.distance_explorer.isVisibleTo(window)  # no structure in this release


def test_online_answers_are_drawn_in_the_columns_unit_when_every_range_is_the_same(qtbot):
    view = OnlineView()
    qtbot.addWidget(view)
    answer = OnlineAnswer(0, (0.5, 0.5), 0.25, False, 0, False, 3)
    view.reset((NumericDomain(0, 40, 1, unit="hours"), NumericDomain(10, 50, 1, unit="hours")))
    view.add(answer)
    assert view.answers()[1].tolist() == [10.0]  # 0.25 of a side of 40 hours
    assert view.plot.getAxis("left").labelText == "average distance (hours)"
    view.reset((NumericDomain(0, 40, 1), NumericDomain(0, 1, 0.5)))
    view.add(answer)
    assert view.answers()[1].tolist() == [0.25]
    assert view.plot.getAxis("left").labelText == "average distance (normalised)"


def test_a_per_query_release_with_a_queries_file_runs_without_the_count_it_sets(
    qtbot, window: MainWindow, monkeypatch, tmp_path: Path
):
    """The form always showed query_count; the core refuses it beside a queries file, so the app leaves it
    out while a file is named (and the file's rows set the count)."""
    queries = tmp_path / "queries.csv"
    pd.DataFrame([[10, 5], [12, 20], [16, 40]], columns=COLUMNS).to_csv(queries, index=False)
    window.task_page.select_algorithm("laplace-per-query")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(queries), ""))
    window.task_page.parameters.findChild(QPushButton, "queries-browse").click()
    run_and_wait(qtbot, window)  # the core's refusal would show a dialog, which fails the test
    assert len(window.release.table.column("distance")) == 3
    assert "query_count" not in dict(window.current_spec().parameters)


def test_a_queries_file_changed_while_the_review_is_open_is_refused_at_the_charge(
    qtbot, window: MainWindow, monkeypatch, tmp_path: Path
):
    """The review priced three queries; the file then gains a fourth. The job charges the run the review
    priced (its pinned bytes), so its reservation refuses the changed file and nothing is booked; pricing the
    file again would charge and run four queries, a cost the custodian never reviewed."""
    queries = tmp_path / "queries.csv"
    pd.DataFrame([[10, 5], [12, 20], [16, 40]], columns=COLUMNS).to_csv(queries, index=False)
    window.task_page.select_algorithm("laplace-per-query")
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *args: (str(queries), ""))
    window.task_page.parameters.findChild(QPushButton, "queries-browse").click()
    qtbot.mouseClick(window.run_page.run_button, Qt.MouseButton.LeftButton)
    sheet = review_shown(qtbot, window)
    pd.DataFrame([[10, 5], [12, 20], [16, 40], [1, 1]], columns=COLUMNS).to_csv(queries, index=False)
    shown: list[str] = []
    monkeypatch.setattr(QMessageBox, "critical", lambda parent, title, text, *rest: shown.append(text))
    sheet.acknowledge.setChecked(True)
    sheet.charge_button.click()
    assert window.current_job is None
    assert len(shown) == 1 and "queries.csv changed since the release was priced" in shown[0]
    assert window.ledger.entries(window.record.id) == []  # nothing booked
