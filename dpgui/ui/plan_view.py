"""The Budget page's "Release plan" tab: a plan editor whose split is recomputed as it is edited.

A plan is a list of releases (the current task added with "Add this release", or a plan file opened) each
with an algorithm or auto and a weight or a target error, and one budget. In "split a budget" mode the
planner (``dpgui.planner.batch.split_plan``) shares the plan's (ε, δ) to minimise the largest weighted
predicted error; in "least budget for targets" mode it finds the least budget meeting every target, which
the ε field then shows. Switching modes carries one side over to the other: the targets become the errors
the split predicted, or the budget becomes the one the targets needed. The split reads no data (the
public row count n and the registry's a-priori bounds) and runs in the thread pool.

"Run plan" hands the split to the main window, which shows the review sheet and runs it
(``dpgui.jobs.plan_job``). "Save plan…" writes the TOML that ``dpgui release batch`` reads.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpgui.jobs.background import LatestCall
from dpgui.planner.batch import BatchPlan, PlanError, PlannedRelease, ReleasePlan, split_plan
from dpgui.planner.plan_file import load_plan, planned_release, save_plan
from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.registry import algorithms
from dpgui.tasks.review import predicted_error_text
from dpgui.tasks.spec import AUTO, MAX_EPSILON, MIN_EPSILON, TaskSpec
from dpgui.ui.budget_panel import format_cost
from dpgui.ui.number_box import NumberBox
from dpgui.ui.wrapping_label import WrappingLabel

PLAN_COLUMNS = ("Release", "Task", "Algorithm", "ε", "δ", "Error bound", "Weight", "Target error")
ERROR_BOUND_TIP = (
    "The a-priori error bound each release's split is chosen by (it holds with the stated confidence). The "
    "review before the charge also shows the error simulated on public or synthetic data, often lower."
)
"""The split ranks releases by the bound; the review states the simulated mean (a GUI audit read two
different "predicted errors" for one plan)."""
ALGORITHM, EPSILON, DELTA, ERROR, WEIGHT, TARGET = 2, 3, 4, 5, 6, 7


class Mode(enum.Enum):
    SPLIT = "Split a budget (least largest weighted error)"
    TARGETS = "Least budget meeting the targets"


def plan_rows(batch: BatchPlan, n: int) -> list[tuple[str, str, str]]:
    """(ε, δ, predicted error in the data's terms) per release of the split plan."""
    return [
        (
            f"{r.cost.epsilon:.4g}",
            f"{r.cost.delta:.3g}",
            predicted_error_text(r.predicted_error, r.error_unit, n),
        )
        for r in batch.releases
    ]


def totals_text(batch: BatchPlan) -> str:
    """The plan's total under basic composition (what is reserved) and under the ledger's accountant."""
    return (
        f"Total: {format_cost(batch.total)} under basic composition (reserved at once); the ledger's "
        f"accountant (tight composition) charges {format_cost(batch.charged)}."
    )


def _unique(name: str, taken: set[str]) -> str:
    candidate, number = name, 2
    while candidate in taken:
        candidate, number = f"{name} ({number})", number + 1
    return candidate


class PlanView(QWidget):
    """Edit a release plan and see its split at the open dataset's row count; emits ``run_requested``."""

    run_requested = Signal(object)
    """The split :class:`BatchPlan` to run (the main window reviews it first)."""

    def __init__(self) -> None:
        super().__init__()
        self.releases: list[PlannedRelease] = []
        self.spec: TaskSpec | None = None
        """The Task page's current spec, which "Add this release" appends."""
        self.n: int | None = None
        self.path: Path | None = None
        self.batch: BatchPlan | None = None
        """The split of the plan as shown (None while it is being computed or when it has none)."""

        self.open_button = QPushButton("Open plan…")
        self.save_button = QPushButton("Save plan…")
        self.add_button = QPushButton("Add this release")
        self.add_button.setToolTip("Append the Task page's task, columns, domains and algorithm to the plan.")
        self.remove_button = QPushButton("Remove")
        self.run_button = QPushButton("Run plan…")
        self.mode = QComboBox()
        for mode in Mode:
            self.mode.addItem(mode.value, mode)
        # the longest mode's text would set the toolbar's (and so the window's) minimum width above 1024 px
        self.mode.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.mode.setMinimumContentsLength(12)
        self.mode.setToolTip("\n".join(mode.value for mode in Mode))
        self.mode.setAccessibleName("How the plan splits its budget")
        self.epsilon = NumberBox(MIN_EPSILON, MAX_EPSILON, 1.0)
        self.epsilon.setSingleStep(0.1)
        self.delta = QLineEdit("0")
        self.delta.setToolTip("The plan's δ, shared by the releases that can use it (auto, approximate DP).")
        self.delta.setMaximumWidth(90)
        self.epsilon.setAccessibleName("The plan's total ε")
        self.delta.setAccessibleName("The plan's δ")
        self.status = WrappingLabel("Add the current task, or open a release plan (TOML, see docs/plans.md).")
        self.table = QTableWidget(0, len(PLAN_COLUMNS))
        self.table.setHorizontalHeaderLabels(list(PLAN_COLUMNS))
        self.table.horizontalHeaderItem(PLAN_COLUMNS.index("Error bound")).setToolTip(ERROR_BOUND_TIP)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setAccessibleName("Releases of the plan")
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(ERROR, QHeaderView.ResizeMode.Stretch)
        self.summary = WrappingLabel()  # in a tab: a plain wrapped QLabel can lose its last lines
        self.calls = LatestCall(self)
        self.calls.done.connect(self._show_split)
        self.calls.failed.connect(lambda error: self._show_problem(str(error)))

        self.open_button.clicked.connect(self._choose_file)
        self.save_button.clicked.connect(self._choose_save)
        self.add_button.clicked.connect(self.add_current)
        self.remove_button.clicked.connect(self.remove_selected)
        self.run_button.clicked.connect(self._request_run)
        self.mode.currentIndexChanged.connect(self._mode_changed)
        self.epsilon.valueChanged.connect(self._split)
        self.delta.editingFinished.connect(self._split)
        self.table.itemChanged.connect(self._cell_edited)

        top = QHBoxLayout()
        for button in (self.open_button, self.save_button, self.add_button, self.remove_button):
            top.addWidget(button)
        top.addWidget(self.mode, 1)
        for text, field in (("ε:", self.epsilon), ("δ:", self.delta)):
            label = QLabel(text)
            label.setBuddy(field)
            top.addWidget(label)
            top.addWidget(field)
        bottom = QHBoxLayout()
        bottom.addWidget(self.summary, 1)
        bottom.addWidget(self.run_button)
        # a scroll area's default minimum and the tab's own margins made the Budget page (and so the window)
        # taller than 700 px: the table keeps room for its header and a row, the tab frame is the margin
        self.table.setMinimumHeight(56)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(3, 3, 3, 3)
        layout.addLayout(top)
        layout.addWidget(self.status)
        layout.addWidget(self.table, 1)
        layout.addLayout(bottom)
        self._update_buttons()

    # -- inputs from the window ----------------------------------------------------------------------------

    def show_spec(self, spec: TaskSpec | None, n: int | None) -> None:
        """The Task page's spec (what "Add this release" adds) and the open dataset's public row count."""
        self.spec = spec
        if n is not None and n != self.n:
            self.n = n
            self._split()
        self._update_buttons()

    @property
    def current_mode(self) -> Mode:
        return self.mode.currentData()

    def plan(self) -> ReleasePlan:
        """The plan as edited; raises PlanError (or ValueError for a bad δ) saying what is missing."""
        if not self.releases:
            raise PlanError("The plan is empty: add the current task or open a plan file.")
        try:
            delta = float(self.delta.text().strip() or "0")
            budget = PrivacyCost(self.epsilon.value(), delta)
        except ValueError:
            raise PlanError(f"δ {self.delta.text()!r} is not a number in [0, 1).") from None
        releases = tuple(
            dataclasses.replace(r, spec=dataclasses.replace(r.spec, delta=delta)) for r in self.releases
        )
        if self.current_mode is Mode.SPLIT:
            return ReleasePlan(releases, budget)
        missing = [r.name for r in releases if r.target_error is None]
        if missing:
            raise PlanError(f"Give every release a target error ({', '.join(missing)} has none).")
        return ReleasePlan(releases, None)

    # -- editing -------------------------------------------------------------------------------------------

    def open_plan(self, path: Path) -> None:
        """Load ``path`` into the editor (its budget, or its targets) and split it once n is known."""
        try:
            loaded = load_plan(path)
        except PlanError as error:
            self._show_problem(str(error))
            return
        self.path, self.releases = path, list(loaded.releases)
        self._set_budget(loaded.budget, loaded.releases[0].spec.delta)
        self._fill_table()
        self._split()

    def save_plan(self, path: Path) -> None:
        """Write the plan as edited to ``path`` (the TOML ``dpgui release batch`` reads)."""
        try:
            save_plan(self.plan(), path)
        except (PlanError, OSError) as error:
            self.status.setText(f"Not saved: {error}")
            return
        self.path = path
        self.status.setText(f"Saved {path.name}; run it here or with `dpgui release batch {path.name}`.")

    def add_current(self) -> None:
        """Append the Task page's spec (without its public sample, which a plan does not hold)."""
        if self.spec is None:
            return
        spec, note = self.spec, ""
        if spec.public is not None:
            spec, note = (
                dataclasses.replace(spec, public=None),
                " (without the public sample: plans hold none)",
            )
        name = _unique(f"{spec.kind.value} of {', '.join(spec.columns)}", {r.name for r in self.releases})
        target = None
        if self.current_mode is Mode.TARGETS:
            target = self.releases[-1].target_error if self.releases else None
        try:
            release = planned_release(name, dataclasses.replace(spec, epsilon=1.0), target_error=target)
        except PlanError as error:
            self.status.setText(str(error))
            return
        self.releases.append(release)
        self.status.setText(f"Added {name}{note}.")
        self._fill_table()
        self._split()

    def remove_selected(self) -> None:
        rows = sorted({index.row() for index in self.table.selectionModel().selectedRows()}, reverse=True)
        for row in rows:
            del self.releases[row]
        if rows:
            self._fill_table()
            self._split()

    def set_algorithm(self, row: int, name: str) -> None:
        release = self.releases[row]
        self.releases[row] = dataclasses.replace(release, spec=release.spec.with_algorithm(name))
        self._split()

    def _cell_edited(self, item: QTableWidgetItem) -> None:
        row, column = item.row(), item.column()
        if column not in (WEIGHT, TARGET) or row >= len(self.releases):
            return
        text = item.text().strip()
        try:
            value = None if column == TARGET and not text else float(text)
            if value is not None and not (math.isfinite(value) and value > 0):
                raise ValueError
        except ValueError:
            self.status.setText(f"{PLAN_COLUMNS[column]} must be a number > 0, got {text!r}.")
            self._fill_table()
            return
        field = "weight" if column == WEIGHT else "target_error"
        self.releases[row] = dataclasses.replace(self.releases[row], **{field: value})
        self._split()

    def _mode_changed(self) -> None:
        """Carry the other side over: targets from the predicted errors, or the budget the targets need."""
        batch = self.batch
        if batch is not None and self.current_mode is Mode.TARGETS:
            self.releases = [
                dataclasses.replace(r, target_error=float(f"{split.predicted_error:.4g}"))
                for r, split in zip(self.releases, batch.releases, strict=True)
            ]
        self.epsilon.setEnabled(self.current_mode is Mode.SPLIT)
        self._fill_table()
        self._split()

    def _set_budget(self, budget: PrivacyCost | None, delta: float) -> None:
        self.mode.blockSignals(True)
        self.mode.setCurrentIndex(list(Mode).index(Mode.TARGETS if budget is None else Mode.SPLIT))
        self.mode.blockSignals(False)
        self.epsilon.setEnabled(budget is not None)
        if budget is not None:
            self.epsilon.blockSignals(True)
            self.epsilon.setValue(budget.epsilon)
            self.epsilon.blockSignals(False)
        self.delta.setText(f"{delta:g}")

    # -- the table and the split ---------------------------------------------------------------------------

    def _fill_table(self) -> None:
        """One row per release: its name, task, algorithm choice, weight and target (split cells blank)."""
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.releases))
        for row, release in enumerate(self.releases):
            spec = release.spec
            cells = {
                0: release.name,
                1: f"{spec.kind.value} of {', '.join(spec.columns)}",
                WEIGHT: f"{release.weight:g}",
                TARGET: "" if release.target_error is None else f"{release.target_error:g}",
            }
            for column in range(len(PLAN_COLUMNS)):
                item = QTableWidgetItem(cells.get(column, ""))
                if column not in (WEIGHT, TARGET):
                    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
                self.table.setItem(row, column, item)
            self._algorithm_box(row, spec)
        self.table.blockSignals(False)
        if self.batch is not None:
            self._fill_split(self.batch)
        self._update_buttons()

    def _algorithm_box(self, row: int, spec: TaskSpec) -> None:
        """The row's choice of auto or one of its task's algorithms; a row's box is kept while its task's
        list stays the same (a box replaced is only deleted once the event loop runs)."""
        names = [AUTO, *(info.name for info in algorithms(spec.kind))]
        box = self.table.cellWidget(row, ALGORITHM)
        if not isinstance(box, QComboBox) or [box.itemText(i) for i in range(box.count())] != names:
            box = QComboBox()
            box.setAccessibleName(f"Algorithm of the plan's release {row + 1}")
            box.addItems(names)
            box.currentTextChanged.connect(lambda name, row=row: self.set_algorithm(row, name))
            self.table.setCellWidget(row, ALGORITHM, box)
        box.blockSignals(True)
        box.setCurrentText(spec.algorithm)
        box.blockSignals(False)

    def _split(self) -> None:
        """Recompute the split (in the pool) for the plan as edited."""
        self.batch = None
        self._update_buttons()
        if not self.releases:
            self.calls.drop()
            self.summary.clear()
            return
        if self.n is None:
            self._show_problem("Open the private data first: the split depends on its (public) row count.")
            return
        try:
            plan = self.plan()
        except PlanError as error:
            self._show_problem(str(error))
            return
        n = self.n
        self.status.setText(f"Splitting {len(plan.releases)} releases at n = {n:,}…")
        self.calls.submit(lambda: split_plan(plan, n))

    def _show_split(self, batch: BatchPlan) -> None:
        if len(batch.releases) != len(self.releases) or self.n is None:
            return
        self.batch = batch
        self._fill_split(batch)
        if self.current_mode is Mode.TARGETS:
            self.epsilon.blockSignals(True)
            self.epsilon.setValue(batch.total.epsilon)
            self.epsilon.blockSignals(False)
        self.status.setText(f"{batch.objective[:1].upper()}{batch.objective[1:]}, at n = {self.n:,}.")
        self.summary.setText(totals_text(batch))
        self._update_buttons()

    def _fill_split(self, batch: BatchPlan) -> None:
        assert self.n is not None
        self.table.blockSignals(True)
        for row, cells in enumerate(plan_rows(batch, self.n)):
            for column, text in zip((EPSILON, DELTA, ERROR), cells, strict=True):
                self.table.item(row, column).setText(text)
                self.table.item(row, column).setToolTip(text)
        self.table.blockSignals(False)

    def _show_problem(self, message: str) -> None:
        self.batch = None
        self.summary.clear()
        self.status.setText(message)
        self._update_buttons()

    def _update_buttons(self) -> None:
        self.add_button.setEnabled(self.spec is not None)
        self.remove_button.setEnabled(bool(self.releases))
        self.save_button.setEnabled(bool(self.releases))
        self.run_button.setEnabled(self.batch is not None)

    # -- files and running ---------------------------------------------------------------------------------

    def _choose_file(self) -> None:
        name, _ = QFileDialog.getOpenFileName(self, "Open a release plan", "", "Release plans (*.toml)")
        if name:
            self.open_plan(Path(name))

    def _choose_save(self) -> None:
        start = str(self.path) if self.path else "plan.toml"
        name, _ = QFileDialog.getSaveFileName(self, "Save the release plan", start, "Release plans (*.toml)")
        if name:
            self.save_plan(Path(name))

    def _request_run(self) -> None:
        if self.batch is not None:
            self.run_requested.emit(self.batch)
