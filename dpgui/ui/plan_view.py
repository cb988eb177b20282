"""The Budget page's "Release plan" tab: a plan file's budget split across its releases, reading no data.

The split (``dpgui.planner.batch``) uses the public row count n and the registry's a-priori bounds only, and
takes seconds, so it runs in the thread pool. Running a plan is the command line's for now
(``dpgui release batch``); the tab says so.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpgui.jobs.background import LatestCall
from dpgui.planner.batch import BatchPlan, PlanError, ReleasePlan, load_plan, split_plan
from dpgui.ui.budget_panel import format_cost

PLAN_COLUMNS = ("Release", "Algorithm", "ε", "δ", "Predicted error", "Unit", "Weight / target")


def plan_rows(batch: BatchPlan) -> list[tuple[str, ...]]:
    """One table row per release of the split plan."""
    return [
        (
            r.name,
            r.prepared.algorithm.name,
            f"{r.cost.epsilon:.4g}",
            f"{r.cost.delta:.3g}",
            f"{r.predicted_error:.4g}",
            r.error_unit,
            f"target {r.target_error:g}" if r.target_error is not None else f"weight {r.weight:g}",
        )
        for r in batch.releases
    ]


class PlanView(QWidget):
    """Open a plan file, see its split at the open dataset's row count."""

    def __init__(self) -> None:
        super().__init__()
        self.open_button = QPushButton("Open plan…")
        self.open_button.clicked.connect(self._choose_file)
        self.status = QLabel(
            "Open a release plan (TOML, see docs/plans.md) to split a budget across releases."
        )
        self.status.setWordWrap(True)
        self.table = QTableWidget(0, len(PLAN_COLUMNS))
        self.table.setHorizontalHeaderLabels(list(PLAN_COLUMNS))
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.calls = LatestCall(self)
        self.calls.done.connect(self._show_split)
        self.calls.failed.connect(lambda error: self._show_problem(str(error)))
        self.plan: ReleasePlan | None = None
        self.path: Path | None = None
        self.n: int | None = None
        self.batch: BatchPlan | None = None
        top = QHBoxLayout()
        top.addWidget(self.open_button)
        top.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.summary)

    def show_n(self, n: int | None) -> None:
        """The public row count of the open dataset (the split depends on it)."""
        if n is not None and n != self.n:
            self.n = n
            self._split()

    def open_plan(self, path: Path) -> None:
        """Load ``path`` and split it (in the pool) once n is known."""
        try:
            self.plan, self.path = load_plan(path), path
        except PlanError as error:
            self.plan, self.path = None, None
            self._show_problem(str(error))
            return
        self._split()

    def _choose_file(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open a release plan", "", "Release plans (*.toml)")
        if name:
            self.open_plan(Path(name))

    def _split(self) -> None:
        if self.plan is None:
            return
        if self.n is None:
            self._show_problem("Open the private data first: the split depends on its (public) row count.")
            return
        plan, n = self.plan, self.n
        self.status.setText(f"Splitting {self.path.name if self.path else 'the plan'} at n = {n:,}…")
        self.calls.submit(lambda: split_plan(plan, n))

    def _show_split(self, batch: BatchPlan) -> None:
        self.batch = batch
        rows = plan_rows(batch)
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            for c, text in enumerate(row):
                self.table.setItem(r, c, QTableWidgetItem(text))
        name = self.path.name if self.path else "the plan"
        self.status.setText(f"{name}: {batch.objective}, at n = {self.n:,}.")
        self.summary.setText(
            f"Reserved at once: {format_cost(batch.total)} (basic composition); the ledger's accountant "
            f"charges {format_cost(batch.charged)}. Run it with `dpgui release batch {name} --data FILE "
            "--out DIR` (one ledger entry per release, every export in one folder)."
        )

    def _show_problem(self, message: str) -> None:
        self.batch = None
        self.table.setRowCount(0)
        self.summary.clear()
        self.status.setText(message)
