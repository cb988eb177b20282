"""The Data page: the private file's public facts, the aggregation engine, and the custodian-only views.

What is shown here about the private data (the preview, the column types and missing counts) is for the
custodian's eyes only and is never exported. The engine decides where aggregates are computed: in memory,
out of core by scanning the file (for files larger than memory), or in Spark (for data on a cluster); the
aggregates, and so a release's privacy, are identical whichever runs (tests/data/test_backends.py).
The declared domains (dpgui/ui/domain_table.py) are public: typed, or suggested from the public sample.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dpgui.data import ColumnSummary, summarize_columns
from dpgui.data.backends import Engine, OpenedData
from dpgui.data.public import PublicSample
from dpgui.jobs.open_job import OpenRequest
from dpgui.ui.dataframe_model import DataFrameModel, fit_columns
from dpgui.ui.declared_domains import DeclaredDomains
from dpgui.ui.domain_table import DomainTable

SHA_PREFIX = 12
PROGRESS_STEPS = 1000
ENGINE_TITLES = {
    Engine.AUTO: "Auto (out of core for large files)",
    Engine.MEMORY: "In memory (pandas)",
    Engine.EMBEDDED: "Out of core (scan the file in batches)",
    Engine.SPARK: "Apache Spark (a cluster or local[*])",
}
ENGINE_HELP = (
    "Where the aggregates (counts over the declared grid) are computed. Every engine gives identical "
    "aggregates, so the privacy of a release does not depend on it; the manifest names the engine."
)
ENCODING_TITLES: dict[str | None, str] = {
    None: "Automatic (UTF-8; other bytes as Windows-1252)",
    "cp1250": "cp1250: Windows Central European",
    "cp1251": "cp1251: Windows Cyrillic",
    "cp1253": "cp1253: Windows Greek",
    "cp1254": "cp1254: Windows Turkish",
    "cp1255": "cp1255: Windows Hebrew",
    "cp1256": "cp1256: Windows Arabic",
    "cp1257": "cp1257: Windows Baltic",
    "iso8859-1": "ISO-8859-1 (Latin-1)",
    "iso8859-2": "ISO-8859-2 (Latin-2)",
    "iso8859-15": "ISO-8859-15 (Latin-9)",
    "koi8-r": "KOI8-R (Russian)",
    "mac-roman": "Mac OS Roman",
    "cp437": "cp437: DOS (US)",
    "cp850": "cp850: DOS (Western Europe)",
    "shift_jis": "Shift JIS (Japanese)",
    "euc_jp": "EUC-JP (Japanese)",
    "gb18030": "GB18030 (Chinese)",
    "big5": "Big5 (Traditional Chinese)",
    "euc_kr": "EUC-KR (Korean)",
}
ENCODING_HELP = (
    "How the bytes of a CSV or TSV file become letters. Automatic reads UTF-8 (a byte-order mark or UTF-16 "
    "is recognised) and any byte that is not UTF-8 as Windows-1252, cell by cell. Declare the encoding of a "
    "file saved in another code page, so that its categories read as they are written; the choice is "
    "yours, never guessed from the records (one record must not change how the others read)."
)
SUMMARY_COLUMNS = ("Column", "Type", "Missing")
SUMMARY_MOST_WIDTH = 420
"""The widest the column summary asks to be (longer column names scroll): the preview keeps the rest."""


def _bold(label: QLabel) -> QLabel:
    font = QFont(label.font())
    font.setBold(True)
    label.setFont(font)
    return label


class DataPage(QWidget):
    """Facts, engine choice, opening progress, column summary, preview and declared domains."""

    cancel_requested = Signal()

    def __init__(self, declared: DeclaredDomains | None = None) -> None:
        """``declared``: the domains shared with the Task page (a store of its own when not given)."""
        super().__init__()
        self.domains = DomainTable(declared if declared is not None else DeclaredDomains())
        self.file_label = QLabel("—")
        self.rows_label = QLabel("—")
        self.sha_label = QLabel("—")
        self.public_label = QLabel("none")
        self.engine_label = QLabel("—")
        self.format_label = QLabel("—")
        labels = (self.file_label, self.rows_label, self.sha_label, self.public_label, self.engine_label)
        for label in (*labels, self.format_label):
            label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.engine = QComboBox()
        for engine, title in ENGINE_TITLES.items():
            self.engine.addItem(title, engine)
        self.engine.setToolTip(ENGINE_HELP)
        self.encoding = QComboBox()
        for encoding, title in ENCODING_TITLES.items():
            self.encoding.addItem(title, encoding)
        self.encoding.setToolTip(ENCODING_HELP)
        self.spark_master = QLineEdit()
        self.spark_master.setPlaceholderText("local[2]  (or spark://host:7077, yarn, …)")
        self.progress = QProgressBar()
        self.progress.setRange(0, PROGRESS_STEPS)
        self.progress_label = QLabel()
        self.cancel_button = QPushButton("Cancel opening")
        self.cancel_button.clicked.connect(self.cancel_requested)

        facts = QFormLayout()
        facts.addRow("Private file:", self.file_label)
        facts.addRow("Read as:", self.format_label)
        facts.addRow("Rows (public):", self.rows_label)
        facts.addRow("SHA-256:", self.sha_label)
        facts.addRow("Engine used:", self.engine_label)
        facts.addRow("Public sample:", self.public_label)
        engine_box = QGroupBox("Reading (applies to the next file you open)")
        engine_form = QFormLayout(engine_box)
        engine_form.addRow("Engine:", self.engine)
        engine_form.addRow("Spark master:", self.spark_master)
        engine_note = QLabel(ENGINE_HELP)
        engine_note.setWordWrap(True)
        engine_form.addRow(engine_note)
        engine_form.addRow("Text encoding:", self.encoding)
        self._engine_form = engine_form
        top = QHBoxLayout()
        top.addLayout(facts, 1)
        top.addWidget(engine_box, 1)
        opening = QHBoxLayout()
        opening.addWidget(self.progress_label)
        opening.addWidget(self.progress, 1)
        opening.addWidget(self.cancel_button)

        self.summary = QTableWidget(0, len(SUMMARY_COLUMNS))
        self.summary.setHorizontalHeaderLabels(list(SUMMARY_COLUMNS))
        self.summary.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.summary.setTabKeyNavigation(False)  # Tab leaves a read-only table; the arrows go through it
        self.summary.verticalHeader().setVisible(False)
        self.summary.verticalHeader().setDefaultSectionSize(self.summary.fontMetrics().height() + 8)
        self.summary.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.summary.horizontalHeader().setSectionResizeMode(  # stretched, never wider than the spare width
            SUMMARY_COLUMNS.index("Missing"), QHeaderView.ResizeMode.Stretch
        )
        self.preview_model = DataFrameModel()
        self.preview = QTableView()
        self.preview.setModel(self.preview_model)
        self.preview.setAlternatingRowColors(True)
        self.preview.setSelectionMode(QTableView.SelectionMode.NoSelection)
        self.preview.setTabKeyNavigation(False)
        self.preview.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.preview.verticalHeader().setDefaultSectionSize(self.preview.fontMetrics().height() + 8)
        self.preview.horizontalHeader().setStretchLastSection(True)
        self.preview.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.preview.horizontalHeader().setResizeContentsPrecision(200)  # never scan 10^6 rows for widths
        self.summary.setAccessibleName("Columns of the private file (custodian-only)")
        self.preview.setAccessibleName("Custodian-only preview of the private rows")
        self.preview_title = _bold(QLabel("Custodian-only preview — never exported"))
        summary_box = QWidget()
        summary_layout = QVBoxLayout(summary_box)
        summary_layout.setContentsMargins(0, 0, 0, 0)
        summary_layout.addWidget(_bold(QLabel("Columns (custodian-only)")))
        summary_layout.addWidget(self.summary)
        preview_box = QWidget()
        preview_layout = QVBoxLayout(preview_box)
        preview_layout.setContentsMargins(0, 0, 0, 0)
        preview_layout.addWidget(self.preview_title)
        preview_layout.addWidget(self.preview)
        splitter = QSplitter()
        splitter.addWidget(summary_box)
        splitter.addWidget(preview_box)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([330, 870])  # the summary's three columns fit without a scroll bar
        private_and_public = QSplitter(Qt.Orientation.Vertical)
        private_and_public.addWidget(splitter)
        private_and_public.addWidget(self.domains)
        private_and_public.setChildrenCollapsible(False)
        private_and_public.setSizes([240, 360])  # every demo column's domain shows without scrolling

        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addLayout(opening)
        layout.addWidget(private_and_public, 1)
        self.engine.currentIndexChanged.connect(self._engine_changed)
        self._engine_changed()
        self.set_opening(None)

    def selected_engine(self) -> Engine:
        return self.engine.currentData()

    def select_engine(self, engine: Engine) -> None:
        self.engine.setCurrentIndex(self.engine.findData(engine))

    def selected_encoding(self) -> str | None:
        """The declared text encoding (a codec name), None for the automatic reading."""
        return self.encoding.currentData()

    def select_encoding(self, encoding: str | None) -> None:
        """Choose ``encoding`` (a codec name, e.g. from a project), adding it when it is not listed."""
        index = self.encoding.findData(encoding)
        if index < 0:
            self.encoding.addItem(str(encoding), encoding)
            index = self.encoding.count() - 1
        self.encoding.setCurrentIndex(index)

    def request(self, path_or_table: str, *, table: bool = False) -> OpenRequest:
        """An :class:`OpenRequest` for a file path (or a Spark table name) with the chosen engine and
        text encoding."""
        master = self.spark_master.text().strip() or None
        if table:
            return OpenRequest(None, Engine.SPARK, table=path_or_table, spark_master=master)
        return OpenRequest(
            Path(path_or_table),
            self.selected_engine(),
            spark_master=master,
            encoding=self.selected_encoding(),
        )

    def set_opening(self, name: str | None) -> None:
        """Show (``name``) or hide the opening progress row."""
        for widget in (self.progress, self.progress_label, self.cancel_button):
            widget.setVisible(name is not None)
        if name is not None:
            self.progress.setValue(0)
            self.progress_label.setText(f"Opening {name}…")

    def show_progress(self, fraction: float, message: str) -> None:
        self.progress.setValue(round(fraction * PROGRESS_STEPS))
        self.progress_label.setText(message)

    def show_opened(self, opened: OpenedData) -> list[ColumnSummary]:
        """Show the facts, the engine, the column summary and the preview of a newly opened private input;
        return the column summary (read once: a Spark preview is a job)."""
        dataset = opened.dataset
        self.file_label.setText(dataset.name)
        self.format_label.setText(opened.file_format)
        self.rows_label.setText(f"{dataset.n_rows:,}")
        self.sha_label.setText(f"{dataset.sha256[:SHA_PREFIX]}…")
        self.sha_label.setToolTip(dataset.sha256)
        self.engine_label.setText(opened.aggregator.name)
        frame = opened.preview()
        self.preview_model.set_frame(frame)
        fit_columns(self.preview)
        shown = "every row" if opened.in_memory else f"the first {len(frame):,} rows"
        self.preview_title.setText(f"Custodian-only preview ({shown}) — never exported")
        counted = "" if opened.in_memory else f" (in the first {len(frame):,} rows)"
        self.summary.setHorizontalHeaderLabels(["Column", "Type", f"Missing{counted}"])
        columns = summarize_columns(frame)
        self.summary.setRowCount(len(columns))
        for row, column in enumerate(columns):
            for position, text in enumerate((column.name, column.kind.value, f"{column.missing:,}")):
                self.summary.setItem(row, position, QTableWidgetItem(text))
        self._fit_summary()
        self.domains.set_columns(columns)
        return columns

    def _fit_summary(self) -> None:
        """The column summary no narrower than its columns' headers and values (up to
        :data:`SUMMARY_MOST_WIDTH`): at 1024 x 700 the splitter gave it 227 px, and an out-of-core file's
        'Missing (in the first … rows)' was cut off behind a horizontal scroll bar."""
        table = self.summary
        columns = sum(
            max(table.horizontalHeader().sectionSizeHint(c), table.sizeHintForColumn(c))
            for c in range(table.columnCount())
        )
        frame = table.verticalScrollBar().sizeHint().width() + 2 * table.frameWidth()
        table.setMinimumWidth(min(columns + frame, SUMMARY_MOST_WIDTH))

    def set_public(self, sample: PublicSample | None, notes: Mapping[str, str]) -> None:
        """The public sample that may suggest the declared domains, and its per-column caveats."""
        self.domains.set_public(sample, notes)

    def _engine_changed(self) -> None:
        self._engine_form.setRowVisible(self.spark_master, self.selected_engine() is Engine.SPARK)
