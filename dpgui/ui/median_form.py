"""The median task's form: column, declared domain, epsilon, and the run controls.

The bounds start empty: a domain is public and is declared by the custodian (or suggested from a public
sample by the window), never read off the private data.
"""

from __future__ import annotations

from collections.abc import Mapping

from PySide6.QtCore import Signal
from PySide6.QtGui import QDoubleValidator, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
)

from dpgui.data.domain import NumericDomain, default_granularity
from dpgui.tasks.spec import TaskKind, TaskSpec

_PROGRESS_STEPS = 1000


def _number_edit(placeholder: str) -> QLineEdit:
    edit = QLineEdit()
    edit.setPlaceholderText(placeholder)
    edit.setValidator(QDoubleValidator())
    edit.setClearButtonEnabled(True)
    return edit


def _parse(edit: QLineEdit, what: str) -> float:
    text = edit.text().strip()
    if not text:
        raise ValueError(
            f"Declare the {what} of the column's domain (it must not come from the private data)."
        )
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"The {what} {text!r} is not a number.") from None


class MedianForm(QGroupBox):
    """Collects a median :class:`TaskSpec`; the window runs it (``run_requested``, ``cancel_requested``)."""

    run_requested = Signal()
    cancel_requested = Signal()
    suggest_requested = Signal(str)
    """The column whose bounds should be suggested from the public sample."""

    def __init__(self) -> None:
        super().__init__(TaskKind.MEDIAN.title)
        self.column = QComboBox()
        self.lower = _number_edit("declare, e.g. 0")
        self.upper = _number_edit("declare, e.g. 20000")
        self.granularity = _number_edit("auto from the bounds")
        self.epsilon = QDoubleSpinBox()
        self.epsilon.setRange(0.001, 100.0)
        self.epsilon.setDecimals(3)
        self.epsilon.setSingleStep(0.1)
        self.epsilon.setValue(1.0)
        self.suggest_button = QPushButton("Suggest from public sample")
        self.suggest_note = QLabel()
        self.suggest_note.setWordWrap(True)
        note_font = QFont(self.suggest_note.font())
        note_font.setPointSizeF(note_font.pointSizeF() * 0.9)
        note_font.setItalic(True)
        self.suggest_note.setFont(note_font)
        self.run_button = QPushButton("Run release")
        self.run_button.setDefault(True)
        self.cancel_button = QPushButton("Cancel")
        self.progress = QProgressBar()
        self.progress.setRange(0, _PROGRESS_STEPS)
        self.progress.setValue(0)

        bounds = QHBoxLayout()
        bounds.addWidget(self.lower)
        bounds.addWidget(QLabel("to"))
        bounds.addWidget(self.upper)
        fields = QFormLayout()
        fields.addRow("Column:", self.column)
        fields.addRow("Bounds:", bounds)
        fields.addRow("", self.suggest_button)
        fields.addRow("", self.suggest_note)
        fields.addRow("Granularity:", self.granularity)
        fields.addRow("Epsilon (ε):", self.epsilon)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run_button, 1)
        buttons.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(fields)
        layout.addLayout(buttons)
        layout.addWidget(self.progress)

        self._public_columns: frozenset[str] = frozenset()
        self._public_notes: Mapping[str, str] = {}
        self._running = False
        self.column.currentTextChanged.connect(self._column_changed)
        self.suggest_button.clicked.connect(lambda: self.suggest_requested.emit(self.column.currentText()))
        self.run_button.clicked.connect(self.run_requested)
        self.cancel_button.clicked.connect(self.cancel_requested)
        self.set_running(False)

    def set_columns(self, numeric_columns: list[str]) -> None:
        """Offer the private dataset's numeric columns (names only; the bounds are cleared)."""
        self.column.clear()
        self.column.addItems(numeric_columns)

    def set_public_columns(self, columns: list[str], notes: Mapping[str, str]) -> None:
        """The public sample's numeric columns (suggestions are offered for these) and per-column caveats."""
        self._public_columns = frozenset(columns)
        self._public_notes = notes
        self._update_suggest()

    def declare(self, column: str, domain: NumericDomain) -> None:
        """Fill in a declared domain for ``column`` (the demo's, or a suggestion from public data)."""
        self.column.setCurrentText(column)
        self.lower.setText(f"{domain.lower:g}")
        self.upper.setText(f"{domain.upper:g}")
        self.granularity.setText(f"{domain.granularity:g}")

    def spec(self) -> TaskSpec:
        """The form as a spec; raises ValueError (DataError included) naming what is wrong."""
        column = self.column.currentText()
        if not column:
            raise ValueError("Open a private dataset with a numeric column first.")
        lower, upper = _parse(self.lower, "lower bound"), _parse(self.upper, "upper bound")
        granularity = (
            _parse(self.granularity, "granularity")
            if self.granularity.text().strip()
            else default_granularity(lower, upper)
        )
        domain = NumericDomain(lower, upper, granularity)
        return TaskSpec(TaskKind.MEDIAN, (column,), (domain,), epsilon=self.epsilon.value())

    def set_running(self, running: bool) -> None:
        """Lock the inputs while a run is in flight; only Cancel stays available."""
        for widget in (self.column, self.lower, self.upper, self.granularity, self.epsilon, self.run_button):
            widget.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self._running = running
        self._update_suggest()

    def show_progress(self, fraction: float) -> None:
        self.progress.setValue(round(fraction * _PROGRESS_STEPS))

    def _column_changed(self) -> None:
        for edit in (self.lower, self.upper, self.granularity):
            edit.clear()  # bounds were declared for another column
        self._update_suggest()

    def _update_suggest(self) -> None:
        column = self.column.currentText()
        available = column in self._public_columns
        self.suggest_button.setEnabled(available and not self._running)
        if available:
            note = "Bounds from the public sample: check that its units match the private column."
            self.suggest_note.setText(f"{note} {self._public_notes.get(column, '')}".strip())
        else:
            self.suggest_note.setText("No public sample with this column is loaded.")
