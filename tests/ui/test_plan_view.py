"""The Budget page's "Release plan" tab splits a plan file in the pool at the dataset's row count."""

from __future__ import annotations

from pathlib import Path

from dpgui.ui.budget_page import BudgetPage
from tests.cli.test_batch import PLAN


def test_a_plan_is_split_at_n_and_shown_row_by_row(qtbot, tmp_path: Path) -> None:
    page = BudgetPage()
    qtbot.addWidget(page)
    view = page.plan_view
    path = tmp_path / "plan.toml"
    path.write_text(PLAN)
    view.open_plan(path)
    assert "Open the private data first" in view.status.text()
    with qtbot.waitSignal(view.calls.done, timeout=60_000):
        page.show_spec(None, 2001)
    assert view.table.rowCount() == 2
    assert [view.table.item(r, 0).text() for r in range(2)] == ["wage CDF", "wage median"]
    assert "dpgui release batch plan.toml" in view.summary.text()
    assert view.batch is not None and view.batch.total.epsilon <= 1.0


def test_a_malformed_plan_says_what_is_wrong(qtbot, tmp_path: Path) -> None:
    page = BudgetPage()
    qtbot.addWidget(page)
    path = tmp_path / "plan.toml"
    path.write_text("epsilon = 1\n")
    page.plan_view.open_plan(path)
    assert "no [[release]] tables" in page.plan_view.status.text()
    assert page.plan_view.table.rowCount() == 0
