"""The budget panel and timeline show the accountant's figure and its saving against basic composition."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.ui.budget_panel import BudgetPanel
from dpgui.ui.budget_timeline import spend_timeline
from tests.privacy.test_ledger_accounting import GAUSSIAN_COST, gaussian_curve

TOTAL = PrivacyCost(3.0, 1e-6)


@pytest.fixture
def ledger_and_dataset(tmp_path: Path) -> tuple[Ledger, str]:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    record = ledger.open_dataset(tmp_path / "data.csv", "a" * 64)
    ledger.set_total(record.id, TOTAL)
    for _ in range(4):
        ledger.commit(ledger.reserve(record.id, GAUSSIAN_COST, "gaussian CDF", curve=gaussian_curve()))
    return ledger, record.id


def test_the_panel_states_the_saving_against_basic_composition(qtbot, ledger_and_dataset) -> None:
    ledger, dataset = ledger_and_dataset
    panel = BudgetPanel()
    qtbot.addWidget(panel)
    panel.show_state(ledger.state(dataset))
    assert "saves ε = " in panel.accounting_label.text()
    assert "ε = 2, δ = 4e-07" in panel.accounting_label.text()
    state = ledger.state(dataset)
    assert panel.spent_label.text().startswith(f"ε = {state.spent.epsilon:.6g} at δ = 1e-06 (all releases")
    booked = TOTAL.delta - state.remaining.delta  # the deltas the releases booked: their plain sum
    assert (
        booked == pytest.approx(4e-7) and "δ not yet booked: 6e-07 of 1e-06" in panel.remaining_label.text()
    )


def test_the_panel_says_basic_composition_when_nothing_is_saved(qtbot, tmp_path: Path) -> None:
    ledger = Ledger(tmp_path / "ledger.jsonl")
    record = ledger.open_dataset(tmp_path / "data.csv", "a" * 64)
    ledger.set_total(record.id, PrivacyCost(2.0))
    ledger.commit(ledger.reserve(record.id, PrivacyCost(0.5), "pure"))
    panel = BudgetPanel()
    qtbot.addWidget(panel)
    panel.show_state(ledger.state(record.id))
    assert panel.accounting_label.text().startswith("basic composition")


def test_the_timeline_rises_to_the_accountants_figure(ledger_and_dataset) -> None:
    ledger, dataset = ledger_and_dataset
    points = spend_timeline(ledger.entries(dataset), TOTAL)
    heights = [point.epsilon for point in points]
    assert heights == sorted(heights)
    assert heights[-1] == ledger.state(dataset).spent.epsilon
    assert heights[-1] < 4 * GAUSSIAN_COST.epsilon / 2
