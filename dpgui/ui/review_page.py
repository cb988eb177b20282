"""The Review & export page: the released table, a CDF step plot for CDF releases, and the export."""

from __future__ import annotations

import pandas as pd
import pyqtgraph as pg
from PySide6.QtCore import QBuffer, QIODevice, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from dpgui.release.project import ReleaseRecord
from dpgui.release.release import Release
from dpgui.tasks.registry import Guarantee
from dpgui.ui.budget_panel import format_cost
from dpgui.ui.dataframe_model import DataFrameModel
from dpgui.ui.run_page import cdf_plot

CDF_COLUMNS = ("value", "cdf")


def describe_release(release: Release) -> str:
    """'Released median of wage: 598 (ε = 1, pure DP)', or '… CDF of wage: 1,001 rows (…)' for tables."""
    table = release.table
    if {"statistic", "column", "value"} <= set(table.columns) and len(table.rows) == 1:
        statistic, column, value = (table.column(name)[0] for name in ("statistic", "column", "value"))
        shown = (
            f"{value:,.6g}" if isinstance(value, float) else f"{value:,}" if isinstance(value, int) else value
        )
        what = f"{statistic} of {column}: {shown}"
    else:
        what = f"{release.spec.kind.title} of {', '.join(release.spec.columns)}: {len(table.rows):,} rows"
    guarantee = "pure DP" if release.algorithm.guarantee is Guarantee.PURE else "approximate DP"
    private = "" if release.private else " — NOT PRIVATE (seeded randomness)"
    return f"Released {what} ({format_cost(release.cost)}, {guarantee}){private}"


class ReviewPage(QWidget):
    """Shows one committed :class:`Release`; ``export_requested`` asks the window for a folder."""

    export_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.release: Release | None = None
        self.headline = QLabel("No release yet.")
        self.details = QLabel("Released values appear here once their cost is charged to the ledger.")
        headline_font = QFont(self.headline.font())
        headline_font.setPointSizeF(headline_font.pointSizeF() * 1.3)
        headline_font.setBold(True)
        self.headline.setFont(headline_font)
        for label in (self.headline, self.details):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.model = DataFrameModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAlternatingRowColors(True)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.plot = cdf_plot("Released CDF")
        self.curve = self.plot.plot([], [], pen=pg.mkPen("#d62728", width=2))
        self.plot.hide()
        self.export_button = QPushButton("Export release…")
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self.export_requested)

        body = QHBoxLayout()
        body.addWidget(self.table, 2)
        body.addWidget(self.plot, 3)
        self.history = QListWidget()
        self.history.setMaximumHeight(90)
        self.history.setToolTip("The releases made in this session (saved in the project file).")
        footer = QHBoxLayout()
        footer.addWidget(self.history, 1)
        footer.addWidget(self.export_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.details)
        layout.addLayout(body, 1)
        layout.addLayout(footer)

    def show_release(self, release: Release) -> None:
        self.release = release
        table = release.table
        self.headline.setText(describe_release(release))
        notes = "".join(f"<br>• {note}" for note in table.notes)
        self.details.setText(
            f"{release.algorithm.title} ({release.algorithm.name}) · {release.dataset.n_rows:,} rows · "
            f"release {release.release_id[:8]} · charged to the ledger before display{notes}"
        )
        self.model.set_frame(pd.DataFrame(list(table.rows), columns=list(table.columns)))
        self.table.resizeColumnsToContents()
        is_cdf = tuple(table.columns[:2]) == CDF_COLUMNS
        self.plot.setVisible(is_cdf)
        if is_cdf:
            self.curve.setData(
                [float(v) for v in table.column("value")],
                [float(v) for v in table.column("cdf")],
                stepMode="right",
            )
        self.export_button.setEnabled(True)

    def show_history(self, records: list[ReleaseRecord]) -> None:
        """List the session's releases, newest first."""
        self.history.clear()
        for record in reversed(records):
            cost = f"ε = {record.epsilon:g}" + (f", δ = {record.delta:g}" if record.delta else "")
            exported = f" → {record.export_folder}" if record.export_folder else ""
            self.history.addItem(
                f"{record.created}  {record.task} ({record.algorithm}), {cost}  [{record.release_id[:8]}]"
                f"{exported}"
            )

    def plots(self) -> dict[str, bytes]:
        """The shown plot as PNG bytes for the report (caption -> PNG); empty when no plot is shown."""
        if self.plot.isHidden():
            return {}
        buffer = QBuffer()
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        self.plot.grab().save(buffer, "PNG")
        return {self.plot.plotItem.titleLabel.text or "Released values": bytes(buffer.data())}
