"""The Review page's plot of every kind of release, its custodian-only layers, and a DP-only export."""

from __future__ import annotations

import base64
import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from PySide6.QtGui import QImage, QPalette
from PySide6.QtWidgets import QFileDialog

from dpgui.data import CategoricalDomain, NumericDomain
from dpgui.paths import demo_private_path
from dpgui.privacy.cost import PrivacyCost
from dpgui.release.manifest import build_manifest
from dpgui.release.release import Release
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.spec import TaskKind, TaskSpec
from dpgui.ui.custodian_layers import CUSTODIAN_ONLY
from dpgui.ui.main_window import MainWindow
from dpgui.ui.release_plots import cdf_error, release_plot, synthetic_edges
from dpgui.ui.review_page import EXPORT_WIDTH, ReviewPage
from dpgui.ui.step_display import rising_range
from dpgui.ui.theme import dark_palette, muted_colour
from tests.conftest import holds_canary
from tests.ui.test_main_window import export_and_wait
from tests.ui.test_session import EDUCATION, build

WAGE = NumericDomain(0, 4000, 20)
REGIONS = ("northeast", "midwest", "south", "west")


@pytest.fixture
def window(demo_window: MainWindow) -> MainWindow:
    window = demo_window
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(20.0, 1e-3))
    return window


def run(
    qtbot, window: MainWindow, kind: TaskKind, delta: float = 0.0, wage: bool = False, domain=WAGE
) -> Release:
    """Fill the Task page for ``kind`` (on wage over ``domain`` when ``wage``), run it and wait for the
    release."""
    build(window, kind)
    if wage:
        window.task_page.select_columns(["wage"])
        window.task_page.declare("wage", domain)
    window.budget_page.delta.setText(f"{delta:g}")
    window.start_release()
    job = window.current_job
    assert job is not None
    with qtbot.waitSignal(job.released, timeout=15000):
        pass
    assert window.release is not None and window.review_page.release is window.release
    return window.release


def items(page: ReviewPage) -> dict[str, object]:
    assert page.drawing is not None
    return dict(page.drawing.items)


def legend_names(page: ReviewPage) -> list[str]:
    return [label.text for _, label in page.plot.plotItem.legend.items]


def column(release: Release, name: str) -> np.ndarray:
    return np.array(release.table.column(name), dtype=float)


def test_a_cdf_is_drawn_with_its_a_priori_error_band(qtbot, window: MainWindow):
    release = run(qtbot, window, TaskKind.CDF, wage=True)
    page = window.review_page
    drawn = items(page)
    x, y = drawn["curve"].getData()
    assert np.array_equal(x, column(release, "value")) and np.array_equal(y, column(release, "cdf"))
    error = release.algorithm.predicted_error(release.spec, release.dataset.n_rows)
    assert error == cdf_error(release) and 0 < error < 0.5
    upper, lower = drawn["band_upper"].getData()[1], drawn["band_lower"].getData()[1]
    assert np.allclose(upper, np.clip(y + error, 0, 1)) and np.allclose(lower, np.clip(y - error, 0, 1))
    inside = (y + error < 1) & (y - error > 0)
    assert inside.any() and np.allclose((upper - lower)[inside] / 2, error)
    assert drawn["band"] in page.plot.plotItem.items
    assert legend_names(page) == ["a-priori error band (1 − β)", "released CDF"]


def true_wage_cdf_at(values: np.ndarray) -> np.ndarray:
    """P[wage ≤ value] on the demo frame (wages clipped to the bounds), computed here with numpy alone: at
    grid values a CDF task's snapping up changes nothing (issue 15 item 2)."""
    wage = pd.read_csv(demo_private_path())["wage"].to_numpy(dtype=float)
    clipped = np.sort(np.clip(wage, WAGE.lower, WAGE.upper))
    return np.searchsorted(clipped, values, side="right") / wage.size


def test_the_true_cdf_is_off_by_default_and_when_on_is_the_empirical_cdf(qtbot, window: MainWindow):
    run(qtbot, window, TaskKind.CDF, wage=True)
    page = window.review_page
    box = page.custodian_box
    assert box.text() == f"Show the true CDF ({CUSTODIAN_ONLY})"
    assert box.isEnabled() and not box.isChecked() and page.custodian_items == {}
    assert len(page.plot.listDataItems()) == 3  # the band's two edges and the released CDF
    box.setChecked(True)
    curve = page.custodian_items["true_cdf"]
    assert curve in page.plot.listDataItems() and curve.opts["pen"].color() == muted_colour()
    x, y = curve.getData()
    assert x[0] == WAGE.lower and y[0] == 0 and y[-1] == pytest.approx(1.0)
    assert np.allclose(y[1:], true_wage_cdf_at(x[1:]))
    assert (
        "true CDF — not released" in legend_names(page)
        and CUSTODIAN_ONLY in page.plot.plotItem.titleLabel.text
    )
    box.setChecked(False)
    assert page.custodian_items == {} and curve not in page.plot.listDataItems()
    assert "true CDF — not released" not in legend_names(page)


def test_the_review_plot_offers_no_right_click_export_of_its_custodian_only_layers(qtbot, window: MainWindow):
    run(qtbot, window, TaskKind.CDF, wage=True)
    page = window.review_page
    page.custodian_box.setChecked(True)
    assert page.custodian_items  # the true CDF is on the plot
    scene = page.plot.scene()
    assert not any("Export" in action.text() for action in scene.contextMenu)
    control = release_plot()
    qtbot.addWidget(control)
    assert any("Export" in action.text() for action in control.scene().contextMenu)


def test_the_export_holds_the_dp_plot_only_whatever_the_check_box_says(
    qtbot, window: MainWindow, monkeypatch, tmp_path: Path, wages_csv: Path, errors: list[str]
):
    window.load_private(wages_csv)  # holds the canary wage
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(5.0))
    run(qtbot, window, TaskKind.CDF, wage=True)
    page = window.review_page
    dp_only = page.plots()
    page.custodian_box.setChecked(True)
    assert page.custodian_items and page.custodian_items["true_cdf"] in page.plot.listDataItems()
    assert page.plots() == dp_only
    assert page.custodian_items["true_cdf"] in page.plot.listDataItems()  # the screen keeps its overlay

    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(tmp_path), ""))
    export_and_wait(qtbot, window)  # tmp_path holds the private file: a release folder never does
    assert len(errors) == 1 and "holds the private data wages.csv" in errors[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["wages.csv"]
    folder = tmp_path / "export"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(folder), ""))
    export_and_wait(qtbot, window)
    report = (folder / "report.html").read_text(encoding="utf-8")
    assert not holds_canary(report) and holds_canary(wages_csv.read_text())
    assert CUSTODIAN_ONLY not in report and "true CDF" not in report
    ((caption, png),) = dp_only.items()
    assert caption == "Released CDF of wage" and base64.b64encode(png).decode() in report


def test_threshold_learning_draws_the_released_threshold_and_custodian_histograms(qtbot, window: MainWindow):
    release = run(qtbot, window, TaskKind.THRESHOLD)
    page = window.review_page
    ((threshold, direction),) = release.table.rows
    line = items(page)["hypothesis"]
    assert line.value() == float(threshold)
    sign = "≥" if direction == "ge" else "≤"
    assert f"education {sign} {threshold}" in line.label.textItem.toPlainText()
    assert page.headline.text().startswith("Released threshold on education for smsa: 1 row (")
    assert not page.custodian_box.isChecked() and page.custodian_items == {}
    left = page.plot.plotItem.getAxis("left")
    assert not left.isVisible()  # rows of nothing: the axis shows with the custodian's bars (a GUI audit)

    page.custodian_box.setChecked(True)
    assert left.isVisible()
    frame = pd.read_csv(demo_private_path())
    education = np.rint(np.clip(frame["education"].to_numpy(dtype=float), EDUCATION.lower, EDUCATION.upper))
    positive = (frame["smsa"] == "yes").to_numpy()
    for name, rows in (("positives", positive), ("negatives", ~positive)):
        bars = page.custodian_items[name]
        values, counts = np.unique(education[rows], return_counts=True)
        centres = bars.opts["x"] + (1 if name == "positives" else -1) * bars.opts["width"] / 2
        shown = dict(zip(np.rint(centres), bars.opts["height"], strict=True))
        assert {v: shown.get(v, 0) for v in values} == dict(zip(values, counts, strict=True))
        assert sum(shown.values()) == rows.sum()
    assert all("not released" in name for name in legend_names(page)[:2])
    assert CUSTODIAN_ONLY in page.plot.plotItem.titleLabel.text


def test_a_histogram_is_drawn_as_bars_of_the_released_counts(qtbot, window: MainWindow):
    release = run(qtbot, window, TaskKind.HISTOGRAM)
    bars = items(window.review_page)["bars"]
    assert np.array_equal(bars.opts["x"], column(release, "value"))
    assert np.array_equal(bars.opts["height"], column(release, "count"))
    assert window.review_page.custodian_box.isHidden()


def test_a_categorical_histogram_has_its_categories_on_the_axis(qtbot, window: MainWindow, monkeypatch):
    spec = TaskSpec(TaskKind.HISTOGRAM, ("region",), (CategoricalDomain(REGIONS, other=True),), epsilon=1.0)
    monkeypatch.setattr(window, "current_spec", lambda: spec)  # the Task page declares numeric domains only
    window.start_release()
    assert window.current_job is not None
    with qtbot.waitSignal(window.current_job.released, timeout=15000):
        pass
    assert window.release is not None and window.release.table.columns[0] == "category"
    bars = items(window.review_page)["bars"]
    assert np.array_equal(bars.opts["x"], np.arange(len(REGIONS) + 1))
    assert np.array_equal(bars.opts["height"], column(window.release, "count"))
    ticks = window.review_page.plot.getAxis("bottom")._tickLevels
    assert ticks == [[(float(i), name) for i, name in enumerate((*REGIONS, "other"))]]


def test_quantiles_are_lines_and_markers_at_the_released_values(qtbot, window: MainWindow):
    release = run(qtbot, window, TaskKind.QUANTILES, wage=True)
    drawn = items(window.review_page)
    values, qs = column(release, "value"), column(release, "q")
    assert [line.value() for line in drawn["lines"]] == list(values)
    assert [line.label.textItem.toPlainText() for line in drawn["lines"]] == [
        f"q = {q:g}: {v:,.6g}" for q, v in zip(qs, values, strict=True)
    ]
    x, y = drawn["markers"].getData()
    assert np.array_equal(x, values) and np.array_equal(y, qs)
    headline = window.review_page.headline.text()  # was 'Released Private quantiles of wage: …'
    assert headline.startswith(f"Released quantiles of wage: {len(values)} rows (ε = 1")
    assert window.review_page.drawing.title == "Released quantiles of wage"


def test_quantiles_on_a_wide_declared_range_are_shown_zoomed_in(qtbot, window: MainWindow):
    """Wages declared up to 1,000,000: their quantiles span a few thousand, which on the whole range would
    be one thick line; the view shows their span, half again either side."""
    release = run(qtbot, window, TaskKind.QUANTILES, wage=True, domain=NumericDomain(0, 1_000_000, 100))
    values = column(release, "value")
    low, high = min(values), max(values)
    assert 0 < high - low < 0.2 * 1_000_000
    (x_low, x_high), _ = window.review_page.plot.viewRange()
    assert x_low == pytest.approx(low - (high - low) / 2) and x_high == pytest.approx(high + (high - low) / 2)


def test_synthetic_records_are_drawn_as_their_histogram(qtbot, window: MainWindow):
    release = run(qtbot, window, TaskKind.SYNTHETIC, wage=True)
    x, y = items(window.review_page)["histogram"].getData()
    records = column(release, "wage")
    edges = synthetic_edges(release)
    assert np.array_equal(x, edges) and edges[0] < WAGE.lower and edges[-1] > WAGE.upper
    assert np.array_equal(y, np.histogram(records, edges)[0]) and y.sum() == len(records) > 0


def test_a_learned_point_is_a_line_at_the_released_point(qtbot, window: MainWindow):
    release = run(qtbot, window, TaskKind.POINT, delta=1e-6)
    ((point,),) = release.table.rows
    drawn = items(window.review_page)
    if isinstance(point, str):
        assert "message" in drawn
    else:
        assert drawn["hypothesis"].value() == float(point)


def test_a_learned_rectangle_is_the_released_box(qtbot, window: MainWindow):
    release = run(qtbot, window, TaskKind.RECTANGLE, delta=1e-6)
    (_, x0, x1), (_, y0, y1) = release.table.rows
    box = items(window.review_page)["box"].rect()
    assert (box.left(), box.right(), box.top(), box.bottom()) == (x0, x1, y0, y1)
    empty = ReleaseTable(("feature", "lower", "upper"), (("education", "empty", "empty"),), ("EMPTY box",))
    window.review_page.show_release(dataclasses.replace(release, table=empty))
    assert items(window.review_page)["message"].textItem.toPlainText() == "EMPTY box"


def test_the_custodian_layer_needs_the_releases_own_file_in_memory(
    qtbot, window: MainWindow, wages_csv: Path
):
    run(qtbot, window, TaskKind.CDF, wage=True)
    page = window.review_page
    page.custodian_box.setChecked(True)
    assert page.custodian_items
    window.load_private(wages_csv)  # another file: its data must not be drawn beside this release
    assert not page.custodian_box.isEnabled() and not page.custodian_box.isChecked()
    assert "not the one this release was made from" in page.custodian_box.toolTip()
    assert page.custodian_items == {} and len(page.plot.listDataItems()) == 3
    page.set_custodian_source(None)
    assert not page.custodian_box.isEnabled() and "not held in memory" in page.custodian_box.toolTip()


def test_the_exported_plot_is_light_even_when_the_screen_is_dark(qtbot, qapp, window: MainWindow):
    run(qtbot, window, TaskKind.CDF, wage=True)
    original = QPalette(qapp.palette())
    qapp.setPalette(dark_palette())
    try:
        plot = window.review_page.plot
        qtbot.waitUntil(lambda: plot.backgroundBrush().color().lightness() < 128)  # the screen is dark
        ((_, png),) = window.review_page.plots().items()
    finally:
        qapp.setPalette(original)
    image = QImage.fromData(png)
    assert image.width() == EXPORT_WIDTH
    assert image.pixelColor(image.width() - 3, image.height() // 2).name() == "#ffffff"


def test_a_cdf_opens_on_where_the_released_cdf_rises(qtbot, window: MainWindow):
    """The first view shows the rise of the released CDF (from 0.5% to 99.5% of its mass), not the flat
    top of the declared domain (the demo wages' last 0.5% spread over the upper third of [0, 4000])."""
    release = run(qtbot, window, TaskKind.CDF, wage=True)
    x, y = column(release, "value"), column(release, "cdf")
    (left, right), _ = window.review_page.plot.plotItem.vb.viewRange()
    assert left <= x[np.searchsorted(y, 0.005, side="right")]
    assert right >= x[np.searchsorted(y, 0.995, side="left")]
    assert right < 0.7 * WAGE.upper


def test_the_rise_of_a_step_cdf_is_found_from_the_released_values_only():
    x = np.arange(10.0)
    cdf = np.array([0, 0, 0.001, 0.3, 0.6, 0.9, 0.999, 1, 1, 1])
    assert rising_range(x, cdf) == (2.0, 6.0)  # from the last point below 0.5%: its step rises next
    assert rising_range(x, np.zeros(10)) == (0.0, 9.0)  # never rises: the whole domain
    assert rising_range(np.array([5.0]), np.array([1.0])) == (4.5, 5.5)


def test_a_declared_unit_titles_the_value_axis_and_reaches_the_manifest(qtbot, window: MainWindow):
    release = run(
        qtbot, window, TaskKind.CDF, wage=True, domain=dataclasses.replace(WAGE, unit="USD per week")
    )
    assert release.spec.domain.unit == "USD per week"
    assert window.review_page.plot.getAxis("bottom").labelText == "wage (USD per week)"
    assert build_manifest(release, {})["parameters"]["domains"]["wage"]["unit"] == "USD per week"
