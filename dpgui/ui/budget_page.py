"""The Budget page: this release's (ε, δ), what ε means as odds, the planner's rows, its error against ε, a
simulation preview, and the ledger with its timeline."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLineEdit,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dpgui.numbers import readable
from dpgui.planner.plan import PlanRow
from dpgui.privacy.budget_words import entry_status
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetEvent, BudgetState, LedgerEntry
from dpgui.release.staging import files_left
from dpgui.tasks.plain_words import plain_words
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import MAX_EPSILON, MIN_EPSILON, TaskSpec
from dpgui.ui.budget_panel import BudgetPanel, format_cost
from dpgui.ui.budget_timeline import BudgetTimeline
from dpgui.ui.error_curve_view import ErrorCurveView
from dpgui.ui.help_mark import glossary, help_label
from dpgui.ui.number_box import NumberBox
from dpgui.ui.plan_view import PlanView
from dpgui.ui.scroll_page import scroll_page
from dpgui.ui.simulation_view import SimulationView
from dpgui.ui.wrapping_label import WrappingLabel

PLAN_COLUMNS = ("Algorithm", "Privacy", "Error bound", "Simulated error", "Unit", "Min n", "Feasible", "Auto")
PLAN_NOTE = (
    "Auto (✓) ranks by the simulated error where there is one, else by the error bound; hover a column's "
    "name for its meaning."
)
"""One line above the planner table (a two-line note was cut by the crowded page); the columns' header
tooltips (``PLAN_HEADER_TIPS``) say the rest."""
PLAN_HEADER_TIPS = {
    "Error bound": "What the algorithm guarantees with probability 1 − β at the declared domain and n.",
    "Simulated error": "Its mean error on simulated data of the same shape (public facts only).",
    "Min n": "The fewest rows that meet the algorithm's preconditions (and the target error, if one is set).",
    "Auto": "The algorithm auto picks: the least simulated error where there is one, else the least bound.",
}
ALGORITHM_WIDTH = 190
"""The planner table's algorithm column (px): its plain names wrap within it."""
PART_COLUMNS = ("Algorithm", "Part", "Predicted error", "Unit", "Assuming")
"""The planner's error part by part (a synthetic table: per marginal)."""
LEDGER_COLUMNS = ("Time", "Release", "Cost", "Account", "Status")
LEDGER_HEADER_TIPS = {
    "Cost": "The release's (ε, δ) and, in brackets, how the accountant composes it: [pure-epsilon] a pure ε "
    "as it stands; [pld] its noise, composed tightly with the others' (privacy loss distributions); [zcdp] "
    "a zCDP ρ; [epsilon-delta] an (ε, δ) as it stands.",
    "Account": "replace-one: the dataset's budget, every record protected; labels-only: the label-private "
    "learner's releases, which protect the labels only.",
}
"""The ledger table's header tooltips: its cost tags and accounts (a GUI audit found them unexplained)."""
SPLIT_UNIT = 100
"""The planner and the ledger share the page's height 3 : 2."""


def odds_text(epsilon: float) -> str:
    """ε as odds: an observer's odds about any one person change by at most a factor e^ε."""
    factor = math.exp(epsilon) if epsilon < 700 else math.inf
    if 0 < epsilon < 0.1:  # "× 1" at ε = 0.001 (a GUI audit): enough decimals to show it is not 1
        shown = f"{factor:.{math.ceil(-math.log10(epsilon)) + 2}f}".rstrip("0")
    else:
        shown = f"{factor:,.3g}"
    return (
        f"ε = {epsilon:g}: an observer's odds about any one person change by at most × {shown} "
        f"(e^ε), whatever else they know."
    )


def best_error(rows: list[PlanRow] | None) -> float | None:
    """The smallest predicted error among the feasible rows (None without one)."""
    errors = [row.predicted_error for row in rows or [] if row.feasible]
    return min(errors, default=None)


def _tabs(pages: dict[str, QWidget]) -> QTabWidget:
    tabs = QTabWidget()
    for title, page in pages.items():
        tabs.addTab(page, title)
    return tabs


def _table(headers: tuple[str, ...], stretch: str, *, wrapped: bool = True) -> QTableWidget:
    """A read-only table whose ``stretch`` column takes the spare width and whose rows are as tall as their
    wrapped text (the planner's long 'Feasible' reasons were cut to '…' at 1024 x 700). Not ``wrapped``:
    every row is one line high and a long cell ends in '…', its whole text in the tooltip; measuring every
    row's wrapped height at each refresh took seconds on a ledger of thousands
    (benchmarks/ledger_table.md)."""
    table = QTableWidget(0, len(headers))
    table.setHorizontalHeaderLabels(list(headers))
    table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
    table.setTabKeyNavigation(False)  # Tab leaves the table (a ledger of thousands); the arrows go through it
    table.setWordWrap(wrapped)
    table.setVerticalScrollMode(QTableWidget.ScrollMode.ScrollPerPixel)  # a tall row scrolls into view
    # a scroll bar that came and went with the wrapped rows' heights narrowed the stretched column after the
    # rows were sized for it: their last lines were cut
    table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
    rows = table.verticalHeader()
    rows.setVisible(False)
    rows.setMinimumSectionSize(table.fontMetrics().height() + 8)  # as the Data page's rows
    rows.setDefaultSectionSize(rows.minimumSectionSize())
    mode = QHeaderView.ResizeMode.ResizeToContents if wrapped else QHeaderView.ResizeMode.Fixed
    rows.setSectionResizeMode(mode)
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    table.horizontalHeader().setSectionResizeMode(headers.index(stretch), QHeaderView.ResizeMode.Stretch)
    return table


Cell = str | tuple[str, str]
"""A table cell's text, or its (text, tooltip) when the tooltip says more."""


def _fill(table: QTableWidget, rows: Sequence[tuple[Cell, ...]]) -> None:
    table.setRowCount(len(rows))
    for r, row in enumerate(rows):
        for c, cell in enumerate(row):
            text, tip = (cell, cell) if isinstance(cell, str) else cell
            item = QTableWidgetItem(text)
            item.setToolTip(tip)
            table.setItem(r, c, item)


def _status(entry: LedgerEntry) -> tuple[str, str]:
    """The ledger table's status of a release and its tooltip: a committed release whose files are still
    where dpgui put them before the commit (``staging.files_left``: the app's copy of a release not
    exported, or a staging folder a crash left) says so, and the tooltip where."""
    left = files_left(entry.files)
    if left is None:
        words, meaning = entry_status(entry)
        return words, meaning[0].upper() + meaning[1:]
    if left.kept_by_app:
        return f"{entry.status.value}, not exported", f"Not exported yet: its files are kept in {left.folder}"
    return (
        f"{entry.status.value}, files not moved",
        f"Its files were left in {left.folder}, not moved to {left.target}",
    )


def _total_row(event: BudgetEvent) -> tuple[str, ...]:
    """A change of the dataset's total as a ledger-table row."""
    change = "set" if event.previous is None else f"changed from {format_cost(event.previous)}"
    note = f" ({event.note})" if event.note else ""
    status = "exhausted: no more releases" if event.exhausted else "total"
    return (
        f"{event.time:%Y-%m-%d %H:%M:%S}",
        f"total budget {change}{note}",
        format_cost(event.total),
        "",
        status,
    )


class BudgetPage(QWidget):
    """The dataset's budget panel, this release's ε and δ, the planner's views and the ledger's views."""

    def __init__(self) -> None:
        super().__init__()
        self.panel = BudgetPanel()
        self.epsilon = NumberBox(MIN_EPSILON, MAX_EPSILON, 1.0)
        self.epsilon.setSingleStep(0.1)
        self.epsilon.setAccessibleName("Epsilon (ε) of this release")
        self.delta = QLineEdit("0")
        self.delta.setAccessibleName("Delta (δ) of this release")
        self.delta.setToolTip("0 for pure DP; approximate-DP algorithms need a small δ such as 1e-6.")
        self.odds = WrappingLabel()
        self.plan_status = WrappingLabel()
        self.plan_table = _table(PLAN_COLUMNS, "Feasible")
        names = self.plan_table.horizontalHeader()  # the Task page's names, some 50 characters: wrapped
        names.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.plan_table.setColumnWidth(0, ALGORITHM_WIDTH)
        for column, tip in PLAN_HEADER_TIPS.items():
            self.plan_table.horizontalHeaderItem(PLAN_COLUMNS.index(column)).setToolTip(tip)
        self.parts_table = _table(PART_COLUMNS, "Assuming")
        self.ledger_table = _table(LEDGER_COLUMNS, "Release", wrapped=False)
        for column, tip in LEDGER_HEADER_TIPS.items():
            self.ledger_table.horizontalHeaderItem(LEDGER_COLUMNS.index(column)).setToolTip(tip)
        self.curve = ErrorCurveView()
        self.simulation = SimulationView()
        self.timeline = BudgetTimeline()
        self.plan_view = PlanView()
        self.planner_tabs = _tabs(
            {
                "Planner table": self.plan_table,
                "Per marginal": self.parts_table,
                "Error vs ε": self.curve,
                "Simulation": self.simulation,
                "Release plan": self.plan_view,
            }
        )
        self.ledger_tabs = _tabs({"Ledger table": self.ledger_table, "Timeline": self.timeline})
        for widget, text in (
            (self.plan_table, "Planner table: predicted error of each algorithm"),
            (self.parts_table, "Predicted error per marginal"),
            (self.ledger_table, "Ledger table of this dataset"),
            (self.planner_tabs, "Planner views"),
            (self.ledger_tabs, "Ledger views"),
        ):
            widget.setAccessibleName(text)

        release = QGroupBox("This release")
        fields = QFormLayout(release)
        for text, term, field in (
            ("Epsilon (ε):", "ε (epsilon)", self.epsilon),
            ("Delta (δ):", "δ (delta)", self.delta),
        ):
            label = help_label(text, glossary(term))
            label.setBuddy(field)
            fields.addRow(label, field)
        fields.addRow(self.odds)
        top = QHBoxLayout()
        top.addWidget(release, 1)
        top.addWidget(self.panel, 1)
        planner = QGroupBox("Planner: predicted accuracy before any data is read")
        planner_layout = QVBoxLayout(planner)
        planner_layout.addWidget(self.plan_status)
        planner_layout.addWidget(self.planner_tabs)
        self.labels_only = WrappingLabel()
        self.labels_only.setVisible(False)
        ledger = QGroupBox("Ledger of this dataset")
        ledger_layout = QVBoxLayout(ledger)
        ledger_layout.addWidget(self.ledger_tabs)
        ledger_layout.addWidget(self.labels_only)
        self.splitter = QSplitter(Qt.Orientation.Vertical)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.addWidget(planner)
        self.splitter.addWidget(ledger)
        self.splitter.setSizes([3 * SPLIT_UNIT, 2 * SPLIT_UNIT])
        layout = QVBoxLayout()
        layout.addLayout(top)
        layout.addWidget(self.splitter, 1)
        self.scroll = scroll_page(self, layout, "Budget page")
        """The page scrolls when the window is too short for the panel's wrapped lines and the plots' least
        heights (at 1024 x 700 the plots had 40 to 70 px; the wrapped lines made the window 721 px tall)."""
        self.epsilon.valueChanged.connect(self._update_odds)
        self._update_odds()

    def cost(self) -> PrivacyCost:
        """This release's (ε, δ) as typed; raises ValueError for a δ that is not a number in [0, 1)."""
        try:
            delta = float(self.delta.text().strip() or "0")
        except ValueError:
            raise ValueError(f"δ {self.delta.text()!r} is not a number.") from None
        return PrivacyCost(self.epsilon.value(), delta)

    def show_plan(self, rows: list[PlanRow] | None, problem: str = "") -> None:
        """The planner's rows for the current spec and n, or why there are none."""
        self.plan_status.setText(problem or PLAN_NOTE)
        _fill(
            self.plan_table,
            [
                (
                    (  # the Task page's name; the registry's (the CLI's --algorithm) in the tooltip
                        plain_words(get_algorithm(row.algorithm)).name,
                        f"{row.title} (--algorithm {row.algorithm})",
                    ),
                    "pure" if row.pure else "approx",
                    readable(row.predicted_error)
                    if row.feasible and math.isfinite(row.predicted_error)
                    else "—",
                    "—" if row.simulated_error is None else readable(row.simulated_error),
                    row.error_unit,
                    "—" if row.min_n is None else f"{row.min_n:,}",
                    "yes" if row.feasible else f"no: {row.reason}",
                    "✓" if row.auto else "",
                )
                for row in rows or []
            ],
        )
        _fill(
            self.parts_table,
            [
                (row.algorithm, part.part, readable(part.error), part.unit, part.how)
                for row in rows or []
                for part in row.parts
            ],
        )
        self.planner_tabs.setTabVisible(
            self.planner_tabs.indexOf(self.parts_table), self.parts_table.rowCount() > 0
        )
        self.curve.show_best(best_error(rows))

    def show_spec(self, spec: TaskSpec | None, n: int | None) -> None:
        """The error curve and the simulation preview for the spec at the public row count n (or none)."""
        self.curve.show_spec(spec, n)
        self.simulation.show_spec(spec, n)
        self.plan_view.show_spec(spec, n)

    def show_ledger(
        self,
        entries: list[LedgerEntry],
        total: PrivacyCost | None = None,
        labels_only: BudgetState | None = None,
        budget_events: Sequence[BudgetEvent] = (),
    ) -> None:
        """The dataset's reservations and changes of its total as a table (oldest first), the replace-one
        account's reservations as a timeline of cumulative ε against ``total``, and the labels-only
        account's spend apart (shown once it has any entry)."""
        self.timeline.show_timeline([e for e in entries if e.account is Account.REPLACE_ONE], total)
        rows = [
            (
                entry.time,
                (
                    f"{entry.time:%Y-%m-%d %H:%M:%S}",
                    entry.description,
                    format_cost(entry.cost) + (f"  [{entry.curve.form}]" if entry.curve is not None else ""),
                    entry.account.value,
                    _status(entry),
                ),
            )
            for entry in entries
        ] + [(event.time, _total_row(event)) for event in budget_events]
        _fill(self.ledger_table, [row for _, row in sorted(rows, key=lambda pair: pair[0])])
        shown = labels_only is not None and any(e.account is Account.LABELS_ONLY for e in entries)
        self.labels_only.setVisible(shown)
        if shown:
            self.labels_only.setText(
                f"Labels-only account (the label-private learner; a change of one row's features is not "
                f"protected, so the total above does not count it; this account counts it with every "
                f"release above, which protects the labels too): spent {format_cost(labels_only.spent)}."
            )

    def _update_odds(self) -> None:
        self.odds.setText(odds_text(self.epsilon.value()))
