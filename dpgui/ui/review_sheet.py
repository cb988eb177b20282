"""The review sheet: what a release will do, shown before anything is charged (issue 15, "spend safely").

"Run release" (toolbar, Ctrl+R, the Run page's button) opens it. It shows the review built by
``dpgui.tasks.review`` from public information only (the same words the CLI prints): task, columns,
algorithm and why, ε and δ, the budget after, the predicted error, and the sanity checks. "Charge and run"
accepts the sheet; while a check has failed it stays disabled until the box acknowledging the failures
is ticked. Nothing here reads the private data or touches the ledger.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dpgui.tasks.review import Check, ReleaseReview
from dpgui.ui.theme import muted_colour

PASSED_MARK = "✓"
FAILED_MARK = "⚠"
FAILED_COLOUR = "#c0392b"
ACKNOWLEDGE = "I have read the failed checks and want to charge the budget anyway"


class ReviewSheet(QDialog):
    """A window-modal sheet over the main window; ``accepted`` means "charge and run"."""

    def __init__(self, review: ReleaseReview, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.review = review
        self.setWindowTitle("Review before charging")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumWidth(640)
        layout = QVBoxLayout(self)
        heading = QLabel("Nothing has been charged yet. Check what this release will do:")
        bold = QFont(heading.font())
        bold.setBold(True)
        heading.setFont(bold)
        layout.addWidget(heading)

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for label, text in review.summary():
            value = QLabel(text)
            value.setWordWrap(True)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            form.addRow(f"{label}:", value)
        layout.addLayout(form)

        checks_heading = QLabel("Checks (from public information only: nothing private is read)")
        checks_heading.setFont(bold)
        layout.addWidget(checks_heading)
        checks = QVBoxLayout()
        checks.setSpacing(4)
        self.check_labels = [self._check_label(check) for check in review.checks]
        for label in self.check_labels:
            checks.addWidget(label)
        if not review.checks:
            checks.addWidget(QLabel("No check applies to this release."))
        layout.addLayout(checks)
        layout.addStretch(1)

        self.acknowledge = QCheckBox(ACKNOWLEDGE)
        self.acknowledge.setVisible(bool(review.failures))
        self.acknowledge.toggled.connect(self._update_charge)
        layout.addWidget(self.acknowledge)

        buttons = QDialogButtonBox()
        self.charge_button = QPushButton("Charge and run")
        self.charge_button.setDefault(not review.failures)
        buttons.addButton(self.charge_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._update_charge()

    @staticmethod
    def _check_label(check: Check) -> QLabel:
        mark = PASSED_MARK if check.passed else FAILED_MARK
        label = QLabel(f"{mark} <b>{html.escape(check.title)}</b>: {html.escape(check.detail)}")
        label.setWordWrap(True)
        colour = muted_colour().name() if check.passed else FAILED_COLOUR
        label.setStyleSheet(f"color: {colour}")
        return label

    def _update_charge(self) -> None:
        self.charge_button.setEnabled(not self.review.failures or self.acknowledge.isChecked())
