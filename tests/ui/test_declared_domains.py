"""Declared domains are shared by the Data and Task pages, and suggested only from the public sample."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from PySide6.QtCore import Qt

from dpgui.data import NumericDomain
from dpgui.data.domain import TABLE_SUGGESTED_INTERVALS, CategoricalDomain, suggest_domain
from dpgui.data.public import PublicSample
from dpgui.paths import demo_private_path, demo_public_path
from dpgui.tasks.spec import TaskKind
from dpgui.ui.domain_rows import CategoryRow, DomainRow, suggested_texts
from dpgui.ui.main_window import MainWindow


def data_row(window: MainWindow, column: str) -> DomainRow | CategoryRow:
    return window.data_page.domains.rows[column]


def numeric_data_row(window: MainWindow, column: str) -> DomainRow:
    row = data_row(window, column)
    assert isinstance(row, DomainRow)
    return row


def categorical_data_row(window: MainWindow, column: str) -> CategoryRow:
    row = data_row(window, column)
    assert isinstance(row, CategoryRow)
    return row


def test_the_table_has_a_row_per_private_column_of_its_kind(demo_window: MainWindow):
    rows = demo_window.data_page.domains.rows
    assert list(rows) == [str(c) for c in pd.read_csv(demo_private_path(), nrows=1).columns]
    assert isinstance(rows["wage"], DomainRow) and isinstance(rows["region"], CategoryRow)
    assert all(row.texts() in (("",) * 5, ("", "")) for row in rows.values())


def test_bounds_typed_on_the_data_page_reach_the_spec(qtbot, demo_window: MainWindow):
    row = numeric_data_row(demo_window, "education")
    for edit, text in zip((row.lower, row.upper, row.granularity), ("0", "20", "0.5"), strict=True):
        qtbot.keyClicks(edit, text)
    demo_window.task_page.select_columns(["education"])
    assert demo_window.current_spec().domains == (NumericDomain(0, 20, 0.5),)
    assert demo_window.task_page.domain_rows["education"].texts() == ("0", "20", "0.5", "", "")


def test_a_visible_task_row_follows_the_data_page_in_place(demo_window: MainWindow):
    demo_window.task_page.select_columns(["education"])
    task_row = demo_window.task_page.domain_rows["education"]
    numeric_data_row(demo_window, "education").bins.setText("4")
    assert demo_window.task_page.domain_rows["education"] is task_row
    assert task_row.texts() == ("", "", "", "4", "")


def test_a_declaration_on_the_task_page_shows_on_the_data_page(demo_window: MainWindow):
    page = demo_window.task_page
    page.select_columns(["experience"])
    page.declare("experience", NumericDomain(0, 60, 2))
    assert numeric_data_row(demo_window, "experience").texts() == ("0", "60", "2", "", "")
    page.domain_rows["experience"].upper.setText("70")
    assert numeric_data_row(demo_window, "experience").upper.text() == "70"


def test_the_public_sample_suggests_every_column_it_has_and_only_those(qtbot):
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(demo_private_path())
    button = window.data_page.domains.suggest_button
    assert not button.isEnabled()
    categorical_data_row(window, "parttime").categories.setText("yes, no")  # not in the public sample
    window.load_public(demo_public_path())
    assert button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    public = pd.read_csv(demo_public_path())
    suggested = suggest_domain(public["wage"].to_numpy(dtype=float))
    assert numeric_data_row(window, "wage").domain() == suggested
    assert suggested.upper < pd.read_csv(demo_private_path())["wage"].max() / 100  # hourly, not weekly
    categories = sorted(set(public["region"].dropna().unique()) - {"other"})  # its "other": the bucket
    assert categorical_data_row(window, "region").domain() == CategoricalDomain(tuple(categories), other=True)
    assert categorical_data_row(window, "parttime").texts() == ("yes, no", "")
    assert categorical_data_row(window, "smsa").texts() == ("", "")
    assert "smsa" in window.data_page.domains.status.text()


def test_a_new_private_file_empties_the_table(demo_window: MainWindow):
    numeric_data_row(demo_window, "wage").lower.setText("0")
    categorical_data_row(demo_window, "region").other.setChecked(True)
    demo_window.load_private(demo_private_path())
    assert numeric_data_row(demo_window, "wage").texts() == ("",) * 5
    assert categorical_data_row(demo_window, "region").texts() == ("", "")
    demo_window.task_page.select_columns(["wage"])
    assert demo_window.task_page.domain_rows["wage"].texts() == ("",) * 5


def test_categories_declared_on_the_data_page_reach_a_histogram(demo_window: MainWindow):
    row = categorical_data_row(demo_window, "region")
    row.categories.setText("northeast, midwest, south")
    row.other.setChecked(True)
    demo_window.task_page.select_task(TaskKind.HISTOGRAM)
    demo_window.task_page.select_columns(["region"])
    expected = CategoricalDomain(("northeast", "midwest", "south"), other=True)
    assert demo_window.current_spec().domains == (expected,)


def test_invalid_text_shows_on_the_data_page_and_is_refused_only_in_the_spec(demo_window: MainWindow):
    demo_window.task_page.select_columns(["wage"])
    demo_window.task_page.domain_rows["wage"].lower.setText("5")
    demo_window.task_page.domain_rows["wage"].upper.setText("1")
    assert numeric_data_row(demo_window, "wage").texts()[:2] == ("5", "1")
    with pytest.raises(ValueError, match="wage"):
        demo_window.current_spec()


def test_a_reopened_projects_domains_show_on_both_pages(qtbot, tmp_path: Path, demo_window: MainWindow):
    numeric_data_row(demo_window, "education").lower.setText("0")  # declared, but not in the spec
    demo_window.task_page.select_columns(["wage"])
    demo_window.task_page.declare("wage", NumericDomain(0, 20000, 10))
    path = tmp_path / "median.dpgui.json"
    demo_window.save_project(path)
    reopened = MainWindow()
    qtbot.addWidget(reopened)
    reopened.open_project(path)
    assert reopened.task_page.domain_rows["wage"].texts() == ("0", "20000", "10", "", "")
    assert numeric_data_row(reopened, "wage").texts() == ("0", "20000", "10", "", "")
    assert numeric_data_row(reopened, "education").texts() == ("",) * 5


def test_a_typed_unit_reaches_the_spec_and_a_public_suggestion_keeps_it(demo_window: MainWindow):
    row = numeric_data_row(demo_window, "wage")
    row.unit.setText("USD")
    demo_window.task_page.select_columns(["wage"])
    demo_window.task_page.domain_rows["wage"].lower.setText("0")
    demo_window.task_page.domain_rows["wage"].upper.setText("3000")
    assert demo_window.current_spec().domains[0].unit == "USD"
    public = PublicSample.from_file(demo_public_path())
    assert suggested_texts(public, "wage", True, row.texts())[4] == "USD"


def test_on_the_table_task_a_column_is_suggested_a_coarse_grid(demo_window: MainWindow):
    page = demo_window.task_page
    page.select_task(TaskKind.TABLE)
    page.select_columns(["wage", "education"])
    page.suggest("wage")
    page.suggest("education")
    wage, education = demo_window.current_spec().domains
    public = pd.read_csv(demo_public_path())
    coarse = suggest_domain(public["wage"].to_numpy(dtype=float), intervals=TABLE_SUGGESTED_INTERVALS)
    assert wage == coarse and wage.size < suggest_domain(public["wage"].to_numpy(dtype=float)).size
    assert education.granularity == 1


def test_long_categories_set_by_the_app_show_from_their_start(qtbot):
    """A suggested or reopened list wider than its field shows its first categories, not its last ones."""
    names = ", ".join(f"category number {i}" for i in range(40))
    row = CategoryRow("region", (names, ""))
    qtbot.addWidget(row.categories)
    assert row.categories.text() == names
    assert row.categories.cursorPosition() == 0
