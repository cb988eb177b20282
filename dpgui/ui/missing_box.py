"""The Task page's "Missing values" group: impute a declared value or stop the release (CLI --missing).

Rows are never dropped, so the row count n stays public.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QRadioButton

from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.ui.domain_rows import number_edit, number_text

MISSING_RULE = (
    "Rows are never dropped: n stays public. A categorical column counts a missing cell as 'other' "
    "(declare that bucket)."
)


class MissingBox(QGroupBox):
    """Impute (an optional fill value, default the lower bound) or fail; ``policy()`` is the spec's."""

    changed = Signal()

    def __init__(self) -> None:
        super().__init__("Missing values")
        self.impute = QRadioButton("Replace a missing value by")
        self.fill = number_edit("the lower bound")
        self.fail = QRadioButton("Stop the release at the first missing value")
        self.impute.setChecked(True)
        note = QLabel(MISSING_RULE)
        note.setWordWrap(True)
        layout = QGridLayout(self)
        layout.addWidget(self.impute, 0, 0)
        layout.addWidget(self.fill, 0, 1)
        layout.addWidget(self.fail, 1, 0, 1, 2)
        layout.addWidget(note, 2, 0, 1, 2)
        self.impute.toggled.connect(self._kind_changed)
        self.fill.textChanged.connect(self.changed)

    def policy(self) -> MissingPolicy:
        """The chosen policy; a ValueError when the fill value is not a number."""
        if self.fail.isChecked():
            return MissingPolicy(MissingKind.FAIL)
        text = self.fill.text().strip()
        try:
            fill = float(text) if text else None
        except ValueError:
            raise ValueError(f"The fill value {text!r} for missing cells is not a number.") from None
        return MissingPolicy(MissingKind.IMPUTE, fill)

    def set_policy(self, policy: MissingPolicy) -> None:
        (self.fail if policy.kind is MissingKind.FAIL else self.impute).setChecked(True)
        self.fill.setText("" if policy.fill_value is None else number_text(policy.fill_value))

    def _kind_changed(self) -> None:
        self.fill.setEnabled(self.impute.isChecked())
        self.changed.emit()
