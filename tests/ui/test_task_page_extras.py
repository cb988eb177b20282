"""The Task page offers what the CLI offers: the missing-value policy, bins, categorical histogram columns."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dpgui.data import NumericDomain
from dpgui.data.domain import CategoricalDomain
from dpgui.data.domains_file import read_domains
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.paths import demo_private_path, demo_public_path
from dpgui.tasks.spec import TaskKind
from dpgui.ui.domain_rows import CategoryRow, DomainRow
from dpgui.ui.main_window import TASK, MainWindow
from dpgui.ui.task_page import PRECONDITIONS_UNKNOWN
from tests.ui.test_main_window import run_and_wait, set_total

REGIONS = CategoricalDomain(("northeast", "midwest", "south", "west"))


def numeric_row(main: MainWindow, column: str) -> DomainRow:
    row = main.task_page.domain_rows[column]
    assert isinstance(row, DomainRow)
    return row


def pick_region_histogram(main: MainWindow) -> CategoryRow:
    page = main.task_page
    page.select_task(TaskKind.HISTOGRAM)
    page.select_columns(["region"])
    row = page.domain_rows["region"]
    assert isinstance(row, CategoryRow)
    return row


def test_the_spec_carries_the_chosen_missing_value_policy(window: MainWindow):
    page = window.task_page
    assert window.current_spec().missing == MissingPolicy(MissingKind.IMPUTE, None)
    page.missing.fill.setText("150")
    assert window.current_spec().missing == MissingPolicy(MissingKind.IMPUTE, 150.0)
    page.missing.fail.setChecked(True)
    assert not page.missing.fill.isEnabled()
    assert window.current_spec().missing == MissingPolicy(MissingKind.FAIL, None)
    assert not page.missing.keep.isVisibleTo(page)  # keeping is a synthetic table's choice only


def test_a_table_keeps_missing_values_by_default_and_other_tasks_go_back_to_imputing(window: MainWindow):
    page = window.task_page
    page.select_task(TaskKind.TABLE)
    page.select_columns(["wage", "region"])
    page.declare("region", REGIONS)
    assert page.missing.keep.isVisibleTo(page) and page.missing.keep.isChecked()
    assert window.current_spec().missing == MissingPolicy(MissingKind.KEEP)
    page.missing.impute.setChecked(True)
    assert window.current_spec().missing == MissingPolicy(MissingKind.IMPUTE)
    page.missing.keep.setChecked(True)
    page.select_task(TaskKind.CDF)
    assert not page.missing.keep.isVisibleTo(page)
    assert window.current_spec().missing == MissingPolicy(MissingKind.IMPUTE)


def test_bins_set_the_granularity_and_exclude_it(window: MainWindow):
    row = numeric_row(window, "wage")
    row.granularity.clear()
    row.bins.setText("100")
    assert window.current_spec().domain == NumericDomain(0, 20000, 200)
    row.granularity.setText("5")
    with pytest.raises(ValueError, match="wage: give the number of bins or the granularity, not both"):
        window.current_spec()
    row.bins.setText("0")
    row.granularity.clear()
    with pytest.raises(ValueError, match="number of bins must be >= 1"):
        window.current_spec()


def test_a_histogram_offers_every_column_and_other_tasks_only_numeric_ones(window: MainWindow):
    page = window.task_page
    offered = [page.column.itemText(i) for i in range(page.column.count())]
    assert "region" not in offered and "wage" in offered
    pick_region_histogram(window)
    offered = [page.column.itemText(i) for i in range(page.column.count())]
    assert offered == [str(c) for c in pd.read_csv(demo_private_path(), nrows=1).columns]


def test_categories_are_suggested_from_the_public_samples_distinct_values(window: MainWindow):
    row = pick_region_histogram(window)
    assert row.suggest.isEnabled()
    window.task_page.suggest("region")
    public = sorted(pd.read_csv(demo_public_path())["region"].dropna().unique())
    assert public == ["other", "south"]  # cps1985 names regions unlike cps1988 (the public note says so)
    # a sample lists some of the values: undeclared ones count as 'other', and its own "other" is that cell
    assert row.categories.text() == "south" and row.other.isChecked()
    assert window.current_spec().domains == (CategoricalDomain(("south",), other=True),)
    assert "region" in window.task_page.public_note.text()
    row.categories.setText("other, south")  # 'other' is then both a category and the bucket
    with pytest.raises(ValueError, match="rename the category or uncheck"):
        window.current_spec()


def test_a_categorical_histogram_runs_through_the_window(qtbot, window: MainWindow, errors):
    set_total(window, 3.0)
    row = pick_region_histogram(window)
    row.categories.setText("northeast, midwest, south, west")
    spec = window.current_spec()
    assert spec.domains == (REGIONS,)
    run_and_wait(qtbot, window)
    assert errors == []
    assert window.release is not None
    assert window.release.table.column(window.release.table.columns[0]) == list(REGIONS.categories)


def test_a_fill_value_is_refused_for_a_categorical_column(window: MainWindow):
    row = pick_region_histogram(window)
    row.categories.setText("northeast, midwest, south, west")
    window.task_page.missing.fill.setText("0")
    with pytest.raises(ValueError, match="clear the fill value"):
        window.current_spec()


def test_a_saved_project_restores_the_missing_policy_and_the_categories(qtbot, tmp_path: Path):
    first = MainWindow()
    qtbot.addWidget(first)
    first.load_private(demo_private_path())
    row = pick_region_histogram(first)
    row.categories.setText("northeast, midwest, south")
    row.other.setChecked(True)
    first.task_page.missing.fail.setChecked(True)
    saved = first.current_spec()
    path = tmp_path / "histogram.dpgui.json"
    first.save_project(path)

    reopened = MainWindow()
    qtbot.addWidget(reopened)
    reopened.open_project(path)
    assert reopened.task_page.missing.fail.isChecked()
    restored = reopened.task_page.domain_rows["region"]
    assert isinstance(restored, CategoryRow) and restored.other.isChecked()
    assert restored.categories.text() == "northeast, midwest, south"
    assert reopened.current_spec() == saved
    assert saved.missing == MissingPolicy(MissingKind.FAIL) and saved.domains == (
        CategoricalDomain(("northeast", "midwest", "south"), other=True),
    )


def test_a_saved_fill_value_is_restored(qtbot, tmp_path: Path, window: MainWindow):
    window.task_page.missing.fill.setText("12.5")
    numeric_row(window, "wage").granularity.clear()
    numeric_row(window, "wage").bins.setText("100")
    path = tmp_path / "median.dpgui.json"
    window.save_project(path)
    reopened = MainWindow()
    qtbot.addWidget(reopened)
    reopened.open_project(path)
    assert reopened.task_page.missing.fill.text() == "12.5"
    assert reopened.current_spec().missing == MissingPolicy(MissingKind.IMPUTE, 12.5)
    assert reopened.current_spec().domain == NumericDomain(0, 20000, 200) == window.current_spec().domain


def test_domains_load_from_and_save_to_the_clis_domains_json(demo_window: MainWindow, tmp_path, errors):
    """The Task page reads the DOMAINS.json the CLI reads (a listed "other" names the catch-all cell), checks
    the table's columns, and saves what it shows so that the CLI reads the same declaration back."""
    page = demo_window.task_page
    page.select_task(TaskKind.TABLE)
    declared = {
        "wage": {"lower": 0, "upper": 3000, "bins": 30, "unit": "USD"},
        "region": {"categories": ["midwest", "south", "other"]},
        "smsa": {"categories": ["no", "yes"], "other": False},
        "nope": {"categories": ["a"]},
    }
    source = tmp_path / "domains.json"
    source.write_text(json.dumps(declared), encoding="utf-8")
    page.load_domains(source)
    assert page.selected_columns() == ["wage", "smsa", "region"]  # checked in the data's order
    assert errors == ["nope: not a column of the private data"]
    spec = demo_window.current_spec()
    assert dict(zip(spec.columns, spec.domains, strict=True)) == {
        "wage": NumericDomain(0, 3000, 100, unit="USD", binned=True),  # 30 bins, each at its middle
        "smsa": CategoricalDomain(("no", "yes")),
        "region": CategoricalDomain(("midwest", "south"), other=True),
    }
    assert page.domain_rows["wage"].bins.text() == "30" and page.domain_rows["wage"].granularity.text() == ""
    saved = tmp_path / "saved.json"
    page.save_domains(saved)
    assert read_domains(saved) == (spec.columns, spec.domains)
    source.write_text(json.dumps({"wage": {"categories": ["a"]}}), encoding="utf-8")
    page.load_domains(source)  # the declaration's kind decides, not how the private cells read
    assert (
        isinstance(page.domain_rows["wage"], CategoryRow)
        and page.domain_rows["wage"].categories.text() == "a"
    )


@pytest.mark.parametrize("kind", [TaskKind.DISTANCE, TaskKind.THRESHOLD, TaskKind.TABLE])
def test_at_1024_by_700_every_algorithm_entry_shows_all_its_lines(qtbot, demo_window: MainWindow, kind):
    """QListView measured a wrapped entry wider than it paints it: at 1024 x 700 the distance task's
    "paper method" entry showed "very large n…." and lost its "✓ preconditions met" line."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtWidgets import QStyle

    from tests.ui.test_session import build

    window = demo_window
    window.resize(1024, 700)
    window.show()
    qtbot.waitExposed(window)
    build(window, kind)
    window.go_to(TASK)
    entries = window.task_page.algorithm
    qtbot.waitUntil(lambda: PRECONDITIONS_UNKNOWN not in entries.item(1).text(), timeout=15_000)
    qtbot.wait(50)
    metrics = entries.fontMetrics()
    margin = entries.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, entries) + 1
    visible = entries.viewport().width() - 2 * entries.spacing()  # an entry is painted no wider
    for row in range(entries.count()):
        item = entries.item(row)
        shown = entries.visualItemRect(item)
        painted = min(shown.width(), visible) - 2 * margin
        wrapped = metrics.boundingRect(QRect(0, 0, painted, 1 << 20), Qt.TextFlag.TextWordWrap, item.text())
        assert shown.height() >= wrapped.height(), item.text()


def test_a_form_rebuilt_while_the_page_is_hidden_gets_its_full_height_when_shown(demo_window, qtbot):
    """A project opened from the Budget page showed a histogram's three parameters crushed into the height
    of the median's one (23 px against 102) until the deferred relayout caught up: the page's layouts kept
    the sizes of the forms before."""
    from PySide6.QtCore import QCoreApplication, QThreadPool

    from dpgui.ui.app import prepare_demo
    from dpgui.ui.main_window import BUDGET

    window = demo_window
    prepare_demo(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitExposed(window)
    page, form = window.task_page, window.task_page.parameters

    def settled() -> None:
        qtbot.waitUntil(lambda: QThreadPool.globalInstance().activeThreadCount() == 0, timeout=15_000)
        qtbot.wait(50)

    window.go_to(TASK)
    for kind in (TaskKind.MEDIAN, TaskKind.HISTOGRAM, TaskKind.QUANTILES, TaskKind.THRESHOLD):
        window.go_to(BUDGET)
        settled()
        page.task.setCurrentIndex(page.task.findData(kind))
        settled()
        window.go_to(TASK)
        QCoreApplication.processEvents()  # the first frame shown: no flash of a crushed form
        assert form.height() >= form.minimumSizeHint().height(), kind


def test_a_labelled_task_starts_with_a_label_other_than_its_feature(demo_window):
    """The label picker started at the first column, the feature itself (wage labelling wage)."""
    page = demo_window.task_page
    page.select_task(TaskKind.THRESHOLD)
    page.select_columns(["wage"])
    assert page.label.currentText() not in ("", "wage")
    page.label.setCurrentText("education")
    page.select_columns(["education"])  # the custodian makes the label the feature: it moves off it
    assert page.label.currentText() not in ("", "education")


def test_a_table_without_ticked_columns_says_to_tick_them(demo_window):
    page = demo_window.task_page
    page.select_task(TaskKind.TABLE)
    page.select_columns([])
    with pytest.raises(ValueError, match="Tick the columns to release"):
        page.spec(1.0, 1e-6)
