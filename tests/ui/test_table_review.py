"""Review of a synthetic table: 1-way bars of a chosen column and a 2-way heatmap of a chosen pair, both
counted from the released synthetic rows (never from the private data)."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pandas as pd
import pytest
from PySide6.QtGui import QTextDocument

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.missing import MissingKind
from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.spec import TaskKind
from dpgui.tasks.table import SYNTHETIC_CSV
from dpgui.ui.main_window import MainWindow
from dpgui.ui.release_plots import measured_marginals
from dpgui.ui.review_page import MEASURED_TAB, NOTES_SHOWN, SPLIT, SYNTHETIC_TAB
from dpgui.ui.table_review import MISSING_LABEL, cell_labels, one_way, two_way
from tests.ui.test_session import build


@pytest.fixture
def released(qtbot, demo_window: MainWindow) -> MainWindow:
    window = demo_window
    window.ledger.set_total(window.record.id, PrivacyCost(20.0, 1e-3))
    build(window, TaskKind.TABLE)
    window.start_release()
    with qtbot.waitSignal(window.current_job.released, timeout=60_000):
        pass
    return window


def test_the_review_draws_1_way_bars_and_a_2_way_heatmap_from_the_synthetic_rows(released: MainWindow):
    view = released.review_page.synthetic_view
    release = released.release
    assert view.isVisibleTo(released)
    (synthetic,) = [a for a in release.table.attachments if a.file_name == SYNTHETIC_CSV]
    frame = pd.read_csv(io.BytesIO(synthetic.content))
    columns, domains = list(release.spec.columns), release.spec.domains
    assert columns == ["education", "experience"]  # numeric: each synthetic value is a grid point
    assert release.spec.missing.kind is MissingKind.KEEP  # a table's default: a "missing" bar at the end
    pairs = zip(columns, domains, strict=True)
    cells = [((frame[c] - d.lower) / d.granularity).round().fillna(d.size).astype(int) for c, d in pairs]
    shares = [np.bincount(c, minlength=d.size + 1) / len(frame) for c, d in zip(cells, domains, strict=True)]
    for column, expected in zip(columns, shares, strict=True):
        view.column.setCurrentText(column)
        assert np.asarray(view.bars.opts["height"]) == pytest.approx(100 * expected)  # percent
        assert column in view.bars_plot.plotItem.titleLabel.text
    view.first.setCurrentText("experience")
    view.second.setCurrentText("education")
    joint = np.zeros((domains[1].size + 1, domains[0].size + 1))
    np.add.at(joint, (cells[1], cells[0]), 1 / len(frame))
    assert view.heatmap.image == pytest.approx(100 * joint)  # percent, as the colour bar reads
    assert view.colour_bar.levels() == pytest.approx((0.0, 100 * joint.max()))
    assert view.colour_bar.axis.labelText == "% of synthetic rows in the cell"  # colours had no scale
    assert "experience × education" in view.heat_plot.plotItem.titleLabel.text


def test_the_headline_counts_synthetic_rows_and_long_notes_fold_behind_a_disclosure(released: MainWindow):
    page, release = released.review_page, released.release
    (synthetic,) = [a for a in release.table.attachments if a.file_name == SYNTHETIC_CSV]
    drawn = len(pd.read_csv(io.BytesIO(synthetic.content)))
    assert f"{drawn:,} synthetic rows" in page.headline.text()
    notes = [n for n in (release.table.meaning, *release.table.notes) if n]
    assert len(notes) > NOTES_SHOWN  # one per measured marginal
    assert page.details.text().count("•") == NOTES_SHOWN
    assert page.more_button.isVisibleTo(page) and not page.more_details.isVisibleTo(page)
    assert page.more_details.text().count("•") == len(notes) - NOTES_SHOWN
    page.more_button.click()
    assert page.more_details.isVisibleTo(page)


def test_notes_are_shown_as_text_not_markup(released: MainWindow):
    """A threshold's note "predict positive exactly when wage <= 137" lost everything after its "<"."""
    page, release = released.review_page, released.release
    rule = "a rule: wage <= 137 & age > 30"
    page.show_release(dataclasses.replace(release, table=dataclasses.replace(release.table, meaning=rule)))
    shown = QTextDocument()
    shown.setHtml(page.details.text())
    assert rule in shown.toPlainText()
    page.show_release(release)


def test_the_measured_marginals_are_named_on_the_left_axis_in_the_order_measured(released: MainWindow):
    release = released.release
    measured = [str(row[0]) for row in release.table.rows if row[1] == "measured"]
    ticks = released.review_page.plot.getAxis("left")._tickLevels[0]
    assert [label for _, label in ticks] == measured


def test_blank_synthetic_cells_count_in_the_missing_cell_when_missing_values_were_kept():
    """A kept missing value is a blank cell of synthetic.csv (read as text, as the view reads it)."""
    grid, categories = NumericDomain(0, 10, 5), CategoricalDomain(("a", "b"), other=True)
    frame = pd.DataFrame({"x": ["0", "", "10", "5"], "c": ["a", "b", "", "zzz"]})
    assert one_way(frame, "x", grid, kept=True) == pytest.approx([0.25, 0.25, 0.25, 0.25])
    assert one_way(frame, "c", categories, kept=True) == pytest.approx([0.25, 0.25, 0.25, 0.25])
    assert cell_labels(categories, kept=True) == ["a", "b", "other", MISSING_LABEL]
    joint = two_way(frame, ("x", "c"), (grid, categories), kept=True)
    assert joint.shape == (4, 4) and joint[3, 1] == 0.25 and joint[0, 0] == 0.25 and joint[2, 3] == 0.25


def test_the_marginals_chart_shows_each_marginal_once_with_its_summed_share(released: MainWindow):
    """AIM may measure a marginal again (annealed): one bar each, shares added, TV of the last measurement."""
    rows = [row for row in released.release.table.rows if row[1] == "measured"]
    merged = measured_marginals(released.release.table)
    names = [name for name, _, _ in merged]
    assert names == list(dict.fromkeys(str(row[0]) for row in rows))
    for name, share, fit in merged:
        mine = [row for row in rows if row[0] == name]
        assert share == pytest.approx(sum(float(row[4]) for row in mine)) and fit == float(mine[-1][5])
    assert sum(share for _, share, _ in merged) == pytest.approx(sum(float(row[4]) for row in rows))
    bars = released.review_page.drawing.items["shares"]
    assert np.asarray(bars.opts["width"]) == pytest.approx([100 * share for _, share, _ in merged])


def test_the_table_and_the_plots_share_the_page_two_to_three_behind_a_movable_handle(qtbot, released):
    released.resize(1200, 800)
    released.show()
    qtbot.waitExposed(released)
    body = released.review_page.body
    tables, plots = body.sizes()
    assert tables > 0 and plots > 0  # neither side collapsed (the plots start hidden until drawn)
    assert plots / (tables + plots) == pytest.approx(SPLIT[1] / sum(SPLIT), abs=0.05)
    body.setSizes([3 * tables, plots])  # what dragging the handle does: the marginals table widens
    assert body.sizes()[0] > tables


def test_a_release_without_rows_gives_its_plots_the_whole_width_and_the_next_one_gets_the_split_back(
    qtbot, released
):
    released.resize(1200, 800)
    released.show()
    qtbot.waitExposed(released)
    page, table_release = released.review_page, released.release
    build(released, TaskKind.DISTANCE)  # a released structure: no rows to list
    released.task_page.select_algorithm("cdf-route")
    released.start_release()
    with qtbot.waitSignal(released.current_job.released, timeout=60_000):
        pass
    assert page.tables.isHidden() and page.body.sizes()[1] > 0
    page.show_release(table_release)  # back to the table: its rows and the synthetic preview
    tables, plots = page.body.sizes()
    assert not page.tables.isHidden()
    assert plots / (tables + plots) == pytest.approx(SPLIT[1] / sum(SPLIT), abs=0.05)


def test_a_chart_of_many_marginals_keeps_the_largest_shares_and_folds_the_rest_into_one_bar():
    """80 marginals (AIM on 25 columns) overlapped into an unreadable axis: the chart keeps 23 bars in the
    order measured and one for the rest, whose share is their sum and whose TV is their worst."""
    from dpgui.ui.release_plots import MAX_MARGINAL_BARS, shown_marginals

    measured = [(f"m{i}", (i % 7 + 1) / 1000, i / 100) for i in range(80)]
    shown = shown_marginals(measured)
    assert len(shown) == MAX_MARGINAL_BARS == 24
    kept, folded = shown[:-1], shown[-1]
    assert [name for name, _, _ in kept] == sorted((n for n, _, _ in kept), key=lambda n: int(n[1:]))
    assert min(share for _, share, _ in kept) >= max(
        share for name, share, _ in measured if name not in {n for n, _, _ in kept}
    )
    assert folded[0] == "57 more marginals"
    assert sum(share for _, share, _ in shown) == pytest.approx(sum(share for _, share, _ in measured))
    assert folded[2] == max(fit for name, _, fit in measured if name not in {n for n, _, _ in kept})
    assert shown_marginals(measured[:24]) == measured[:24]


def test_finish_now_is_offered_while_aim_runs_and_asks_the_job_to_finish(qtbot, demo_window):
    """Cancel keeps the charge without a result; Finish now (shown only while a run that can end early
    runs) asks the job to make AIM's next round the last. The worker and the runner pass the request on:
    tests/jobs/test_worker.py and tests/tasks/test_table_error.py."""
    window = demo_window
    window.ledger.set_total(window.record.id, PrivacyCost(20.0, 1e-3))
    build(window, TaskKind.TABLE)
    window.task_page.select_algorithm("aim")
    window.budget_page.delta.setText("1e-6")  # AIM is zCDP: it needs a δ
    window.start_release()
    job, button = window.current_job, window.run_page.finish_button
    assert button.isVisibleTo(window.run_page) and button.isEnabled()
    asked = []
    job.finish_now = lambda: asked.append(True)
    button.click()
    assert asked == [True] and not button.isEnabled()
    with qtbot.waitSignal(job.released, timeout=60_000):
        pass
    assert not button.isVisibleTo(window.run_page)
    window.run_page.set_running(True, finishable=False)  # a run that cannot end early: Cancel only
    assert not button.isVisibleTo(window.run_page) and window.run_page.cancel_button.isEnabled()
    window.run_page.set_running(False)


def drawn_tick_texts(plot, side: str) -> list[tuple[object, str]]:
    """The tick labels an axis would paint now, with their rectangles (pyqtgraph drops crowded levels)."""
    from PySide6.QtGui import QImage, QPainter

    axis = plot.getAxis(side)
    image = QImage(10, 10, QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    try:
        _, _, texts = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return [(rect, text) for rect, _, text in texts]


def test_a_wide_declared_range_gets_few_readable_ticks_that_never_overlap(qtbot):
    """Income declared 0 to 10,000,000 in steps of 1,000 (10,001 cells): the ticks were every 1,666th cell
    labelled "1.666e+06", "3.332e+06", … running into each other on a plot 260 px wide."""
    from dpgui.ui.table_review import SyntheticTableView

    view = SyntheticTableView()
    qtbot.addWidget(view)
    income, age = NumericDomain(0, 10_000_000, 1000), NumericDomain(16, 95, 1)
    view.frame = pd.DataFrame({"income": ["52000", "", "9691000"], "age": ["30", "41", ""]})
    view.domains, view.kept = {"income": income, "age": age}, True
    view.column.addItems(["income", "age"])
    view.first.addItems(["income", "age"])
    view.second.addItems(["age", "income"])
    view.resize(540, 200)
    view.show()
    qtbot.waitExposed(view)
    qtbot.wait(50)  # the plots take their ranges in the event loop
    for plot, side in ((view.bars_plot, "bottom"), (view.heat_plot, "bottom"), (view.heat_plot, "left")):
        texts = drawn_tick_texts(plot, side)
        labels = [text for _, text in texts]
        assert len(labels) >= 2 and not any("e+" in label for label in labels)
        rects = [rect for rect, _ in texts]
        assert not any(a.intersects(b) for i, a in enumerate(rects) for b in rects[i + 1 :]), labels
    assert [text for _, text in drawn_tick_texts(view.bars_plot, "bottom")][:2] == ["0", "4,000,000"]


def test_at_1024_by_700_the_table_review_gives_each_plot_a_tab_of_usable_height(qtbot, released):
    """Stacked, the marginals chart, the 1-way bars and the heatmap had about 100 px each at 1024 x 700 (the
    chart's axis title ran into the column choosers); in tabs each gets the plot side's whole height."""
    released.resize(1024, 700)
    released.show()
    qtbot.waitExposed(released)
    page = released.review_page
    tabs = page.plot_tabs
    assert tabs.tabBar().isVisible() and [tabs.tabText(i) for i in range(2)] == [MEASURED_TAB, SYNTHETIC_TAB]
    view = page.synthetic_view
    assert tabs.currentIndex() == 1 and view.isVisible()  # opened on what an analyst receives
    assert view.bars_plot.height() >= 220 and view.heat_plot.height() >= 220
    tabs.setCurrentIndex(0)
    assert page.plot.isVisible() and page.plot.height() >= 250
    assert page.history.height() < 40  # one release listed: one row, not a 90 px box


def test_a_release_other_than_a_table_shows_its_plot_without_tabs(qtbot, released):
    released.resize(1024, 700)
    released.show()
    qtbot.waitExposed(released)
    build(released, TaskKind.CDF)
    released.start_release()
    with qtbot.waitSignal(released.current_job.released, timeout=60_000):
        pass
    tabs = released.review_page.plot_tabs
    assert not tabs.tabBar().isVisible() and not tabs.isTabVisible(1)
    assert tabs.currentIndex() == 0 and released.review_page.plot.isVisible()
    history = released.review_page.history
    qtbot.waitUntil(lambda: history.count() == 2)
    assert history.height() >= 2 * history.sizeHintForRow(0)  # both releases listed without scrolling


def test_before_any_release_the_review_page_shows_no_table_tabs(demo_window):
    """The "Measured marginals / Synthetic rows" tabs showed on an empty Review page."""
    page = demo_window.review_page
    assert not page.plot_tabs.tabBar().isVisibleTo(page)
    assert not page.plot_tabs.isTabVisible(1)
