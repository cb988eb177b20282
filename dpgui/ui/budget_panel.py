"""The dataset's privacy budget at a glance: total, spent, remaining, and a three-segment bar."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPaintEvent
from PySide6.QtWidgets import QFormLayout, QGroupBox, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from dpgui.privacy.budget_words import remaining_words, spent_words
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState
from dpgui.ui.theme import is_dark
from dpgui.ui.wrapping_label import WrappingLabel

SEGMENT_COLOURS = (QColor("#5b6778"), QColor("#e8912d"), QColor("#cfe8cf"))
"""Spent, this release, remaining (on a light palette)."""
DARK_SEGMENT_COLOURS = (QColor("#46505f"), QColor("#a8560f"), QColor("#2f5d36"))
"""The same on a dark palette, so the caption in the palette's text colour stays readable."""


def saving_text(state: BudgetState) -> str:
    """What the accountant saves against basic composition, or that it charges the plain sum."""
    if state.spent_basic is None or not state.tight:
        return "basic composition (ε and δ add up)"
    if state.basic_beyond_delta:
        return (
            f"tight composition: basic composition ({format_cost(state.spent_basic)}) is beyond the total's δ"
        )
    return (  # the two figures hold at different δs: say both (a GUI audit read one δ for both)
        f"tight composition (ε at the total's δ = {state.spent.delta:.3g}) saves ε = {state.saving:.3g} "
        f"against basic composition ({format_cost(state.spent_basic)})"
    )


def format_cost(cost: PrivacyCost | None) -> str:
    """'ε = 1' or 'ε = 1, δ = 1e-06'; an em dash when there is no cost (no total set)."""
    if cost is None:
        return "—"
    text = f"ε = {cost.epsilon:.6g}"
    return text if cost.delta == 0 else f"{text}, δ = {cost.delta:.3g}"


class BudgetBar(QWidget):
    """The total ε as a bar of three segments: spent (and running), this release, what remains after it."""

    def __init__(self) -> None:
        super().__init__()
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.fractions = (0.0, 0.0, 0.0)
        self.caption = "no dataset open"

    def sizeHint(self) -> QSize:
        return QSize(300, self.fontMetrics().height() * 2)

    def show_budget(self, total: float | None, spent: float, release: float) -> None:
        """Segments as fractions of ``total`` (clipped to the bar); no total shows an empty bar."""
        if not total:
            self.fractions = (0.0, 0.0, 0.0)
            self.caption = "no total budget set"
        else:
            used = min(spent / total, 1.0)
            this = min(release / total, 1.0 - used)
            self.fractions = (used, this, 1.0 - used - this)
            over = " — this release does not fit" if spent + release > total * (1 + 1e-12) else ""
            self.caption = f"spent {spent / total:.0%} · this release {release / total:.0%}{over}"
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        area = QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5)
        left = area.left()
        colours = DARK_SEGMENT_COLOURS if is_dark(self.palette()) else SEGMENT_COLOURS
        for fraction, colour in zip(self.fractions, colours, strict=True):
            width = fraction * area.width()
            painter.fillRect(QRectF(left, area.top(), width, area.height()), colour)
            left += width
        painter.setPen(self.palette().windowText().color())
        painter.drawRect(area)
        painter.drawText(area, Qt.AlignmentFlag.AlignCenter, self.caption)
        painter.end()


class BudgetPanel(QGroupBox):
    """Shows a :class:`BudgetState`; asks for a new total through ``set_total_requested``."""

    set_total_requested = Signal()

    def __init__(self) -> None:
        super().__init__("Privacy budget")
        self.total_label = WrappingLabel()
        self.spent_label = WrappingLabel()
        self.remaining_label = WrappingLabel()
        self.accounting_label = WrappingLabel()
        self.accounting_label.setToolTip(
            "The spent budget is the tight composition of every release's privacy curve (privacy loss "
            "distributions, zCDP), reported as ε at the total's δ, and never more than basic composition."
        )
        self.bar = BudgetBar()
        self.set_total_button = QPushButton("Set total budget…")
        self.set_total_button.clicked.connect(self.set_total_requested)

        numbers = QFormLayout()
        numbers.addRow("Total:", self.total_label)
        numbers.addRow("Spent:", self.spent_label)
        numbers.addRow("Remaining:", self.remaining_label)
        numbers.addRow("Accounting:", self.accounting_label)
        layout = QVBoxLayout(self)
        layout.addLayout(numbers)
        layout.addWidget(self.bar)
        layout.addWidget(self.set_total_button)
        self.show_state(None)

    def show_state(self, state: BudgetState | None, release: PrivacyCost | None = None) -> None:
        """Display a dataset's budget (and ``release``, the cost about to be spent) or an empty panel."""
        self.set_total_button.setEnabled(state is not None)
        if state is None:
            for label in (self.total_label, self.spent_label, self.remaining_label, self.accounting_label):
                label.setText("—")
            self.bar.show_budget(None, 0.0, 0.0)
            self.bar.caption = "no dataset open"
            return
        self.total_label.setText(format_cost(state.total) if state.total else "not set — no release can run")
        spent = spent_words(state, format_cost)
        if state.pending.epsilon > 0 or state.pending.delta > 0:
            spent += f"  (+ {format_cost(state.pending)} running)"
        self.spent_label.setText(spent)
        self.remaining_label.setText(remaining_words(state, format_cost))
        self.accounting_label.setText(saving_text(state))
        total = state.total.epsilon if state.total is not None else None
        this = release.epsilon if release is not None else 0.0
        self.bar.show_budget(total, state.spent.epsilon + state.pending.epsilon, this)
