"""The main window: the private dataset (custodian-only), the median form, the release and the budget."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pandas as pd
from PySide6.QtCore import QCoreApplication, Qt, QThreadPool
from PySide6.QtGui import QAction, QCloseEvent, QFont, QKeySequence
from PySide6.QtWidgets import (
    QFileDialog,
    QFormLayout,
    QGroupBox,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from dpgui import APP_NAME, __version__
from dpgui.data import (
    SUPPORTED_SUFFIXES,
    ColumnKind,
    DataError,
    Dataset,
    load_table,
    open_dataset,
    suggest_domain,
    summarize_columns,
)
from dpgui.jobs.release_job import ReleaseJob
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetNotSet, DatasetRecord, Ledger, LedgerError
from dpgui.release.release import Release
from dpgui.tasks.registry import Guarantee
from dpgui.tasks.runner import PreconditionFailed
from dpgui.ui.budget_panel import BudgetPanel, format_cost
from dpgui.ui.dataframe_model import DataFrameModel
from dpgui.ui.icon import app_icon
from dpgui.ui.median_form import MedianForm

PUBLIC_UNIT_NOTES = {
    ("cps1985.csv", "wage"): "cps1985 wage is hourly (the cps1988 demo wage is weekly): scale before use.",
}
"""Known unit differences between a public sample's column and the demo's private one."""

_SHA_PREFIX = 12
_REFUSALS = (LedgerError, PreconditionFailed, ValueError)  # DataError is a ValueError


def describe_release(release: Release) -> str:
    """'Released median of wage: 598 (ε = 1, pure DP)' for the first row of the release table."""
    statistic, column, value = (release.table.column(name)[0] for name in ("statistic", "column", "value"))
    shown = f"{value:,.6g}" if isinstance(value, float) else f"{value:,}" if isinstance(value, int) else value
    guarantee = "pure DP" if release.algorithm.guarantee is Guarantee.PURE else "approximate DP"
    private = "" if release.private else " — NOT PRIVATE (seeded randomness)"
    return f"Released {statistic} of {column}: {shown} ({format_cost(release.cost)}, {guarantee}){private}"


def _file_filter() -> str:
    patterns = " ".join(f"*{suffix}" for suffix in sorted(SUPPORTED_SUFFIXES))
    return f"Data files ({patterns});;All files (*)"


def _numeric_columns(frame: pd.DataFrame) -> list[str]:
    return [column.name for column in summarize_columns(frame) if column.kind is ColumnKind.NUMERIC]


class MainWindow(QMainWindow):
    """One private dataset, an optional public sample, the median task and the dataset's budget."""

    def __init__(self, ledger: Ledger | None = None) -> None:
        super().__init__()
        self.setWindowTitle(APP_NAME)
        self.setWindowIcon(app_icon())
        self.ledger = ledger if ledger is not None else Ledger()
        self.dataset: Dataset | None = None
        self.record: DatasetRecord | None = None
        self.public: pd.DataFrame | None = None
        self.current_job: ReleaseJob | None = None

        self.preview_model = DataFrameModel()
        self.median_form = MedianForm()
        self.budget_panel = BudgetPanel()
        self.result_label = QLabel("No release yet.")
        self.result_details = QLabel("Released values appear here once their cost is charged to the ledger.")
        self.setCentralWidget(self._build_central())
        self._build_menus()

        self.median_form.run_requested.connect(self.start_release)
        self.median_form.cancel_requested.connect(self.cancel_release)
        self.median_form.suggest_requested.connect(self._suggest_bounds)
        self.budget_panel.set_total_requested.connect(self._ask_total_budget)
        self.statusBar().showMessage("Open a private dataset to begin (File > Open private dataset…).")

    # -- building ------------------------------------------------------------------------------------------

    def _build_central(self) -> QWidget:
        self.file_label = QLabel("—")
        self.rows_label = QLabel("—")
        self.sha_label = QLabel("—")
        self.public_label = QLabel("none")
        for label in (self.file_label, self.rows_label, self.sha_label, self.public_label):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        facts = QFormLayout()
        facts.addRow("File:", self.file_label)
        facts.addRow("Rows:", self.rows_label)
        facts.addRow("SHA-256:", self.sha_label)
        facts.addRow("Public sample:", self.public_label)

        warning = QLabel("Custodian-only preview — never exported")
        warning_font = QFont(warning.font())
        warning_font.setBold(True)
        warning.setFont(warning_font)
        table = QTableView()
        table.setModel(self.preview_model)
        table.setAlternatingRowColors(True)
        table.setSelectionMode(QTableView.SelectionMode.NoSelection)
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 8)
        table.horizontalHeader().setStretchLastSection(True)
        table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        table.horizontalHeader().setResizeContentsPrecision(200)  # never scan a million rows for widths
        self.preview = table

        data_box = QGroupBox("Private dataset")
        data_layout = QVBoxLayout(data_box)
        data_layout.addLayout(facts)
        data_layout.addWidget(warning)
        data_layout.addWidget(table, 1)

        result_font = QFont(self.result_label.font())
        result_font.setPointSizeF(result_font.pointSizeF() * 1.4)
        result_font.setBold(True)
        self.result_label.setFont(result_font)
        for label in (self.result_label, self.result_details):
            label.setWordWrap(True)
            label.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.MinimumExpanding)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        result_box = QGroupBox("Release")
        result_layout = QVBoxLayout(result_box)
        result_layout.addWidget(self.result_label)
        result_layout.addWidget(self.result_details)

        side = QWidget()
        side_layout = QVBoxLayout(side)
        side_layout.setContentsMargins(0, 0, 0, 0)
        side_layout.addWidget(self.median_form)
        side_layout.addWidget(result_box)
        side_layout.addWidget(self.budget_panel)
        side_layout.addStretch(1)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(data_box)
        splitter.addWidget(side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setChildrenCollapsible(False)
        central = QWidget()
        central_layout = QVBoxLayout(central)
        central_layout.addWidget(splitter)
        return central

    def _build_menus(self) -> None:
        file_menu = self.menuBar().addMenu("&File")
        self._add_action(
            file_menu, "&Open private dataset…", self._choose_private, QKeySequence.StandardKey.Open
        )
        self._add_action(file_menu, "Open &public sample…", self._choose_public, QKeySequence("Ctrl+Shift+O"))
        file_menu.addSeparator()
        self._add_action(file_menu, "&Quit", self.close, QKeySequence.StandardKey.Quit)
        help_menu = self.menuBar().addMenu("&Help")
        self._add_action(help_menu, "&About dpgui", self._about)

    def _add_action(
        self,
        menu: QMenu,
        text: str,
        slot: Callable[[], object],
        shortcut: QKeySequence | QKeySequence.StandardKey | None = None,
    ) -> None:
        action = QAction(text, self)
        if shortcut is not None:
            action.setShortcut(shortcut)
        action.triggered.connect(slot)
        menu.addAction(action)

    # -- files ---------------------------------------------------------------------------------------------

    def load_private(self, path: Path) -> None:
        """Open the private dataset (raises DataError) and register it in the ledger."""
        dataset = open_dataset(path)
        self.record = self.ledger.open_dataset(dataset.path, dataset.sha256)
        self.dataset = dataset
        self.preview_model.set_frame(dataset.frame)
        self.preview.resizeColumnsToContents()
        self.file_label.setText(dataset.name)
        self.rows_label.setText(f"{dataset.n_rows:,}")
        self.sha_label.setText(f"{dataset.sha256[:_SHA_PREFIX]}…")
        self.sha_label.setToolTip(dataset.sha256)
        self.median_form.set_columns(_numeric_columns(dataset.frame))
        self.refresh_budget()
        changed = " (its bytes changed since last time; the budget continues)" if self.record.changed else ""
        self.statusBar().showMessage(f"Opened {dataset.name}{changed}.")

    def load_public(self, path: Path) -> None:
        """Open a public sample, used only to suggest domain bounds (raises DataError)."""
        path = Path(path)
        self.public = load_table(path)
        columns = _numeric_columns(self.public)
        notes = {column: note for (name, column), note in PUBLIC_UNIT_NOTES.items() if name == path.name}
        self.median_form.set_public_columns(columns, notes)
        self.public_label.setText(f"{path.name} ({len(self.public):,} rows, public)")

    def _choose_private(self) -> None:
        self._choose_file("Open private dataset", self.load_private)

    def _choose_public(self) -> None:
        self._choose_file("Open public sample", self.load_public)

    def _choose_file(self, title: str, load: Callable[[Path], None]) -> None:
        name, _ = QFileDialog.getOpenFileName(self, title, "", _file_filter())
        if not name:
            return
        try:
            load(Path(name))
        except (DataError, OSError) as error:
            self._show_error("Cannot open the file", str(error))

    def _suggest_bounds(self, column: str) -> None:
        if self.public is None:
            return
        try:
            domain = suggest_domain(self.public[column].to_numpy(dtype=float, na_value=float("nan")))
        except DataError as error:
            self._show_error("No suggestion", str(error))
            return
        self.median_form.declare(column, domain)
        self.statusBar().showMessage(f"Bounds for {column} suggested from the public sample.")

    # -- releases ------------------------------------------------------------------------------------------

    def start_release(self) -> None:
        """Reserve the budget and start the median run in the worker; refusals are shown, nothing runs."""
        if self.dataset is None:
            self._show_error("No dataset", "Open a private dataset first.")
            return
        try:
            job = ReleaseJob(self.median_form.spec(), self.dataset, self.ledger, parent=self)
        except _REFUSALS as refusal:
            hint = (
                "\n\nUse “Set total budget…” in the budget panel."
                if isinstance(refusal, BudgetNotSet)
                else ""
            )
            self._show_error("Release refused", f"{refusal}{hint}")
            return
        job.progress.connect(self._show_progress)
        job.released.connect(self._on_released)
        job.failed.connect(self._on_failed)
        job.cancelled.connect(self._on_cancelled)
        self.current_job = job
        self.median_form.set_running(True)
        self.median_form.show_progress(0.0)
        self.refresh_budget()
        job.start()

    def cancel_release(self) -> None:
        """Ask the running job to stop (the budget stays charged once it has read the data)."""
        if self.current_job is not None:
            self.current_job.cancel()
            self.statusBar().showMessage("Cancelling…")

    def _show_progress(self, fraction: float, message: str) -> None:
        self.median_form.show_progress(fraction)
        self.statusBar().showMessage(message)

    def _on_released(self, release: Release) -> None:
        self.result_label.setText(describe_release(release))
        self.result_details.setText(
            f"{release.algorithm.title} · {release.dataset.n_rows:,} rows · release {release.release_id[:8]}"
            f" · charged to the ledger before display"
        )
        self._job_ended("Released; the cost is committed in the ledger.")

    def _on_failed(self, message: str) -> None:
        self._job_ended("The run failed.")
        self._show_error("Release failed", message)

    def _on_cancelled(self) -> None:
        touched = self.current_job is not None and self.current_job.touched
        self._job_ended(
            "Cancelled after reading the data: the cost stays spent."
            if touched
            else "Cancelled before reading the data: the cost was refunded."
        )

    def _job_ended(self, status: str) -> None:
        self.current_job = None
        self.median_form.set_running(False)
        self.refresh_budget()
        self.statusBar().showMessage(status)

    # -- budget --------------------------------------------------------------------------------------------

    def refresh_budget(self) -> None:
        """Re-read the open dataset's budget from the ledger."""
        self.budget_panel.show_state(self.ledger.state(self.record.id) if self.record else None)

    def _ask_total_budget(self) -> None:
        if self.record is None:
            return
        current = self.ledger.state(self.record.id).total
        epsilon, ok = QInputDialog.getDouble(
            self,
            "Total budget",
            "Total ε for this dataset:",
            current.epsilon if current else 1.0,
            0.0,
            1e6,
            4,
        )
        if not ok:
            return
        delta_text, ok = QInputDialog.getText(
            self,
            "Total budget",
            "Total δ (0 for pure DP only):",
            text=f"{current.delta:g}" if current else "0",
        )
        if not ok:
            return
        try:
            total = PrivacyCost(epsilon, float(delta_text))
        except ValueError as error:
            self._show_error("Invalid budget", str(error))
            return
        raising = current is not None and (total.epsilon > current.epsilon or total.delta > current.delta)
        if raising and not self._confirm_raise(current, total):
            return
        self.ledger.set_total(self.record.id, total, note="set in the GUI")
        self.refresh_budget()

    def _confirm_raise(self, current: PrivacyCost, total: PrivacyCost) -> bool:
        answer = QMessageBox.question(
            self,
            "Raise the total budget?",
            f"Raise the total from {format_cost(current)} to {format_cost(total)}?\n\n"
            "A larger total weakens the privacy promise made to the people in this dataset. "
            "The change is recorded in the ledger.",
        )
        return answer == QMessageBox.StandardButton.Yes

    # -- misc ----------------------------------------------------------------------------------------------

    def _show_error(self, title: str, message: str) -> None:
        QMessageBox.critical(self, title, message)

    def _about(self) -> None:
        QMessageBox.about(
            self,
            f"About {APP_NAME}",
            f"<b>{APP_NAME} {__version__}</b><p>Differentially private releases of a sensitive dataset, "
            "with a tamper-evident budget ledger.</p><p>The private data is shown only to you, the "
            "custodian; only DP releases leave the app.</p>",
        )

    def closeEvent(self, event: QCloseEvent) -> None:
        """Stop a running job and let it settle in the ledger before the window goes."""
        if self.current_job is not None:
            self.current_job.cancel()
            QThreadPool.globalInstance().waitForDone()
            QCoreApplication.sendPostedEvents()
        super().closeEvent(event)
