"""A column's kind (bounds or categories) is declared, never decided by its cells: one stray word made a
column of numbers "categorical", and the Task page then refused its declared bounds (the release's domain,
its manifest and its marginals changed with one record); numeric codes could not be declared categories.
The form first follows the cells; a declaration of either kind, or the row's switch, decides."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.data import CategoricalDomain, NumericDomain
from dpgui.tasks.spec import TaskKind
from dpgui.ui.domain_rows import CategoryRow, DomainRow
from dpgui.ui.main_window import MainWindow

EDUCATION = NumericDomain(0, 20, 1)


@pytest.fixture
def window(qtbot, tmp_path: Path) -> MainWindow:
    """A private file whose education has one word among its numbers, and whose region is coded 1-4."""
    path = tmp_path / "private.csv"
    rows = [
        f"{wage},{'seven' if i == 0 else 7 + i % 9},{1 + i % 4}" for i, wage in enumerate(range(100, 400))
    ]
    path.write_text("wage,education,region\n" + "\n".join(rows) + "\n")
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(path)
    return window


def test_a_column_with_a_stray_word_takes_the_bounds_it_is_declared_with(window: MainWindow):
    page = window.task_page
    page.select_task(TaskKind.TABLE)
    page.select_columns(["wage", "education"])
    assert isinstance(page.domain_rows["education"], CategoryRow)  # the form follows the cells at first
    page.declare("wage", NumericDomain(0, 1000, 10))
    page.declare("education", EDUCATION)
    assert isinstance(page.domain_rows["education"], DomainRow)
    assert isinstance(window.data_page.domains.rows["education"], DomainRow)  # the Data page's row too
    assert window.current_spec().domains == (NumericDomain(0, 1000, 10), EDUCATION)
    page.select_task(TaskKind.CDF)
    assert "education" in [page.column.itemText(i) for i in range(page.column.count())]  # offered as numeric


def test_numeric_codes_can_be_declared_categories_and_back(window: MainWindow):
    page = window.task_page
    page.select_task(TaskKind.HISTOGRAM)
    page.select_columns(["region"])
    assert isinstance(page.domain_rows["region"], DomainRow)
    assert page.kind_switches["region"].text() == "Categories instead"
    page.kind_switches["region"].click()
    row = page.domain_rows["region"]
    assert isinstance(row, CategoryRow) and row.categories.text() == ""
    row.categories.setText("1, 2, 3, 4")
    assert window.current_spec().domains == (CategoricalDomain(("1", "2", "3", "4")),)
    page.select_task(TaskKind.CDF)
    assert "region" not in [page.column.itemText(i) for i in range(page.column.count())]
    page.select_task(TaskKind.HISTOGRAM)
    page.select_columns(["region"])
    assert page.kind_switches["region"].text() == "Bounds instead"
    page.kind_switches["region"].click()
    assert isinstance(page.domain_rows["region"], DomainRow)
