"""Declared-domain rows (Task and Data pages): bounds with a granularity or a number of bins, or categories.

Each row turns what the custodian typed (or a public-sample suggestion) into a domain, as the CLI's
``--bounds/--granularity/--bins`` and ``--categories/--other`` do; nothing here reads the private data.
A row's texts (``texts()``, ``show()``) are what the pages share through :class:`DeclaredDomains`.
"""

from __future__ import annotations

from PySide6.QtCore import QSignalBlocker, Qt
from PySide6.QtGui import QDoubleValidator, QFont, QIntValidator
from PySide6.QtWidgets import (
    QCheckBox,
    QGridLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from dpgui.data.domain import (
    MAX_UNIT_LENGTH,
    OTHER,
    SUGGESTED_INTERVALS,
    TABLE_SUGGESTED_INTERVALS,
    CategoricalDomain,
    NumericDomain,
    categories_text,
    declared_grid,
    parse_categories,
    suggest_domain,
)
from dpgui.data.public import PublicSample
from dpgui.tasks.spec import Domain
from dpgui.ui.declared_domains import DeclaredDomains
from dpgui.ui.help_mark import glossary

NUMERIC_HEADERS = ("Column", "Lower", "Upper", "Granularity", "or Bins", "Unit")
HEADER_HELP = {
    "Lower": glossary("Declared domain"),
    "Upper": glossary("Declared domain"),
    "Granularity": glossary("Granularity / bins"),
    "or Bins": glossary("Granularity / bins"),
    "Unit": "Optional: the values' unit (e.g. USD per week), shown on the plots' axes and in the manifest.",
}
"""Plain-words help of the declared-domain headers (the "?" of the Task page, the Data page's tooltips)."""
FIELD_NAMES = ("lower bound", "upper bound", "granularity", "number of bins", "unit")
"""What a screen reader calls a numeric row's edits, after the column's name ("wage lower bound")."""
BOUNDS_RULE = (
    "Bounds and categories are public: declare them, or suggest them from a public sample — never from the "
    "private data."
)


UNIT_SHOWN = "USD per week"
"""A unit the Task page's unit field shows whole: the grid gave the field what its other columns left, 39 px
at 1024 x 700 ("USD p", and "e.g. …" for its placeholder)."""
UNIT_PADDING = 16
"""A line edit's frame and text margins, in pixels."""


def rule_note() -> QLabel:
    """The rule that domains are public, in italics, for above a page's declared domains."""
    note = QLabel(BOUNDS_RULE)
    font = QFont(note.font())
    font.setItalic(True)
    note.setFont(font)
    note.setWordWrap(True)
    return note


def number_edit(placeholder: str) -> QLineEdit:
    """A line edit for a decimal number, with a placeholder and a clear button."""
    edit = QLineEdit()
    edit.setPlaceholderText(placeholder)
    edit.setValidator(QDoubleValidator())
    edit.setClearButtonEnabled(True)
    return edit


def number_text(value: float) -> str:
    """A number as the edits show it: up to 15 significant digits, so 1234567 stays 1234567."""
    return f"{value:.15g}"


def declared_texts(column: str, domain: Domain) -> tuple[str, ...]:
    """A domain as its row's texts (its kind is the declaration's: the row becomes numeric or categorical
    as declared); a ValueError for categories a comma-separated list cannot hold."""
    if isinstance(domain, CategoricalDomain):
        if any("," in category for category in domain.categories):
            raise ValueError(f"{column}: a category holding a comma cannot be listed here; use the CLI")
        return categories_text(domain.categories), OTHER if domain.other else ""
    step = ("", str(domain.size)) if domain.binned else (number_text(domain.granularity), "")
    return number_text(domain.lower), number_text(domain.upper), *step, domain.unit


def suggested_texts(
    public: PublicSample, column: str, numeric: bool, current: tuple[str, ...], *, table: bool = False
) -> tuple[str, ...]:
    """The row texts a PUBLIC sample suggests for ``column``: its range, or its distinct values with 'other'
    counted (a sample cannot list every private value: a GUI audit's suggestion of 219 of 500 cities,
    'other' left off, was refused at Run for the first city it lacked); a sample value "other" is that
    bucket, as a listed "other" is in DOMAINS.json. ``table``: a synthetic table's
    coarse grid (TABLE_SUGGESTED_INTERVALS). Raises DataError when the sample cannot suggest them; never
    the private data."""
    if numeric:  # the sample suggests the grid; the unit stays the custodian's
        intervals = TABLE_SUGGESTED_INTERVALS if table else SUGGESTED_INTERVALS
        suggested = suggest_domain(public.column_values(column), intervals=intervals)
        bounds = declared_texts(column, suggested)[:4]
        return (*bounds, current[4] if len(current) > 4 else "")
    named = [category for category in public.column_categories(column) if category != OTHER]
    return categories_text(named), OTHER  # a sample's own "other" values are the bucket's: one cell


def _show_text(edit: QLineEdit, text: str) -> None:
    """Set ``edit``'s text without signalling, and only when it differs (the cursor stays while typing).
    A text set here shows from its start: a long list of categories would otherwise show only its end."""
    if edit.text() != text:
        with QSignalBlocker(edit):
            edit.setText(text)
            edit.setCursorPosition(0)


def _parse_number(text: str, what: str, column: str) -> float:
    """``text`` as a float; a ValueError naming ``what`` of ``column`` when it is empty or not a number."""
    if not text.strip():
        raise ValueError(f"Declare the {what} of {column}'s domain (it must not come from the private data).")
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"The {what} {text!r} of {column} is not a number.") from None


def _parse_bins(text: str, column: str) -> int | None:
    if not text.strip():
        return None
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"The number of bins {text!r} of {column} is not a whole number.") from None


class DomainRow:
    """Lower, upper and a granularity or a number of bins for one numeric column, and a suggest button."""

    def __init__(self, column: str, texts: tuple[str, ...]) -> None:
        self.column = column
        self.lower = number_edit("e.g. 0")
        self.upper = number_edit("e.g. 20000")
        self.granularity = number_edit("auto")
        self.bins = QLineEdit()
        self.bins.setPlaceholderText("e.g. 100")
        self.bins.setValidator(QIntValidator(1, 1_000_000_000))
        self.bins.setClearButtonEnabled(True)
        self.bins.setToolTip(
            "B bins: grid step (upper − lower) / B, instead of a granularity (CLI --bins); for a synthetic "
            "table, B bins with each released value at its bin's middle (DOMAINS.json's \"bins\")."
        )
        self.unit = QLineEdit()
        self.unit.setPlaceholderText("e.g. USD")
        self.unit.setMaxLength(MAX_UNIT_LENGTH)
        self.unit.setToolTip("The values' unit, shown on the plots' axes and in the manifest (CLI --unit).")
        self.unit.setMinimumWidth(self.unit.fontMetrics().horizontalAdvance(UNIT_SHOWN) + UNIT_PADDING)
        self.suggest = QPushButton("Suggest from public sample")
        for edit, what in zip(self._edits(), FIELD_NAMES, strict=True):
            edit.setAccessibleName(f"{column} {what}")
        self.suggest.setAccessibleName(f"Suggest {column}'s domain from the public sample")
        self.show(texts)

    def _edits(self) -> tuple[QLineEdit, ...]:
        return self.lower, self.upper, self.granularity, self.bins, self.unit

    def fields(self) -> tuple[QWidget, ...]:
        """The row's inputs (not its suggest button) in the order they are shown, left to right."""
        return self._edits()

    def texts(self) -> tuple[str, ...]:
        return tuple(edit.text() for edit in self._edits())

    def show(self, texts: tuple[str, ...]) -> None:
        """Show declared texts (missing ones empty) without signalling an edit."""
        for edit, text in zip(self._edits(), (*texts, "", "", "", "", ""), strict=False):
            _show_text(edit, text)

    def domain(self, *, binned: bool = False) -> NumericDomain:
        """The declared grid; a ValueError naming the column when a field is missing or they conflict.
        ``binned`` (a synthetic table): a number of bins declares that many bins with a value at each
        middle (``NumericDomain.binned``), as DOMAINS.json does."""
        lower = _parse_number(self.lower.text(), "lower bound", self.column)
        upper = _parse_number(self.upper.text(), "upper bound", self.column)
        step = self.granularity.text()
        granularity = _parse_number(step, "granularity", self.column) if step.strip() else None
        bins = _parse_bins(self.bins.text(), self.column)
        try:
            return declared_grid(
                lower, upper, granularity=granularity, bins=bins, unit=self.unit.text(), binned=binned
            )
        except ValueError as error:
            raise ValueError(f"{self.column}: {error}.") from None

    def place(self, grid: QGridLayout, line: int) -> None:
        """Put the row's widgets on grid lines ``line`` and ``line + 1``."""
        for position, widget in enumerate((QLabel(self.column), *self._edits())):
            grid.addWidget(widget, line, position)
        grid.addWidget(self.suggest, line + 1, 1, 1, 5)

    def place_cells(self, table: QTableWidget, line: int) -> None:
        """Put the row's edits in ``table``'s line ``line`` (columns as NUMERIC_HEADERS)."""
        _name_cell(table, line, self.column)
        for position, edit in enumerate(self._edits(), start=1):
            table.setCellWidget(line, position, edit)

    def write_to(self, declared: DeclaredDomains) -> None:
        """Store the row's texts in ``declared`` after every edit."""
        for edit in self._edits():
            edit.textChanged.connect(lambda _text: declared.set_texts(self.column, self.texts()))


class CategoryRow:
    """A categorical column's declared categories, whether other values count as 'other', a suggest button."""

    def __init__(self, column: str, texts: tuple[str, ...]) -> None:
        self.column = column
        self.categories = QLineEdit()
        self.categories.setPlaceholderText("the categories, comma-separated")
        self.categories.setClearButtonEnabled(True)
        self.other = QCheckBox(f"count other values as '{OTHER}'")
        self.other.setToolTip("Undeclared values (and, when imputing, missing cells) go to one extra bucket.")
        self.suggest = QPushButton("Suggest from public sample")
        self.categories.setAccessibleName(f"{column} categories, comma-separated")
        self.other.setAccessibleName(f"{column}: count other values as '{OTHER}'")
        self.suggest.setAccessibleName(f"Suggest {column}'s categories from the public sample")
        self.show(texts)

    def texts(self) -> tuple[str, ...]:
        return self.categories.text(), OTHER if self.other.isChecked() else ""

    def fields(self) -> tuple[QWidget, ...]:
        """The row's inputs (not its suggest button) in the order they are shown, left to right."""
        return self.categories, self.other

    def show(self, texts: tuple[str, ...]) -> None:
        """Show declared texts (none: no categories, no 'other') without signalling an edit."""
        _show_text(self.categories, texts[0] if texts else "")
        with QSignalBlocker(self.other):
            self.other.setChecked(texts[1:2] == (OTHER,))

    def domain(self) -> CategoricalDomain:
        """The declared categories; a ValueError naming the column when there are none or they clash."""
        names = parse_categories(self.categories.text())
        if not names:
            raise ValueError(
                f"Declare the categories of {self.column}, comma-separated "
                "(typed, or suggested from a public sample; never from the private data)."
            )
        if self.other.isChecked() and OTHER in names:
            raise ValueError(
                f"{self.column}: '{OTHER}' is a declared category and also the bucket for other values; "
                "rename the category or uncheck the bucket."
            )
        try:
            return CategoricalDomain(names, self.other.isChecked())
        except ValueError as error:
            raise ValueError(f"{self.column}: {error}.") from None

    def place(self, grid: QGridLayout, line: int) -> None:
        """Put the row's widgets on grid lines ``line`` and ``line + 1``."""
        grid.addWidget(QLabel(self.column), line, 0)
        grid.addWidget(QLabel("Categories (comma-separated):"), line, 1, 1, 2)
        grid.addWidget(self.categories, line, 3, 1, 3)  # through the unit column, which numeric rows need
        grid.addWidget(self.other, line + 1, 1, 1, 2)
        grid.addWidget(self.suggest, line + 1, 3, 1, 3)

    def place_cells(self, table: QTableWidget, line: int) -> None:
        """Put the categories across the bounds' columns of ``table``'s line ``line``, 'other' across the
        bins and unit columns (in the bins column alone its label was cut off below about 1100 px)."""
        _name_cell(table, line, self.column)
        table.setSpan(line, 1, 1, 3)
        table.setCellWidget(line, 1, self.categories)
        table.setSpan(line, 4, 1, 2)
        table.setCellWidget(line, 4, self.other)

    def write_to(self, declared: DeclaredDomains) -> None:
        """Store the row's texts in ``declared`` after every edit."""
        self.categories.textChanged.connect(lambda _text: declared.set_texts(self.column, self.texts()))
        self.other.toggled.connect(lambda _checked: declared.set_texts(self.column, self.texts()))


def _name_cell(table: QTableWidget, line: int, column: str) -> None:
    """The column's name, read-only, in the first cell of ``table``'s line ``line``."""
    item = QTableWidgetItem(column)
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    table.setItem(line, 0, item)
