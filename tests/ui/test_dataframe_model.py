"""The preview model formats only the cells asked for, so a million rows stay instant."""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from PySide6.QtCore import Qt

from dpgui.ui.dataframe_model import DataFrameModel, format_cell


def test_formats_cells_and_headers():
    model = DataFrameModel(pd.DataFrame({"x": [1.5, np.nan], "name": ["a", None]}))
    assert (model.rowCount(), model.columnCount()) == (2, 2)
    assert model.data(model.index(0, 0)) == "1.5"
    assert model.data(model.index(1, 0)) == ""
    assert model.data(model.index(1, 1)) == ""
    assert model.headerData(1, Qt.Orientation.Horizontal) == "name"
    assert model.headerData(0, Qt.Orientation.Vertical) == "1"


def test_a_million_rows_load_and_display_fast():
    frame = pd.DataFrame({"a": np.arange(1_000_000, dtype=float), "b": np.arange(1_000_000)})
    start = time.perf_counter()
    model = DataFrameModel(frame)
    cells = [model.data(model.index(row, 1)) for row in range(999_950, 1_000_000)]
    assert time.perf_counter() - start < 0.5
    assert cells[-1] == "999999"


def test_format_cell_is_compact():
    assert format_cell(0.1 + 0.2) == "0.3"
    assert format_cell(12) == "12"


def test_the_review_table_shows_released_values_with_about_four_digits(qtbot, window):
    """The Review page's released table reads like the rest of the app (the CSV keeps exact values)."""
    from dpgui.numbers import readable
    from tests.ui.test_main_window import pick_cdf, run_and_wait, set_total

    set_total(window, 10.0)
    pick_cdf(window, algorithm="tree-laplace")
    run_and_wait(qtbot, window)
    model = window.review_page.model
    released = window.review_page.release.table.rows
    shown = [model.data(model.index(row, 1)) for row in range(model.rowCount())]
    assert shown == [readable(cdf) for _, cdf in released]
    digits = [text.split("e")[0].replace(".", "").lstrip("0") for text in shown]  # mantissa digits
    assert max(len(significant) for significant in digits) <= 4


def test_a_long_header_is_elided_but_its_values_stay_in_view(qtbot):
    """A table release's "noise scale (σ or Laplace scale; ε for a selection)" took 334 px of a 417 px view
    and pushed its values and the next columns out of sight."""
    from PySide6.QtWidgets import QTableView

    from dpgui.ui.dataframe_model import HEADER_WIDTH, fit_columns

    long_name = "noise scale (σ or Laplace scale; ε for a selection)"
    model = DataFrameModel(pd.DataFrame({"marginal": ["age × wage"], long_name: [21.5], "x": [123456789]}))
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    fit_columns(view)
    assert view.columnWidth(1) == HEADER_WIDTH and view.columnWidth(1) >= view.sizeHintForColumn(1)
    assert view.columnWidth(2) >= view.sizeHintForColumn(2)  # a value wider than its header is never cut
    assert model.headerData(1, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole) == long_name
