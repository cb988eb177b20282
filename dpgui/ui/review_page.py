"""The Review & export page: the released table, a plot of the release (and, on request, a custodian-only
layer), and the export."""

from __future__ import annotations

import html
import io
import numbers

import pandas as pd
import pyqtgraph as pg
from pyqtgraph.exporters import ImageExporter
from PySide6.QtCore import QBuffer, QIODevice, QPointF, QRectF, QSizeF, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from dpgui.data.fingerprint import keyed_fingerprint
from dpgui.numbers import readable
from dpgui.release.project import ReleaseRecord
from dpgui.release.release import Release
from dpgui.tasks.registry import Guarantee
from dpgui.tasks.spec import TaskKind
from dpgui.tasks.table import synthetic_csv, synthetic_rows
from dpgui.ui.budget_panel import format_cost
from dpgui.ui.custodian_layers import CustodianSource, custodian_layer_for, remove_export_action
from dpgui.ui.dataframe_model import DataFrameModel, fit_columns
from dpgui.ui.disclosure import disclosure_button
from dpgui.ui.distance_explorer import DistanceExplorer
from dpgui.ui.release_plots import Drawing, draw_release, release_plot, whole_width
from dpgui.ui.scroll_page import scroll_page
from dpgui.ui.table_review import SyntheticTableView
from dpgui.ui.theme import export_colours
from dpgui.ui.wrapping_label import WrappingLabel

PREVIEW_ROWS = 200
"""Synthetic rows shown on the page for a synthetic-table release."""
NOTES_SHOWN = 4
"""Notes listed under the headline; the rest (a table release has one per measured marginal) sit behind a
disclosure, so the plots keep their room at 1280 x 800."""
SPLIT = (2, 3)
"""Widths of the table side and the plot side when a release is shown; the custodian drags the handle."""
HISTORY_ROWS = 6
"""The session's releases listed before the list scrolls."""
MEASURED_TAB = "Measured marginals"
SYNTHETIC_TAB = "Synthetic rows: 1-way and 2-way"
"""The plot side's tabs for a synthetic-table release: AIM's or MST's budget and fit per marginal, and the
distributions of the synthetic rows."""
EXPORT_SIZE = QSizeF(900, 520)
"""The size a release's plot is laid out at for the report."""
EXPORT_WIDTH = 900
"""Pixels across an exported plot (pyqtgraph's ImageExporter keeps the plot's aspect ratio)."""


def lay_out(plot: pg.PlotWidget) -> None:
    """Give a never-shown plot the geometry of :data:`EXPORT_SIZE` (a shown one gets it from its window)."""
    area = QRectF(QPointF(0, 0), EXPORT_SIZE)
    plot.resize(EXPORT_SIZE.toSize())
    plot.plotItem.setGeometry(area)
    plot.setSceneRect(area)


def plot_png(plot: pg.PlotWidget) -> bytes:
    """A plot's scene rendered by pyqtgraph's ImageExporter at :data:`EXPORT_WIDTH`, as PNG bytes."""
    exporter = ImageExporter(plot.scene())
    exporter.parameters()["width"] = EXPORT_WIDTH
    image = exporter.export(toBytes=True)
    buffer = QBuffer()
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return bytes(buffer.data())


_NO_SOURCE = "The private data is not held in memory, so the custodian-only layer cannot be drawn."
_OTHER_FILE = "The open private file is not the one this release was made from."
_CUSTODIAN_TIP = "Drawn from the private data for you only: never exported, never part of the report."


def describe_release(release: Release) -> str:
    """'Released median of wage: 598 (ε = 1, pure DP)', or '… CDF of wage: 1,001 rows (…)' for tables."""
    table = release.table
    if {"statistic", "column", "value"} <= set(table.columns) and len(table.rows) == 1:
        statistic, column, value = (table.column(name)[0] for name in ("statistic", "column", "value"))
        units = {
            c: getattr(d, "unit", "") for c, d in zip(release.spec.columns, release.spec.domains, strict=True)
        }
        unit = f" {units[column]}" if units.get(column) and isinstance(value, numbers.Real) else ""
        what = f"{statistic} of {column}: {readable(value)}{unit}"  # with the declared unit (a GUI audit)
    else:
        rows = len(table.rows)
        if release.spec.kind is TaskKind.TABLE:  # its rows list the marginals; synthetic.csv is the table
            size = f"{synthetic_rows(release.spec, release.dataset.n_rows):,} synthetic rows"
        elif rows == 0 and table.attachments:
            size = "a structure that answers any query"
        else:
            size = f"{rows:,} row" + ("" if rows == 1 else "s")
        what = f"{release.spec.subject}: {size}"
    pure = release.algorithm.guarantee_for(release.spec) is Guarantee.PURE
    guarantee = "pure DP" if pure else "approximate DP"
    private = "" if release.private else " — NOT PRIVATE (seeded randomness)"
    return f"Released {what} ({format_cost(release.cost)}, {guarantee}){private}"


class ReviewPage(QWidget):
    """Shows one committed :class:`Release`; ``export_requested`` asks the window for a folder."""

    export_requested = Signal()
    release_chosen = Signal(str)
    """The custodian picked a release (by id) in the session's list: show it, and export it on request."""

    def __init__(self) -> None:
        super().__init__()
        self.release: Release | None = None
        self.headline = WrappingLabel("No release yet.")
        self.details = WrappingLabel("Released values appear here once their cost is charged to the ledger.")
        headline_font = QFont(self.headline.font())
        headline_font.setPointSizeF(headline_font.pointSizeF() * 1.3)
        headline_font.setBold(True)
        self.headline.setFont(headline_font)
        self.more_details = WrappingLabel()
        self.more_button = disclosure_button(
            "More notes", "The release's other notes (the report lists them all)", self.more_details
        )
        self.more_button.hide()
        for label in (self.headline, self.details, self.more_details):
            label.setWordWrap(True)
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # the headline is a tab stop, the page's first: a screen reader speaks what was released
        self.headline.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        self.headline.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.model = DataFrameModel(formatter=readable)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setAlternatingRowColors(True)
        self.table.setTabKeyNavigation(False)  # Tab leaves a 2^16-row CDF; the arrows go through it
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.horizontalHeader().setResizeContentsPrecision(50)  # a 2^16-row CDF: widths from 50 rows
        self.preview_model = DataFrameModel()
        self.preview = QTableView()
        self.preview.setModel(self.preview_model)
        self.preview.setAlternatingRowColors(True)
        self.preview.setTabKeyNavigation(False)
        self.preview.setToolTip(f"The first {PREVIEW_ROWS} synthetic rows (synthetic.csv has them all).")
        self.preview.hide()
        self.plot = release_plot()
        remove_export_action(self.plot)  # it could write the custodian-only layers to a file
        self.plot.hide()
        self.drawing: Drawing | None = None
        """The DP items on the plot (by role); custodian-only items are in ``custodian_items``."""
        self.custodian_items: dict[str, object] = {}
        self._custodian_source: CustodianSource | None = None
        self.custodian_box = QCheckBox()
        self.custodian_box.hide()
        self.custodian_box.toggled.connect(self._redraw)
        self.distance_explorer = DistanceExplorer()
        self.distance_explorer.hide()
        self.synthetic_view = SyntheticTableView()
        self.synthetic_view.hide()  # until a table release: no "Synthetic rows" tab on an empty page
        self.export_button = QPushButton("Export release…")
        self.export_button.setEnabled(False)
        self.export_button.clicked.connect(self.export_requested)
        self.table.setAccessibleName("Released values")
        self.preview.setAccessibleName("First synthetic rows")

        self.tables = tables = QWidget()
        table_column = QVBoxLayout(tables)
        table_column.setContentsMargins(0, 0, 0, 0)
        table_column.addWidget(self.table, 1)
        table_column.addWidget(self.preview, 1)
        release_plots = QWidget()
        plot_column = QVBoxLayout(release_plots)
        plot_column.setContentsMargins(0, 0, 0, 0)
        plot_column.addWidget(self.plot, 1)
        plot_column.addWidget(self.custodian_box)
        plot_column.addWidget(self.distance_explorer, 1)
        synthetic_page = QWidget()
        synthetic_column = QVBoxLayout(synthetic_page)
        synthetic_column.setContentsMargins(0, 4, 0, 0)
        synthetic_column.addWidget(self.synthetic_view)
        self.plot_tabs = plots = QTabWidget()
        """The release's plot and, for a synthetic table, a second tab of the synthetic rows' 1- and 2-way
        distributions: stacked, the three plots of a table release had about 100 px each at 1024 x 700."""
        plots.setDocumentMode(True)
        plots.setAccessibleName("Plots of the release")
        plots.addTab(release_plots, MEASURED_TAB)
        plots.addTab(synthetic_page, SYNTHETIC_TAB)
        self.body = QSplitter()
        """The released table (and synthetic rows) beside the plots; the custodian drags the handle to
        widen whichever they are reading (a table release's marginal list has six wide columns)."""
        for index, side in enumerate((tables, plots)):  # SPLIT, whatever the tables' contents ask for
            side.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            self.body.addWidget(side)
            self.body.setStretchFactor(index, SPLIT[index])
        self.body.setChildrenCollapsible(False)
        self._reset_split()
        self.history = QListWidget()
        self.history.setAccessibleName("Releases of this session")
        self._fit_history()
        self.history.setToolTip(
            "The releases made in this session (saved in the project file): pick one to show and export it."
        )
        self.history.currentItemChanged.connect(self._on_history_choice)
        for box in (self.synthetic_view.column, self.synthetic_view.first, self.synthetic_view.second):
            box.currentTextChanged.connect(self._fit_plots_width)  # after the view redraws: new titles
        for plot in (self.plot, self.synthetic_view.bars_plot, self.synthetic_view.heat_plot):
            plot.getAxis("left").geometryChanged.connect(self._fit_plots_width)  # its ticks' width changed
        footer = QHBoxLayout()
        footer.addWidget(self.history, 1)
        footer.addWidget(self.export_button)
        layout = QVBoxLayout()
        layout.addWidget(self.headline)
        layout.addWidget(self.details)
        layout.addWidget(self.more_button)
        layout.addWidget(self.more_details)
        layout.addWidget(self.body, 1)
        layout.addLayout(footer)
        self.scroll = scroll_page(self, layout, "Review and export page")
        self._show_plot_tabs()
        """The page scrolls when the window is too short for the release's notes, plots and list: at
        1024 x 700 a distance release's explorer was squeezed (its note ran over the plot's axis title) and
        the window grew to 715 px."""

    def show_release(self, release: Release) -> None:
        self.release = release
        table = release.table
        self.headline.setText(describe_release(release))
        notes = [note for note in (table.meaning, *table.notes) if note]
        shown, more = notes[:NOTES_SHOWN], notes[NOTES_SHOWN:]
        self.details.setText(
            html.escape(
                f"{release.algorithm.title} ({release.algorithm.name}) · {release.dataset.n_rows:,} rows · "
                f"release {release.release_id[:8]} · charged to the ledger before display"
            )
            + "".join(f"<br>• {html.escape(note)}" for note in shown)  # notes hold rules like wage <= 137
        )
        self.more_details.setText("<br>".join(f"• {html.escape(note)}" for note in more))
        self.more_button.setChecked(False)
        self.more_button.setText(f"{len(more)} more note" + ("" if len(more) == 1 else "s"))
        self.more_button.setVisible(bool(more))
        self.model.set_table(table.columns, table.rows)
        fit_columns(self.table)
        self.table.setVisible(bool(table.rows))  # a released structure alone has no rows to list
        self._show_preview(release)
        self._show_table_side()
        self.synthetic_view.show_release(release)
        self._show_plot_tabs()
        layer = custodian_layer_for(release)
        self.custodian_box.blockSignals(True)
        self.custodian_box.setChecked(False)  # custodian-only layers start hidden for every release
        self.custodian_box.blockSignals(False)
        self.custodian_box.setVisible(layer is not None)
        self.custodian_box.setText(layer.checkbox if layer is not None else "")
        self._check_custodian_source()
        self._redraw()
        self.distance_explorer.show_release(release)
        self._fit_plots_width()
        self.export_button.setEnabled(True)

    def _fit_plots_width(self, *_: object) -> None:
        """The plots' side no narrower than its plots need whole (the splitter honours only this explicit
        minimum, the sides ignoring their contents' size hints): at 1024 x 700 a table release's measured
        marginals chart and its synthetic rows' plots were cut off on the right."""
        needed = whole_width(self.plot) if self.drawing is not None else 0
        if not self.synthetic_view.isHidden():
            needed = max(needed, self.synthetic_view.whole_width())
        self.plot_tabs.setMinimumWidth(needed)
        # pyqtgraph lays a plot out on a resize only: one that needs less than when it was last laid out
        # would keep its wider layout
        for plot in (self.plot, self.synthetic_view.bars_plot, self.synthetic_view.heat_plot):
            if plot.isVisible():
                plot.plotItem.setGeometry(plot.range)

    def _show_plot_tabs(self) -> None:
        """Tabs only for a synthetic table, opened on its synthetic rows (what an analyst receives); any
        other release shows its one plot without a tab bar."""
        table = not self.synthetic_view.isHidden()
        self.plot_tabs.setTabVisible(1, table)
        self.plot_tabs.tabBar().setVisible(table)
        # a tab widget with its tab bar hidden that takes focus kept Tab from leaving the table before it
        self.plot_tabs.setFocusPolicy(Qt.FocusPolicy.TabFocus if table else Qt.FocusPolicy.NoFocus)
        self.plot_tabs.setCurrentIndex(1 if table else 0)

    def _reset_split(self) -> None:
        """Share the body between the table side and the plots in the SPLIT ratio (sizes are weights)."""
        self.body.setSizes([1000 * weight for weight in SPLIT])

    def _show_table_side(self) -> None:
        """A release with no rows to list (a distance structure) gives the whole width to its plots; the
        next release with rows gets the table side back at the SPLIT ratio."""
        listed = not (self.table.isHidden() and self.preview.isHidden())
        returning = listed and self.tables.isHidden()
        self.tables.setVisible(listed)
        if returning:
            self._reset_split()

    def _show_preview(self, release: Release) -> None:
        """The first synthetic rows of a synthetic-table release (a DP output), hidden otherwise."""
        synthetic = synthetic_csv(release.table)
        if synthetic is not None:
            frame = pd.read_csv(io.BytesIO(synthetic.content), nrows=PREVIEW_ROWS)
            self.preview_model.set_table(tuple(frame.columns), list(frame.itertuples(index=False)))
            fit_columns(self.preview)
        self.preview.setVisible(synthetic is not None)

    def set_custodian_source(self, source: CustodianSource | None) -> None:
        """Where custodian-only layers read the private data (the window's in-memory dataset), or None when
        it is not held in memory: the check box is then disabled and says why."""
        self._custodian_source = source
        self._check_custodian_source()

    def _usable_source(self) -> CustodianSource | None:
        """The custodian source when it holds the very file the shown release was made from."""
        source, release = self._custodian_source, self.release
        if source is None or release is None:
            return None
        return source if keyed_fingerprint(source.sha256) == release.dataset.fingerprint else None

    def _check_custodian_source(self) -> None:
        """Enable the check box only for a usable source (unchecking it otherwise) and say why not."""
        usable = self._usable_source() is not None
        self.custodian_box.setEnabled(usable)
        self.custodian_box.setToolTip(
            _CUSTODIAN_TIP if usable else _NO_SOURCE if self._custodian_source is None else _OTHER_FILE
        )
        if not usable:
            self.custodian_box.setChecked(False)

    def _redraw(self) -> None:
        """Draw the release's DP plot, then the custodian-only layer when it is asked for."""
        self.custodian_items = {}
        if self.release is None:
            return
        self.drawing = draw_release(self.plot, self.release)
        self.plot.setVisible(self.drawing is not None)
        layer = custodian_layer_for(self.release)
        source = self._usable_source()
        if layer is not None and source is not None and self.custodian_box.isChecked():
            self.custodian_items = dict(layer.draw(self.plot, self.release, source.aggregator))

    def show_history(self, records: list[ReleaseRecord]) -> None:
        """List the session's releases, newest first, the one shown selected."""
        self.history.blockSignals(True)
        self.history.clear()
        for record in reversed(records):
            cost = f"ε = {record.epsilon:g}" + (f", δ = {record.delta:g}" if record.delta else "")
            exported = f" → {record.export_folder}" if record.export_folder else ""
            item = QListWidgetItem(
                f"{record.created}  {record.task} ({record.algorithm}), {cost}  [{record.release_id[:8]}]"
                f"{exported}"
            )
            item.setData(Qt.ItemDataRole.UserRole, record.release_id)
            self.history.addItem(item)
            if self.release is not None and record.release_id == self.release.release_id:
                self.history.setCurrentItem(item)
        self.history.blockSignals(False)
        self._fit_history()

    def _fit_history(self) -> None:
        """As tall as the session's releases, up to HISTORY_ROWS of them (then it scrolls): one release
        left the plots 70 px short at 1024 x 700."""
        row = self.history.sizeHintForRow(0)
        if row <= 0:
            row = self.history.fontMetrics().height() + 2
        rows = min(max(self.history.count(), 1), HISTORY_ROWS)
        self.history.setFixedHeight(rows * row + 2 * self.history.frameWidth())

    def _on_history_choice(self, item: QListWidgetItem | None) -> None:
        if item is not None:
            self.release_chosen.emit(item.data(Qt.ItemDataRole.UserRole))

    def plots(self) -> dict[str, bytes]:
        """The release's DP plots as PNG bytes for the report (caption -> PNG), in light colours.

        The release's plot is drawn anew on a never-shown plot holding the DP drawing only, so no
        custodian-only layer can reach the export whatever the check box says; the on-screen plot is left
        as it is. A distance release adds the explorer's view (public points and released answers) as
        ``DistanceExplorer.as_reported`` draws it, without the points the custodian asked about.
        """
        if self.release is None:
            return {}
        plots: dict[str, bytes] = {}
        with export_colours():
            export = release_plot()
            drawing = draw_release(export, self.release)
            lay_out(export)  # after drawing: the title and axis labels take their rows first
        if drawing is not None:
            plots[drawing.title or "Released values"] = plot_png(export)
        if not self.distance_explorer.isHidden():
            with self.distance_explorer.as_reported():
                plots["Average distance answered from the released structure"] = plot_png(
                    self.distance_explorer.plot
                )
        return plots
