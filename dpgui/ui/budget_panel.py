"""The dataset's privacy budget at a glance: total, spent, remaining, and a bar."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QFormLayout, QGroupBox, QLabel, QProgressBar, QPushButton, QVBoxLayout

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState

_BAR_STEPS = 1000


def format_cost(cost: PrivacyCost | None) -> str:
    """'ε = 1' or 'ε = 1, δ = 1e-06'; an em dash when there is no cost (no total set)."""
    if cost is None:
        return "—"
    text = f"ε = {cost.epsilon:.6g}"
    return text if cost.delta == 0 else f"{text}, δ = {cost.delta:.3g}"


class BudgetPanel(QGroupBox):
    """Shows a :class:`BudgetState`; asks for a new total through ``set_total_requested``."""

    set_total_requested = Signal()

    def __init__(self) -> None:
        super().__init__("Privacy budget")
        self.total_label = QLabel()
        self.spent_label = QLabel()
        self.remaining_label = QLabel()
        self.bar = QProgressBar()
        self.bar.setRange(0, _BAR_STEPS)
        self.bar.setTextVisible(True)
        self.set_total_button = QPushButton("Set total budget…")
        self.set_total_button.clicked.connect(self.set_total_requested)

        numbers = QFormLayout()
        numbers.addRow("Total:", self.total_label)
        numbers.addRow("Spent:", self.spent_label)
        numbers.addRow("Remaining:", self.remaining_label)
        layout = QVBoxLayout(self)
        layout.addLayout(numbers)
        layout.addWidget(self.bar)
        layout.addWidget(self.set_total_button)
        self.show_state(None)

    def show_state(self, state: BudgetState | None) -> None:
        """Display a dataset's budget, or an empty panel when no dataset is open."""
        self.set_total_button.setEnabled(state is not None)
        if state is None:
            for label in (self.total_label, self.spent_label, self.remaining_label):
                label.setText("—")
            self.bar.setValue(0)
            self.bar.setFormat("no dataset open")
            return
        self.total_label.setText(format_cost(state.total) if state.total else "not set — no release can run")
        spent = format_cost(state.spent)
        if state.pending.epsilon > 0 or state.pending.delta > 0:
            spent += f"  (+ {format_cost(state.pending)} running)"
        self.spent_label.setText(spent)
        self.remaining_label.setText(format_cost(state.remaining))
        if state.total is None or state.total.epsilon == 0:
            self.bar.setValue(0)
            self.bar.setFormat("no total budget set")
            return
        used = (state.spent.epsilon + state.pending.epsilon) / state.total.epsilon
        self.bar.setValue(round(min(used, 1.0) * _BAR_STEPS))
        self.bar.setFormat(f"{used:.0%} of ε used")
