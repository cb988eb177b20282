"""A form generated from an algorithm's :class:`ParameterSpec` tuple: one editor per parameter, by kind."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import QCheckBox, QDoubleSpinBox, QFormLayout, QLabel, QLineEdit, QSpinBox, QWidget

from dpgui.tasks.registry import ParameterSpec
from dpgui.tasks.spec import ParameterValue

_INT_LIMIT = 2**31 - 1
"""QSpinBox holds a C int: wider declared ranges are clamped to it."""
_FLOAT_LIMIT = 1e12

Editor = QDoubleSpinBox | QSpinBox | QLineEdit | QCheckBox


class _CompactDoubleSpinBox(QDoubleSpinBox):
    """Shows 0.05 rather than 0.050000000 while keeping enough decimals for tiny minimums such as 1e-9."""

    def textFromValue(self, value: float) -> str:
        return self.locale().toString(value, "g", 10)


def _editor(spec: ParameterSpec) -> Editor:
    """One parameter's editor: bool -> QCheckBox, int -> QSpinBox, float -> QDoubleSpinBox, else text."""
    editor: Editor
    if spec.kind is bool:
        editor = QCheckBox()
        editor.setChecked(bool(spec.default))
    elif spec.kind is int:
        editor = QSpinBox()
        low = -_INT_LIMIT if spec.minimum is None else max(int(spec.minimum), -_INT_LIMIT)
        high = _INT_LIMIT if spec.maximum is None else min(int(spec.maximum), _INT_LIMIT)
        editor.setRange(low, high)
        editor.setValue(int(spec.default))
    elif spec.kind is float:
        editor = _CompactDoubleSpinBox()
        editor.setDecimals(9 if spec.minimum is not None and 0 < spec.minimum < 1e-3 else 4)
        editor.setRange(
            -_FLOAT_LIMIT if spec.minimum is None else spec.minimum,
            _FLOAT_LIMIT if spec.maximum is None else spec.maximum,
        )
        editor.setSingleStep(0.01 if (spec.maximum or 0) <= 1 else 1.0)
        editor.setValue(float(spec.default))
    else:
        editor = QLineEdit(str(spec.default))
    bounds = "" if spec.minimum is None else f" (range {spec.minimum:g} to {spec.maximum:g})"
    editor.setToolTip(f"{spec.help}{bounds}")
    editor.setObjectName(spec.name)
    return editor


def _value(editor: Editor, kind: type) -> ParameterValue:
    if isinstance(editor, QCheckBox):
        return editor.isChecked()
    if isinstance(editor, QSpinBox | QDoubleSpinBox):
        return editor.value()
    return kind(editor.text().strip())


class ParameterForm(QWidget):
    """Shows editors for a tuple of ParameterSpecs; :meth:`values` gives the spec's ``parameters`` pairs."""

    def __init__(self) -> None:
        super().__init__()
        self._layout = QFormLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._specs: tuple[ParameterSpec, ...] = ()
        self.editors: dict[str, Editor] = {}
        self.set_parameters(())

    def set_parameters(self, specs: Sequence[ParameterSpec]) -> None:
        """Rebuild the form for ``specs`` (each at its default); an empty tuple shows a short note."""
        while self._layout.rowCount():
            self._layout.removeRow(0)
        self._specs = tuple(specs)
        self.editors = {spec.name: _editor(spec) for spec in self._specs}
        for spec in self._specs:
            label = QLabel(f"{spec.name}:")
            label.setToolTip(spec.help)
            self._layout.addRow(label, self.editors[spec.name])
        if not self._specs:
            self._layout.addRow(QLabel("This algorithm has no parameters."))

    def set_values(self, values: Sequence[tuple[str, ParameterValue]]) -> None:
        """Put saved (name, value) pairs into the editors of the same names (unknown names are ignored)."""
        for name, value in values:
            editor = self.editors.get(name)
            if isinstance(editor, QCheckBox):
                editor.setChecked(bool(value))
            elif isinstance(editor, QSpinBox):
                editor.setValue(int(value))
            elif isinstance(editor, QDoubleSpinBox):
                editor.setValue(float(value))
            elif editor is not None:
                editor.setText(str(value))

    def values(self) -> tuple[tuple[str, ParameterValue], ...]:
        """(name, value) pairs as a TaskSpec takes them; raises ValueError for text that is not a value."""
        return tuple((spec.name, _value(self.editors[spec.name], spec.kind)) for spec in self._specs)
