"""The ε boxes and the algorithms' number boxes read what is typed, whole: QDoubleSpinBox's validator
kept '15' of '1e-5' (ε = 15, a GUI audit) and its three decimals read '0.0001' as 0, below the minimum, so
the box went back to its previous value without a word."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLineEdit, QVBoxLayout, QWidget

from dpgui.ui.number_box import NumberBox, read_number


@pytest.mark.parametrize(
    ("text", "number"),
    [("1e-5", 1e-5), (" 2.5E+1 ", 25.0), ("0.0001", 1e-4), (".5", 0.5), ("-3", -3.0), ("1e", None),
     ("inf", None), ("nan", None), ("1_000", None), ("", None), ("1,5", None)],
)  # fmt: skip
def test_read_number_reads_a_whole_number_or_nothing(text: str, number: float | None):
    assert read_number(text) == number


@pytest.mark.parametrize(
    ("typed", "value"),
    [("1e-5", 1e-5), ("0.0001", 1e-4), ("2.5E+1", 25.0), ("abc", 1.0), ("1e", 1.0), ("500", 100.0),
     ("1e-7", 1e-6)],
)  # fmt: skip
def test_a_typed_number_is_taken_as_written_or_kept_in_range(qtbot, typed: str, value: float):
    form = QWidget()
    layout = QVBoxLayout(form)
    box, elsewhere = NumberBox(1e-6, 100.0, 1.0), QLineEdit()
    layout.addWidget(box)
    layout.addWidget(elsewhere)
    qtbot.addWidget(form)
    form.show()
    box.setFocus()
    box.lineEdit().selectAll()
    QTest.keyClicks(box.lineEdit(), typed)
    QTest.keyClick(box.lineEdit(), Qt.Key.Key_Tab)
    box.interpretText()
    assert box.value() == pytest.approx(value, rel=1e-12)


def test_the_release_epsilon_box_reads_scientific_notation(qtbot):
    from dpgui.ui.budget_page import BudgetPage

    page = BudgetPage()
    qtbot.addWidget(page)
    page.epsilon.lineEdit().selectAll()
    QTest.keyClicks(page.epsilon.lineEdit(), "1e-5")
    page.epsilon.interpretText()
    assert page.epsilon.value() == pytest.approx(1e-5)
    assert read_number(page.epsilon.text()) == pytest.approx(1e-5)  # shown as typed or as 1e-05
