"""The Task page's "Missing values" group: impute a declared value, stop the release, or (a synthetic
table, where it is the default) keep them as a cell of their own (CLI --missing).

Rows are never dropped, so the row count n stays public.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QRadioButton

from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.ui.domain_rows import number_edit, number_text

MISSING_RULE = (
    "Rows are never dropped: n stays public. When replacing, a categorical column counts a missing cell as "
    "'other' (declare that bucket)."
)


class MissingBox(QGroupBox):
    """Impute (an optional fill value, default the lower bound), fail, or keep (tables only: ``for_table``);
    ``policy()`` is the spec's."""

    changed = Signal()

    def __init__(self) -> None:
        super().__init__("Missing values")
        self.impute = QRadioButton("Replace a missing value by")
        self.fill = number_edit("the lower bound")
        self.fill.setAccessibleName("Replace a missing value by this value (default: the lower bound)")
        self.fail = QRadioButton("Stop the release at the first missing value")
        self.keep = QRadioButton("Keep them: a cell of their own, left blank in the synthetic rows")
        self.keep.setToolTip(
            "Each column gets a 'missing' cell, measured with noise like the others, so the synthetic "
            "table leaves as many cells blank (and with the same relations) as the noisy counts say."
        )
        self.keep.hide()
        self.impute.setChecked(True)
        note = QLabel(MISSING_RULE)
        note.setWordWrap(True)
        layout = QGridLayout(self)
        layout.addWidget(self.impute, 0, 0)
        layout.addWidget(self.fill, 0, 1)
        layout.addWidget(self.fail, 1, 0, 1, 2)
        layout.addWidget(self.keep, 2, 0, 1, 2)
        layout.addWidget(note, 3, 0, 1, 2)
        for button in (self.impute, self.fail, self.keep):
            button.toggled.connect(self._kind_changed)
        self.fill.textChanged.connect(self.changed)

    def policy(self) -> MissingPolicy:
        """The chosen policy; a ValueError when the fill value is not a number."""
        if self.fail.isChecked():
            return MissingPolicy(MissingKind.FAIL)
        if self.keep.isChecked():
            return MissingPolicy(MissingKind.KEEP)
        text = self.fill.text().strip()
        try:
            fill = float(text) if text else None
        except ValueError:
            raise ValueError(f"The fill value {text!r} for missing cells is not a number.") from None
        return MissingPolicy(MissingKind.IMPUTE, fill)

    def for_table(self, table: bool) -> None:
        """Offer KEEP (and choose it, a synthetic table's default) for a table; else leave the choice."""
        if table == self.keep.isVisibleTo(self):
            return
        self.keep.setVisible(table)
        if table:
            self.keep.setChecked(True)
        elif self.keep.isChecked():
            self.impute.setChecked(True)

    def set_policy(self, policy: MissingPolicy) -> None:
        buttons = {MissingKind.FAIL: self.fail, MissingKind.KEEP: self.keep, MissingKind.IMPUTE: self.impute}
        buttons[policy.kind].setChecked(True)
        self.fill.setText("" if policy.fill_value is None else number_text(policy.fill_value))

    def _kind_changed(self, checked: bool) -> None:
        if not checked:
            return  # the button switched off; the one switched on reports
        self.fill.setEnabled(self.impute.isChecked())
        self.changed.emit()
