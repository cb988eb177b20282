"""The Task page: what to release — task, columns, declared domains, algorithm and its parameters.

It builds the same :class:`TaskSpec` as the task's CLI subcommand (dpgui/cli/release_*.py). Domains are
declared by the custodian or suggested from a PUBLIC sample; they are never read off the private data.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dpgui.data import DataError
from dpgui.data.domain import CategoricalDomain
from dpgui.data.domains_file import read_domains, write_domains
from dpgui.data.public import PublicSample
from dpgui.tasks.plain_words import details as algorithm_details
from dpgui.tasks.plain_words import plain_words
from dpgui.tasks.registry import AlgorithmInfo, ParameterSpec, algorithms
from dpgui.tasks.spec import AUTO, LABELLED_KINDS, Domain, TaskKind, TaskSpec
from dpgui.ui.accessible import in_tab_order
from dpgui.ui.declared_domains import DeclaredDomains
from dpgui.ui.disclosure import disclosure_button
from dpgui.ui.domain_rows import (
    FIELD_NAMES,
    HEADER_HELP,
    NUMERIC_HEADERS,
    CategoryRow,
    DomainRow,
    declared_texts,
    rule_note,
    suggested_texts,
)
from dpgui.ui.help_mark import help_label
from dpgui.ui.missing_box import MissingBox
from dpgui.ui.parameter_form import ParameterForm
from dpgui.ui.wrapping_list import WrappingList

MULTI_COLUMN_TASKS = (TaskKind.RECTANGLE, TaskKind.DISTANCE, TaskKind.TABLE)
"""Tasks over several columns, one declared domain each."""
CATEGORICAL_TASKS = (TaskKind.HISTOGRAM, TaskKind.TABLE)
"""Tasks whose column may be categorical (declared categories instead of bounds, CLI --categories)."""
KIND_HELP = (
    "Whether the column is declared by bounds (numbers on a grid) or by a list of categories. The form "
    "first follows how the column's cells read; your declaration decides, never the cells: numeric codes "
    "(regions 1-4, ZIP codes) may be categories, and a column with a stray word is refused by the data "
    "check before any charge rather than turned into categories."
)
"""The tooltip of a domain row's "Categories instead" / "Bounds instead" button."""


PRECONDITIONS_UNKNOWN = "preconditions: checked once the task is complete and a dataset is open"
PRECONDITIONS_MET = "✓ preconditions met at this n"
REFUSED_HERE = "✗ refused here"
_STATUS_CHARACTERS = 110
"""Longer refusals are cut in the list (the tooltip has them whole)."""


def _algorithm_text(info: AlgorithmInfo, status: str) -> str:
    """An algorithm's entry in plain words: badge and plain name, what it is good for, and the state of its
    preconditions (the paper and section are behind "Details")."""
    shown = status if len(status) <= _STATUS_CHARACTERS else status[: _STATUS_CHARACTERS - 1] + "…"
    plain = plain_words(info)
    return f"[{info.guarantee.badge}]  {plain.name}\n      Good for: {plain.good_for}\n      {shown}"


AUTO_DETAILS = (
    "auto: chosen when the release is reviewed, from public quantities only (the spec and the row count): "
    "the feasible algorithm with the smallest predicted error, never one that fails a check of how it "
    "uses the public sample."
)


def task_kinds() -> list[TaskKind]:
    """Every task that has at least one registered algorithm, in TaskKind order."""
    return [kind for kind in TaskKind if algorithms(kind)]


def auto_parameters(infos: Sequence[AlgorithmInfo]) -> tuple[ParameterSpec, ...]:
    """The union of the algorithms' parameters (first declaration of each name): what ``auto`` may use."""
    seen: dict[str, ParameterSpec] = {}
    for info in infos:
        for parameter in info.parameters:
            seen.setdefault(parameter.name, parameter)
    return tuple(seen.values())


class TaskPage(QWidget):
    """Task picker, column pickers, declared domains, algorithm list and a generated parameter form."""

    changed = Signal()
    """Anything that changes the spec changed (the budget page re-plans)."""
    error = Signal(str, str)
    """A title and a message to show (a public suggestion that failed)."""

    def __init__(self, declared: DeclaredDomains | None = None) -> None:
        """``declared``: the domains shared with the Data page (a store of its own when not given)."""
        super().__init__()
        self.task = QComboBox()
        for kind in task_kinds():
            self.task.addItem(kind.title, kind)
        self.column = QComboBox()
        self.columns_list = QListWidget()
        self.columns_list.setMaximumHeight(110)
        self.label = QComboBox()
        self.positive = QLineEdit()
        self.positive.setPlaceholderText("default: 1 / yes / true")
        self.bounds_note = rule_note()
        self.public_note = QLabel()
        self.public_note.setWordWrap(True)
        self.algorithm = WrappingList()
        self.algorithm.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.algorithm.setMinimumHeight(120)
        self.algorithm.setSpacing(2)
        self.algorithm.setAccessibleName("Algorithm")
        self.details = QLabel()
        self.details.setWordWrap(True)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details_button = disclosure_button(
            "Details", "The chosen algorithm's registered name, paper and section", self.details
        )
        self.parameters = ParameterForm()
        self.missing = MissingBox()
        self.domain_rows: dict[str, DomainRow | CategoryRow] = {}
        self.kind_switches: dict[str, QPushButton] = {}
        """Each domain row's "Categories instead" or "Bounds instead" button (the declared kind's switch)."""
        self._declared = declared if declared is not None else DeclaredDomains()
        self._numeric: list[str] = []
        self._offered_columns: list[str] = []
        """The columns the task offers as last listed (they change when a column's declared kind does)."""
        self._all_columns: list[str] = []
        self._public: PublicSample | None = None
        self._public_columns: frozenset[str] = frozenset()
        self._public_all_columns: frozenset[str] = frozenset()
        self._public_notes: Mapping[str, str] = {}

        self._columns_form = QFormLayout()
        self._columns_form.addRow("Task:", self.task)
        self._columns_form.addRow("Column:", self.column)
        self._columns_form.addRow("Columns:", self.columns_list)
        self._columns_form.addRow("Label column:", self.label)
        self._columns_form.addRow("Positive label:", self.positive)
        what = QGroupBox("Task and columns")
        what.setLayout(self._columns_form)

        self._domains_holder = QVBoxLayout()
        domains = QGroupBox("Declared domains")
        domains_layout = QVBoxLayout(domains)
        domains_layout.addWidget(self.bounds_note)
        domains_layout.addLayout(self._domains_holder)
        domains_layout.addWidget(self.public_note)
        self.load_domains_button = QPushButton("Load DOMAINS.json…")
        self.load_domains_button.setToolTip("Declare the domains a DOMAINS.json lists (as the CLI reads it)")
        self.save_domains_button = QPushButton("Save DOMAINS.json…")
        self.save_domains_button.setToolTip("Save these columns' domains for `dpgui release table --domains`")
        files = QHBoxLayout()
        files.addWidget(self.load_domains_button)
        files.addWidget(self.save_domains_button)
        files.addStretch(1)
        domains_layout.addLayout(files)
        self._domains_widget = QWidget()
        self._domains_holder.addWidget(self._domains_widget)

        algorithm_box = QGroupBox("Algorithm")
        algorithm_layout = QVBoxLayout(algorithm_box)
        algorithm_layout.addWidget(self.algorithm, 1)
        algorithm_layout.addWidget(self.details_button)
        algorithm_layout.addWidget(self.details)
        parameters_box = QGroupBox("Parameters")
        QVBoxLayout(parameters_box).addWidget(self.parameters)

        left = QVBoxLayout()
        left.addWidget(what)
        left.addWidget(domains)
        left.addWidget(self.missing)
        left.addStretch(1)
        right = QVBoxLayout()
        right.addWidget(algorithm_box, 1)
        right.addWidget(parameters_box)
        columns = QHBoxLayout()
        columns.addLayout(left, 1)
        columns.addLayout(right, 1)
        self._inner = QWidget()
        self._inner.setLayout(columns)
        scroll = QScrollArea()
        scroll.setAccessibleName("Task page")
        scroll.setWidgetResizable(True)
        scroll.setWidget(self._inner)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(scroll)

        self.task.currentIndexChanged.connect(self._task_changed)
        self.column.currentTextChanged.connect(self._rebuild_domains)
        self.column.currentTextChanged.connect(self._keep_label_apart)
        self.columns_list.itemChanged.connect(self._rebuild_domains)
        self.algorithm.currentRowChanged.connect(self._algorithm_changed)
        self.label.currentTextChanged.connect(self.changed)
        self.positive.textChanged.connect(self.changed)
        self.missing.changed.connect(self.changed)
        self._declared.changed.connect(self._declared_changed)
        self.load_domains_button.clicked.connect(self._load_domains_clicked)
        self.save_domains_button.clicked.connect(self._save_domains_clicked)
        self._task_changed()

    def showEvent(self, event: QShowEvent) -> None:
        """Lay the page out anew: forms rebuilt while it was hidden (the task changed on another page, or
        a project opened) kept their old heights, and a histogram's three parameters shared 23 px."""
        for widget in (self, *self.findChildren(QWidget)):
            if widget.layout() is not None:
                widget.layout().invalidate()
        self._inner.layout().activate()
        super().showEvent(event)

    # -- inputs from the window ----------------------------------------------------------------------------

    @property
    def kind(self) -> TaskKind:
        return self.task.currentData()

    def set_columns(self, numeric: list[str], all_columns: list[str]) -> None:
        """Offer the private dataset's column names (names only)."""
        self._numeric = list(numeric)
        self._all_columns = list(all_columns)
        self._fill_column_picker()
        self._fill_columns_list()
        self.label.blockSignals(True)
        self.label.clear()
        self.label.addItems(all_columns)
        self.label.blockSignals(False)
        self._rebuild_domains()
        self._keep_label_apart()

    def _keep_label_apart(self) -> None:
        """A label column other than the feature: the first column was both (wage labelling wage, which
        no learner accepts), so a threshold task's Run only failed with a plan-less Budget page. The first
        column the Data page did not read as numbers is preferred (column names and that reading only)."""
        feature = self.column.currentText()
        if self.label.currentText() != feature:
            return
        others = [column for column in self._all_columns if column != feature]
        preferred = [column for column in others if column not in self._numeric] or others
        if preferred:
            self.label.setCurrentText(preferred[0])

    def set_public(self, sample: PublicSample | None, numeric: list[str], notes: Mapping[str, str]) -> None:
        """The public sample (suggestions come only from it), its numeric columns and per-column caveats."""
        self._public = sample
        self._public_columns = frozenset(numeric)
        self._public_all_columns = (
            frozenset() if sample is None else frozenset(map(str, sample.frame.columns))
        )
        self._public_notes = notes
        self._rebuild_domains()

    def select_task(self, kind: TaskKind) -> None:
        self.task.setCurrentIndex(self.task.findData(kind))

    def select_columns(self, names: Sequence[str]) -> None:
        """Pick the column (one-column tasks) or check exactly ``names`` (several-column tasks)."""
        if self.kind in MULTI_COLUMN_TASKS:
            for row in range(self.columns_list.count()):
                item = self.columns_list.item(row)
                checked = item.text() in names
                item.setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)
        else:
            self.column.setCurrentText(names[0])

    def declare(self, column: str, domain: Domain) -> None:
        """Fill in a declared domain for a column (the demo's, or a public suggestion): its kind is the
        declaration's, whatever the private cells look like."""
        self._declared.set_texts(column, declared_texts(column, domain))

    def load_domains(self, path: Path) -> None:
        """Declare the domains a DOMAINS.json lists (a public file, read as ``dpgui release table`` reads it)
        and, for a several-column task, check exactly its columns; what cannot be loaded goes to ``error``."""
        try:
            columns, domains = read_domains(path)
        except DataError as error:
            self.error.emit("Domains not loaded", str(error))
            return
        problems = [
            f"{column}: not a column of the private data"
            for column in columns
            if column not in self._all_columns
        ]
        known = [(c, d) for c, d in zip(columns, domains, strict=True) if c in self._all_columns]
        if self.kind in MULTI_COLUMN_TASKS:
            self.select_columns([column for column, _ in known])
        for column, domain in known:
            try:
                self._declared.set_texts(column, declared_texts(column, domain))
            except ValueError as error:
                problems.append(str(error))
        if problems:
            self.error.emit("Some domains were not loaded", "\n".join(problems))

    def save_domains(self, path: Path) -> None:
        """Save the chosen columns' declared domains as DOMAINS.json (public facts only); a ValueError naming
        a column whose domain is not complete yet."""
        columns = self.selected_columns()
        write_domains(path, columns, [self._declared_domain(column) for column in columns])

    def _declared_domain(self, column: str) -> Domain:
        """The column's declared domain as the task reads it: a synthetic table's number of bins declares
        bins with a value at each middle, as its DOMAINS.json does."""
        row = self.domain_rows[column]
        if isinstance(row, DomainRow):
            return row.domain(binned=self.kind is TaskKind.TABLE)
        return row.domain()

    def _load_domains_clicked(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Load declared domains", "", "DOMAINS.json (*.json)")
        if path:
            self.load_domains(Path(path))

    def _save_domains_clicked(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save declared domains", "domains.json", "JSON (*.json)")
        if not path:
            return
        try:
            self.save_domains(Path(path))
        except (ValueError, OSError) as error:
            self.error.emit("Domains not saved", str(error))

    def select_algorithm(self, name: str) -> None:
        for row in range(self.algorithm.count()):
            if self.algorithm.item(row).data(Qt.ItemDataRole.UserRole) == name:
                self.algorithm.setCurrentRow(row)

    def restore(self, spec: TaskSpec) -> None:
        """Show a saved spec: task, columns, declared domains, missing-value policy, label, algorithm and
        its parameters."""
        self.select_task(spec.kind)
        self.select_columns(spec.columns)
        for column, domain in zip(spec.columns, spec.domains, strict=True):
            if column in self.domain_rows:
                with contextlib.suppress(ValueError):  # a CLI spec may declare a numeric column's categories
                    self.declare(column, domain)
        self.missing.set_policy(spec.missing)
        if spec.label is not None:
            self.label.setCurrentText(spec.label)
        self.positive.setText(spec.positive or "")
        self.select_algorithm(spec.algorithm)
        self.parameters.set_values(spec.parameters)
        self.changed.emit()

    # -- the spec ------------------------------------------------------------------------------------------

    def selected_columns(self) -> list[str]:
        if self.kind in MULTI_COLUMN_TASKS:
            return [
                self.columns_list.item(row).text()
                for row in range(self.columns_list.count())
                if self.columns_list.item(row).checkState() == Qt.CheckState.Checked
            ]
        return [self.column.currentText()] if self.column.currentText() else []

    def algorithm_name(self) -> str:
        item = self.algorithm.currentItem()
        return AUTO if item is None else item.data(Qt.ItemDataRole.UserRole)

    def spec(self, epsilon: float, delta: float) -> TaskSpec:
        """The page as a spec (as the task's CLI builds it); raises ValueError naming what is missing."""
        columns = self.selected_columns()
        if not self._all_columns:
            raise ValueError("Open a private dataset first (File → Open private dataset).")
        if not columns:
            raise ValueError(
                "Tick the columns to release in the Task page's list first."
                if self.kind in MULTI_COLUMN_TASKS
                else "Pick the task's column on the Task page first: the dataset has none it can use."
            )
        labelled = self.kind in LABELLED_KINDS
        domains = tuple(self._declared_domain(column) for column in columns)
        missing = self.missing.policy()
        if missing.fill_value is not None and any(isinstance(d, CategoricalDomain) for d in domains):
            raise ValueError(
                "A categorical column counts a missing cell as 'other', not as a number: "
                "clear the fill value."
            )
        return TaskSpec(
            kind=self.kind,
            columns=tuple(columns),
            domains=domains,
            epsilon=epsilon,
            delta=delta,
            algorithm=self.algorithm_name(),
            missing=missing,
            parameters=self.parameters.values(),
            label=self.label.currentText() or None if labelled else None,
            positive=self.positive.text().strip() or None if labelled else None,
            public=self._public,
        )

    # -- reactions -----------------------------------------------------------------------------------------

    def _task_changed(self) -> None:
        self.blockSignals(True)  # `changed` once, when the columns, algorithms and domains all fit the task
        kind = self.kind
        multi = kind in MULTI_COLUMN_TASKS
        labelled = kind in LABELLED_KINDS
        self._columns_form.setRowVisible(self.column, not multi)
        self._columns_form.setRowVisible(self.columns_list, multi)
        self._columns_form.setRowVisible(self.label, labelled)
        self._columns_form.setRowVisible(self.positive, labelled)
        self._columns_form.labelForField(self.column).setText("Feature:" if labelled else "Column:")
        self._fill_column_picker()
        self._fill_columns_list()
        self.missing.for_table(kind is TaskKind.TABLE)
        self.algorithm.blockSignals(True)
        self.algorithm.clear()
        auto = QListWidgetItem("auto — the feasible algorithm with the smallest predicted error")
        auto.setData(Qt.ItemDataRole.UserRole, AUTO)
        auto.setToolTip("Chosen at run time from public quantities only (the spec and the row count).")
        self.algorithm.addItem(auto)
        for info in algorithms(kind):
            item = QListWidgetItem(_algorithm_text(info, PRECONDITIONS_UNKNOWN))
            item.setData(Qt.ItemDataRole.UserRole, info.name)
            item.setToolTip(f"{info.name} — {info.title}: {info.summary}")
            self.algorithm.addItem(item)
        self.algorithm.blockSignals(False)
        self.algorithm.fit_entries()
        self.algorithm.setCurrentRow(0)
        self._algorithm_changed()
        self._rebuild_domains()
        self.blockSignals(False)
        self.changed.emit()

    def _algorithm_changed(self) -> None:
        name = self.algorithm_name()
        infos = algorithms(self.kind)
        chosen = [info for info in infos if info.name == name]
        self.parameters.set_parameters(chosen[0].parameters if chosen else auto_parameters(infos))
        self.details.setText(algorithm_details(chosen[0]) if chosen else AUTO_DETAILS)
        self.changed.emit()

    def show_preconditions(self, spec: TaskSpec | None, n: int | None) -> None:
        """Show under each algorithm whether its preconditions hold for the current spec and row count
        (the whole refusal in its tooltip)."""
        for row in range(1, self.algorithm.count()):
            item = self.algorithm.item(row)
            info = next(i for i in algorithms(self.kind) if i.name == item.data(Qt.ItemDataRole.UserRole))
            if spec is None or n is None:
                status = PRECONDITIONS_UNKNOWN
            else:
                failures = info.preconditions(spec.with_algorithm(info.name), n)
                status = (
                    PRECONDITIONS_MET
                    if not failures
                    else f"{REFUSED_HERE}: " + "; ".join(f.message for f in failures)
                )
            item.setText(_algorithm_text(info, status))
            item.setToolTip(f"<p>{info.name} — {info.title}: {info.summary}</p><p>{status}</p>")
        self.algorithm.fit_entries()

    def _fill_columns_list(self) -> None:
        """Offer the numeric columns to check, and for a categorical task every column; keep the checks."""
        offered = self._offered()
        checked = set(self.selected_columns()) if self.kind in MULTI_COLUMN_TASKS else set()
        self.columns_list.blockSignals(True)
        self.columns_list.clear()
        for name in offered:
            item = QListWidgetItem(name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in checked else Qt.CheckState.Unchecked)
            self.columns_list.addItem(item)
        self.columns_list.blockSignals(False)

    def _fill_column_picker(self) -> None:
        """Offer the numeric columns, and for a categorical task every column; keep the pick if offered."""
        offered = self._offered_columns = self._offered()
        current = self.column.currentText()
        self.column.blockSignals(True)
        self.column.clear()
        self.column.addItems(offered)
        if current in offered:
            self.column.setCurrentText(current)
        self.column.blockSignals(False)

    def is_numeric(self, column: str) -> bool:
        """Whether ``column`` is numeric: as declared (bounds or categories) when it is, else as its cells
        read (only the form shown until the custodian declares: the declaration decides, never the cells)."""
        declared = self._declared.numeric(column)
        return column in self._numeric if declared is None else declared

    def _offered(self) -> list[str]:
        """The columns the task offers: every column for a categorical task, else the numeric ones."""
        if self.kind in CATEGORICAL_TASKS:
            return self._all_columns
        return [column for column in self._all_columns if self.is_numeric(column)]

    def _declared_changed(self, column: str) -> None:
        """Show a column's declaration, typed here or elsewhere, in its row (if it has one) in place; a
        declaration of the other kind rebuilds the row (and the columns a numeric task offers)."""
        row = self.domain_rows.get(column)
        if self._offered() != self._offered_columns:
            self._fill_column_picker()
            self._fill_columns_list()
            self._rebuild_domains()
        elif row is not None and isinstance(row, DomainRow) != self.is_numeric(column):
            self._rebuild_domains()
        elif row is not None:
            row.show(self._declared.texts(column))
            self.changed.emit()

    def _switch_kind(self, column: str) -> None:
        """Declare ``column`` of the other kind, its fields empty: numeric codes as categories, or back."""
        self._declared.set_texts(column, ("", "") if self.is_numeric(column) else ("",) * len(FIELD_NAMES))

    def _rebuild_domains(self) -> None:
        self._domains_holder.removeWidget(self._domains_widget)
        self._domains_widget.hide()
        self._domains_widget.deleteLater()
        self._domains_widget = QWidget()
        grid = QGridLayout(self._domains_widget)
        grid.setContentsMargins(0, 0, 0, 0)
        columns = self.selected_columns()
        headers: list[QLabel] = []
        if any(self.is_numeric(column) for column in columns):
            for position, title in enumerate(NUMERIC_HEADERS):
                header = help_label(f"<b>{title}</b>", HEADER_HELP[title]) if title in HEADER_HELP else None
                headers.append(header or QLabel(f"<b>{title}</b>"))
                grid.addWidget(headers[-1], 0, position)
        self.domain_rows = {}
        self.kind_switches = {}
        in_order: list[QWidget] = []
        for line, column in enumerate(columns, start=1):
            numeric = self.is_numeric(column)
            row = (DomainRow if numeric else CategoryRow)(column, self._declared.texts(column))
            row.place(grid, 2 * line - 1)
            switch = QPushButton("Categories instead" if numeric else "Bounds instead")
            switch.setToolTip(KIND_HELP)
            switch.setAccessibleName(f"Declare {column} by {'categories' if numeric else 'bounds'} instead")
            switch.clicked.connect(lambda _=False, column=column: self._switch_kind(column))
            grid.addWidget(switch, 2 * line, 0)
            self.kind_switches[column] = switch
            row.suggest.setEnabled(column in (self._public_columns if numeric else self._public_all_columns))
            row.suggest.clicked.connect(lambda _=False, column=column: self._suggest_clicked(column))
            row.write_to(self._declared)
            self.domain_rows[column] = row
            first_line = row.fields() if numeric else row.fields()[:1]  # a category row's 'other' is below
            in_order += [*first_line, switch, *row.fields()[len(first_line) :], row.suggest]
        self._domains_holder.addWidget(self._domains_widget)
        in_tab_order([self.positive, *headers, *in_order, self.load_domains_button])  # rows built last
        self._update_public_note()
        self.changed.emit()

    def suggest(self, column: str) -> None:
        """Declare ``column``'s domain from the PUBLIC sample: its range, or its distinct values for a
        categorical column (raises DataError when impossible). Never from the private data."""
        if self._public is None:
            raise DataError("Load a public sample with this column first (File > Open public sample…).")
        numeric = isinstance(self.domain_rows[column], DomainRow)
        texts = suggested_texts(
            self._public, column, numeric, self._declared.texts(column), table=self.kind is TaskKind.TABLE
        )
        self._declared.set_texts(column, texts)

    def _suggest_clicked(self, column: str) -> None:
        try:
            self.suggest(column)
        except DataError as error:
            self.error.emit("No suggestion", str(error))

    def _update_public_note(self) -> None:
        if self._public is None:
            self.public_note.setText("No public sample is loaded: declare the bounds yourself.")
            return
        covered = [column for column in self.domain_rows if column in self._public_all_columns]
        notes = " ".join(self._public_notes.get(column, "") for column in covered).strip()
        text = f"Public sample {self._public.path.name}: check that its units match the private columns."
        self.public_note.setText(f"{text} {notes}".strip())
