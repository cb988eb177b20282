"""Before a new dataset's first total the app asks whether it holds the people of a known dataset with the
same columns (``look_alikes``); yes links it to that budget, no sets a total of its own."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from PySide6.QtWidgets import QMessageBox

from dpgui.paths import demo_private_path
from dpgui.privacy.cost import PrivacyCost
from dpgui.ui.main_window import MainWindow
from tests.ui.conftest import answer_total_dialog


@pytest.fixture
def copy_window(qtbot, tmp_path: Path) -> tuple[MainWindow, str]:
    """A window that set a total on the demo file, then opened a Parquet copy of it; and the demo's id."""
    window = MainWindow()
    qtbot.addWidget(window)
    window.load_private(demo_private_path())
    assert window.record is not None
    original = window.record.id
    window.ledger.set_total(original, PrivacyCost(3.0))
    copy = tmp_path / "cps1988.parquet"
    pd.read_csv(demo_private_path()).to_parquet(copy)
    window.load_private(copy)
    assert window.record is not None and window.record.id != original
    return window, original


@pytest.mark.parametrize(
    ("answer", "linked", "total"),
    [
        (QMessageBox.StandardButton.Yes, True, None),
        (QMessageBox.StandardButton.No, False, PrivacyCost(2.0)),
        (QMessageBox.StandardButton.Cancel, False, None),
    ],
)
def test_the_first_total_of_a_copy_asks_whether_it_is_the_same_people(
    copy_window, monkeypatch, answer, linked: bool, total: PrivacyCost | None
):
    window, original = copy_window
    asked: list[str] = []
    monkeypatch.setattr(
        QMessageBox, "question", lambda parent, title, text, *rest: asked.append(text) or answer
    )
    answer_total_dialog(monkeypatch, "2", "0")
    window.budget_panel.set_total_button.click()
    assert len(asked) == 1 and "names the same columns as cps1988.csv" in asked[0]
    assert window.record is not None and (window.record.id == original) is linked
    state = window.ledger.state(window.record.id)
    assert state.total == (PrivacyCost(3.0) if linked else total)
    if linked:
        assert window.budget_panel.total_label.text() == "ε = 3"
