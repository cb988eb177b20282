"""The Data page's declared domains: one row per column of the private file, shared with the Task page.

Bounds and categories are public facts: typed by the custodian or suggested from a PUBLIC sample, never
read off the private data. Only the column names of the private file are used here, and the kinds its cells
read as, for the form of a column nothing is declared for yet: a declaration's kind decides (the Task page's
"Categories instead" and "Bounds instead", a loaded DOMAINS.json).
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtWidgets import (
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QVBoxLayout,
)

from dpgui.data import DataError
from dpgui.data.public import PublicSample
from dpgui.data.validation import ColumnKind, ColumnSummary
from dpgui.ui.accessible import in_tab_order
from dpgui.ui.declared_domains import DeclaredDomains
from dpgui.ui.domain_rows import (
    HEADER_HELP,
    NUMERIC_HEADERS,
    CategoryRow,
    DomainRow,
    rule_note,
    suggested_texts,
)

NO_PUBLIC = "Load a public sample (File > Open public sample…) to have the domains suggested from it."


class DomainTable(QGroupBox):
    """Lower, upper, granularity or bins of each numeric column, categories of the others, and a button
    that suggests them all from the public sample."""

    def __init__(self, declared: DeclaredDomains) -> None:
        super().__init__("Declared domains (public)")
        self._declared = declared
        self._public: PublicSample | None = None
        self._notes: Mapping[str, str] = {}
        self.rows: dict[str, DomainRow | CategoryRow] = {}
        self._columns: list[ColumnSummary] = []
        self.table = QTableWidget(0, len(NUMERIC_HEADERS))
        self.table.setHorizontalHeaderLabels(list(NUMERIC_HEADERS))
        for position, title in enumerate(NUMERIC_HEADERS):
            self.table.horizontalHeaderItem(position).setToolTip(HEADER_HELP.get(title, ""))
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        self.table.verticalHeader().setDefaultSectionSize(QLineEdit().sizeHint().height())
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setAccessibleName("Declared domains")
        self.table.setTabKeyNavigation(False)  # Tab goes through the cells' edits, not the cells
        self.table.setToolTip(
            "A numeric column's lower and upper bounds with a granularity or a number of bins; a categorical "
            "column's categories, comma-separated. The Task page shows the same declarations."
        )
        self.suggest_button = QPushButton("Suggest from the public sample")
        self.suggest_button.clicked.connect(self.suggest_all)
        self.status = QLabel(NO_PUBLIC)
        self.status.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.addWidget(self.suggest_button)
        buttons.addWidget(self.status, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(rule_note())
        layout.addWidget(self.table, 1)
        layout.addLayout(buttons)
        declared.changed.connect(self._declared_changed)
        self.set_public(None, {})

    def set_columns(self, columns: list[ColumnSummary]) -> None:
        """One row per column of the private file, showing its current declaration: numeric or categorical
        as declared, else as the column's cells read."""
        self._columns = list(columns)
        self.table.clearSpans()
        self.table.setRowCount(len(columns))
        self.rows = {}
        for line, summary in enumerate(columns):
            declared = self._declared.numeric(summary.name)
            numeric = summary.kind is ColumnKind.NUMERIC if declared is None else declared
            row = (DomainRow if numeric else CategoryRow)(summary.name, self._declared.texts(summary.name))
            row.place_cells(self.table, line)
            row.write_to(self._declared)
            self.rows[summary.name] = row
        self.table.resizeColumnToContents(0)
        fields = (field for row in self.rows.values() for field in row.fields())
        in_tab_order([self.table, *fields, self.suggest_button])

    def set_public(self, sample: PublicSample | None, notes: Mapping[str, str]) -> None:
        """The public sample the button suggests from (none: the button is disabled) and its per-column
        caveats (units that differ from the private columns')."""
        self._public = sample
        self._notes = notes
        self.suggest_button.setEnabled(sample is not None)
        self.status.setText(
            NO_PUBLIC
            if sample is None
            else f"Suggestions come from {sample.path.name}: check that its units match the private columns."
        )

    def suggest_all(self) -> None:
        """Declare every column the public sample has from its values; leave the others untouched."""
        if self._public is None:
            return
        present = set(map(str, self._public.frame.columns))
        filled, failed = [], []
        for column, row in self.rows.items():
            if column not in present:
                continue
            try:
                texts = suggested_texts(
                    self._public, column, isinstance(row, DomainRow), self._declared.texts(column)
                )
            except DataError:
                failed.append(column)
                continue
            self._declared.set_texts(column, texts)
            filled.append(column)
        missing = [column for column in self.rows if column not in present]
        parts = [f"Suggested {', '.join(filled) or 'nothing'} from {self._public.path.name}."]
        if missing:
            parts.append(f"Not in the public sample (declare them yourself): {', '.join(missing)}.")
        if failed:
            parts.append(f"No suggestion possible for {', '.join(failed)}.")
        parts.extend(self._notes[column] for column in filled if column in self._notes)
        self.status.setText(" ".join(parts))

    def _declared_changed(self, column: str) -> None:
        row = self.rows.get(column)
        declared = self._declared.numeric(column)
        if row is not None and declared is not None and isinstance(row, DomainRow) != declared:
            self.set_columns(self._columns)  # declared of the other kind: its row changes form
        elif row is not None:
            row.show(self._declared.texts(column))
