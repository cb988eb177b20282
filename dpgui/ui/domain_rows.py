"""The Task page's declared-domain rows: bounds with a granularity or a number of bins, or a category list.

Each row turns what the custodian typed (or a public-sample suggestion) into a domain, as the CLI's
``--bounds/--granularity/--bins`` and ``--categories/--other`` do; nothing here reads the private data.
"""

from __future__ import annotations

from PySide6.QtCore import SignalInstance
from PySide6.QtGui import QDoubleValidator, QIntValidator
from PySide6.QtWidgets import QCheckBox, QGridLayout, QLabel, QLineEdit, QPushButton

from dpgui.data.domain import CategoricalDomain, NumericDomain, declared_grid, parse_categories
from dpgui.tasks.spec import Domain

OTHER = "other"
"""The label of the extra bucket that counts undeclared values (dpgui/tasks/sanitize.py)."""
NUMERIC_HEADERS = ("Column", "Lower", "Upper", "Granularity", "or Bins")


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
        self.bins.setToolTip("B bins: grid step (upper − lower) / B, instead of a granularity (CLI --bins).")
        self.suggest = QPushButton("Suggest from public sample")
        for edit, text in zip(self._edits(), texts, strict=False):
            edit.setText(text)

    def _edits(self) -> tuple[QLineEdit, ...]:
        return self.lower, self.upper, self.granularity, self.bins

    def texts(self) -> tuple[str, ...]:
        return tuple(edit.text() for edit in self._edits())

    def set_domain(self, domain: Domain) -> None:
        """Show a numeric domain (a ValueError for categories: this column is numeric)."""
        if not isinstance(domain, NumericDomain):
            raise ValueError(f"{self.column} is numeric: declare its bounds, not categories")
        self.lower.setText(number_text(domain.lower))
        self.upper.setText(number_text(domain.upper))
        self.granularity.setText(number_text(domain.granularity))
        self.bins.clear()

    def domain(self) -> NumericDomain:
        """The declared grid; a ValueError naming the column when a field is missing or they conflict."""
        lower = _parse_number(self.lower.text(), "lower bound", self.column)
        upper = _parse_number(self.upper.text(), "upper bound", self.column)
        step = self.granularity.text()
        granularity = _parse_number(step, "granularity", self.column) if step.strip() else None
        bins = _parse_bins(self.bins.text(), self.column)
        try:
            return declared_grid(lower, upper, granularity=granularity, bins=bins)
        except ValueError as error:
            raise ValueError(f"{self.column}: {error}.") from None

    def place(self, grid: QGridLayout, line: int) -> None:
        """Put the row's widgets on grid lines ``line`` and ``line + 1``."""
        for position, widget in enumerate((QLabel(self.column), *self._edits())):
            grid.addWidget(widget, line, position)
        grid.addWidget(self.suggest, line + 1, 1, 1, 4)

    def connect(self, changed: SignalInstance) -> None:
        """Forward every edit of the row to ``changed``."""
        for edit in self._edits():
            edit.textChanged.connect(changed)


class CategoryRow:
    """A categorical column's declared categories, whether other values count as 'other', a suggest button."""

    def __init__(self, column: str, texts: tuple[str, ...]) -> None:
        self.column = column
        self.categories = QLineEdit()
        self.categories.setPlaceholderText("e.g. northeast, midwest, south, west")
        self.categories.setClearButtonEnabled(True)
        self.other = QCheckBox(f"count other values as '{OTHER}'")
        self.other.setToolTip("Undeclared values (and, when imputing, missing cells) go to one extra bucket.")
        self.suggest = QPushButton("Suggest from public sample")
        if texts:
            self.categories.setText(texts[0])
            self.other.setChecked(texts[1:] == (OTHER,))

    def texts(self) -> tuple[str, ...]:
        return self.categories.text(), OTHER if self.other.isChecked() else ""

    def set_domain(self, domain: Domain) -> None:
        """Show declared categories (a ValueError for bounds: this column is categorical)."""
        if not isinstance(domain, CategoricalDomain):
            raise ValueError(f"{self.column} is categorical: declare its categories, not bounds")
        self.categories.setText(", ".join(domain.categories))
        self.other.setChecked(domain.other)

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
        grid.addWidget(self.categories, line, 3, 1, 2)
        grid.addWidget(self.other, line + 1, 1, 1, 2)
        grid.addWidget(self.suggest, line + 1, 3, 1, 2)

    def connect(self, changed: SignalInstance) -> None:
        """Forward every edit of the row to ``changed``."""
        self.categories.textChanged.connect(changed)
        self.other.toggled.connect(changed)
