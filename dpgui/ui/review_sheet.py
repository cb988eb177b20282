"""The review sheet: what a release will do, shown before anything is charged (issue 15, "spend safely").

"Run release" (toolbar, Ctrl+R, the Run page's button) opens it. It shows the review built by
``dpgui.tasks.review`` from public information only (the same words the CLI prints): task, columns,
algorithm and why, ε and δ, the budget after, the predicted error, and the sanity checks. "Charge and run"
accepts the sheet; while a check has failed, or the custodian-only data check has warned, it stays
disabled until the box acknowledging them is ticked. Nothing here reads the private data or touches the
ledger; the caller may add the warnings of the custodian-only data check (missing cells to be imputed, a
column mostly outside its declared bounds or categories), which the CLI prints before its review too.

A release plan's "Run plan…" opens the same sheet over several reviews, one section per release, charged
together.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGroupBox,
    QLabel,
    QPushButton,
    QScrollArea,
    QStyle,
    QVBoxLayout,
    QWidget,
)

from dpgui.tasks.review import Check, ReleaseReview
from dpgui.ui.theme import muted_colour
from dpgui.ui.wrapping_label import WrappingLabel

PASSED_MARK = "✓"
FAILED_MARK = "⚠"
FAILED_COLOUR = "#c0392b"
OVER_BUDGET_TIP = "It does not fit the budget left: lower ε or δ, or raise the total on the Budget page."
NO_TOTAL_TIP = "The dataset has no total budget: set one with Set total budget… on the Budget page."
SHEET_HEIGHT_SHARE = 0.9
"""The most of the main window's height the sheet takes before its reviews scroll."""
ACKNOWLEDGE = "I have read the failed checks and want to charge the budget anyway"
ACKNOWLEDGE_WARNINGS = "I have read the warnings about the private data and want to charge the budget anyway"


class ReviewSheet(QDialog):
    """A window-modal sheet over the main window; ``accepted`` means "charge and run".

    ``reviews`` is one release's review, or a plan's (name, review) pairs, shown one section each."""

    def __init__(
        self,
        reviews: ReleaseReview | Sequence[tuple[str, ReleaseReview]],
        parent: QWidget | None = None,
        *,
        data_warnings: Sequence[str] = (),
        data_note: str = "",
    ) -> None:
        super().__init__(parent)
        self.reviews = [("", reviews)] if isinstance(reviews, ReleaseReview) else list(reviews)
        self.review = self.reviews[0][1]
        """The (first) release's review."""
        self.failures = tuple(check for _, review in self.reviews for check in review.failures)
        self.over_budget = next((r.over_budget for _, r in self.reviews if r.over_budget is not None), None)
        """The ledger's refusal when a release does not fit the budget left: no charge can follow."""
        self.no_total = any(review.remaining_before is None for _, review in self.reviews)
        """No total is set: the ledger refuses every reservation (a GUI audit clicked the enabled button and
        got a refusal quoting a command line)."""
        self.setWindowTitle("Review before charging")
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.setMinimumWidth(640)
        layout = QVBoxLayout(self)
        several = len(self.reviews) > 1
        heading = QLabel(
            f"Nothing has been charged yet. Check what these {len(self.reviews)} releases will do (their "
            "budget is reserved together):"
            if several
            else "Nothing has been charged yet. Check what this release will do:"
        )
        heading.setWordWrap(True)
        bold = QFont(heading.font())
        bold.setBold(True)
        heading.setFont(bold)
        layout.addWidget(heading)
        self.check_labels: list[QLabel] = []
        body = QWidget()
        sections = QVBoxLayout(body)
        for name, review in self.reviews:
            section = QGroupBox(name) if several else QWidget()
            inner = QVBoxLayout(section)
            if not several:
                inner.setContentsMargins(0, 0, 0, 0)
            self._add_review(inner, review, bold)
            sections.addWidget(section)
        self.data_labels = [self._data_label(warning) for warning in data_warnings]
        self.data_note = QLabel(data_note)
        self.data_note.setWordWrap(True)
        self.data_note.setStyleSheet(f"color: {muted_colour().name()}")
        if self.data_labels or data_note:
            data_heading = QLabel("The private data (counts for you only; nothing of them is released)")
            data_heading.setFont(bold)
            sections.addWidget(data_heading)
            for label in [*self.data_labels, *([self.data_note] if data_note else [])]:
                sections.addWidget(label)
        sections.addStretch(1)
        if not several:
            sections.setContentsMargins(0, 0, 0, 0)
        self.scroll = QScrollArea()
        """The reviews scroll: a table's seven columns bring ten checks, and at 1024 x 700 the summary's
        wrapped rows were squeezed to one clipped line each."""
        self.scroll.setAccessibleName("What the release will cost and its checks")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidget(body)
        layout.addWidget(self.scroll, 1)

        self.needs_acknowledging = bool(self.failures or data_warnings)
        """A failed check or a data-check warning (a column wholly outside its bounds charged with one click,
        a GUI audit found) is acknowledged before the charge."""
        self.acknowledge = QCheckBox(ACKNOWLEDGE if self.failures else ACKNOWLEDGE_WARNINGS)
        self.acknowledge.setVisible(self.needs_acknowledging)
        self.acknowledge.toggled.connect(self._update_charge)
        layout.addWidget(self.acknowledge)

        buttons = QDialogButtonBox()
        self.charge_button = QPushButton("Charge and run")
        self.charge_button.setDefault(not self.needs_acknowledging)
        buttons.addButton(self.charge_button, QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._update_charge()
        self._fit_to(parent)

    def _fit_to(self, parent: QWidget | None) -> None:
        """As tall as the reviews need, up to most of the window it covers (then they scroll)."""
        body = self.scroll.widget()
        width = max(self.minimumWidth(), self.sizeHint().width())
        margins = self.layout().contentsMargins()
        scroll_bar = self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
        inner = width - margins.left() - margins.right() - scroll_bar
        body_height = body.layout().heightForWidth(inner) if body.layout().hasHeightForWidth() else -1
        slack = self.fontMetrics().lineSpacing()  # rounding in the wrapped rows' heights
        needed = self.sizeHint().height() - self.scroll.sizeHint().height() + max(body_height, 0) + slack
        limit = int(parent.height() * SHEET_HEIGHT_SHARE) if parent is not None else needed
        self.resize(width, max(min(needed, limit), self.minimumSizeHint().height()))

    def _add_review(self, layout: QVBoxLayout, review: ReleaseReview, bold: QFont) -> None:
        """One release's summary rows and its checks."""
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        for label, text in review.summary():
            value = WrappingLabel(text)
            value.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            if label == "Budget after" and review.over_budget is not None:
                value.setStyleSheet(f"color: {FAILED_COLOUR}")
            form.addRow(f"{label}:", value)
        layout.addLayout(form)
        checks_heading = QLabel("Checks (from public information only: nothing private is read)")
        checks_heading.setFont(bold)
        layout.addWidget(checks_heading)
        labels = [self._check_label(check) for check in review.checks]
        for label in labels:
            layout.addWidget(label)
        if not review.checks:
            layout.addWidget(QLabel("No check applies to this release."))
        self.check_labels += labels

    @staticmethod
    def _check_label(check: Check) -> QLabel:
        mark = PASSED_MARK if check.passed else FAILED_MARK
        label = QLabel(f"{mark} <b>{html.escape(check.title)}</b>: {html.escape(check.detail)}")
        label.setWordWrap(True)
        colour = muted_colour().name() if check.passed else FAILED_COLOUR
        label.setStyleSheet(f"color: {colour}")
        return label

    @staticmethod
    def _data_label(warning: str) -> QLabel:
        label = QLabel(f"{FAILED_MARK} {warning}")
        label.setTextFormat(Qt.TextFormat.PlainText)
        label.setWordWrap(True)
        label.setStyleSheet(f"color: {FAILED_COLOUR}")
        return label

    def _update_charge(self) -> None:
        refused = self.over_budget is not None or self.no_total
        self.charge_button.setEnabled(
            not refused and (not self.needs_acknowledging or self.acknowledge.isChecked())
        )
        if refused:
            self.charge_button.setToolTip(NO_TOTAL_TIP if self.no_total else OVER_BUDGET_TIP)
