"""A form generated from an algorithm's :class:`ParameterSpec` tuple: one editor per parameter, by kind."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from dpgui.tasks.registry import ParameterSpec
from dpgui.tasks.spec import ParameterValue
from dpgui.ui.accessible import focusable_before, in_tab_order
from dpgui.ui.disclosure import disclosure_button
from dpgui.ui.help_mark import help_label
from dpgui.ui.number_box import NumberBox

_INT_LIMIT = 2**31 - 1
"""QSpinBox holds a C int: wider declared ranges are clamped to it."""
_FLOAT_LIMIT = 1e12

Editor = QDoubleSpinBox | QSpinBox | QLineEdit | QCheckBox | QComboBox


def _editor(spec: ParameterSpec) -> Editor:
    """One parameter's editor: choices -> QComboBox, bool -> QCheckBox, int -> QSpinBox, float ->
    QDoubleSpinBox, else text."""
    editor: Editor
    if spec.choices:
        editor = QComboBox()
        editor.addItems(list(spec.choices))
        editor.setCurrentText(str(spec.default))
    elif spec.kind is bool:
        editor = QCheckBox()
        editor.setChecked(bool(spec.default))
    elif spec.kind is int:
        editor = QSpinBox()
        low = -_INT_LIMIT if spec.minimum is None else max(int(spec.minimum), -_INT_LIMIT)
        high = _INT_LIMIT if spec.maximum is None else min(int(spec.maximum), _INT_LIMIT)
        editor.setRange(low, high)
        editor.setValue(int(spec.default))
    elif spec.kind is float:
        editor = NumberBox(
            -_FLOAT_LIMIT if spec.minimum is None else spec.minimum,
            _FLOAT_LIMIT if spec.maximum is None else spec.maximum,
            float(spec.default),
        )
        editor.setSingleStep(0.01 if (spec.maximum or 0) <= 1 else 1.0)
    else:
        editor = QLineEdit(str(spec.default))
    bounds = "" if spec.minimum is None else f" (range {spec.minimum:g} to {spec.maximum:g})"
    editor.setToolTip(f"{spec.help}{bounds}")
    editor.setObjectName(spec.name)
    editor.setAccessibleName(spec.name)
    return editor


def _with_browse(editor: QLineEdit, title: str) -> tuple[QWidget, QPushButton]:
    """The path's text editor with a "Browse…" button that fills it from a file dialog, and the button."""
    button = QPushButton("Browse…")
    button.setObjectName(f"{editor.objectName()}-browse")
    button.setAccessibleName(f"Browse for the {editor.objectName()} file")
    button.setToolTip("Choose a PUBLIC file (never the private dataset).")

    def browse() -> None:
        name, _ = QFileDialog.getOpenFileName(
            button, title, editor.text(), "CSV files (*.csv);;All files (*)"
        )
        if name:
            editor.setText(name)

    button.clicked.connect(browse)
    row = QWidget()
    layout = QHBoxLayout(row)
    layout.setContentsMargins(0, 0, 0, 0)
    layout.addWidget(editor, 1)
    layout.addWidget(button)
    return row, button


def _value(editor: Editor, kind: type) -> ParameterValue:
    if isinstance(editor, QCheckBox):
        return editor.isChecked()
    if isinstance(editor, QSpinBox | QDoubleSpinBox):
        return editor.value()
    if isinstance(editor, QComboBox):
        return editor.currentText()
    return kind(editor.text().strip())


class ParameterForm(QWidget):
    """Shows editors for a tuple of ParameterSpecs; :meth:`values` gives the spec's ``parameters`` pairs.

    Parameters marked ``advanced`` (tuning knobs with sound defaults) sit in a section that starts
    collapsed behind an "Advanced" button; the others are always shown.
    """

    def __init__(self) -> None:
        super().__init__()
        self._layout = QFormLayout()
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.advanced_box = QWidget()
        self._advanced_layout = QFormLayout(self.advanced_box)
        self._advanced_layout.setContentsMargins(12, 0, 0, 0)
        self.advanced_button = disclosure_button(
            "Advanced", "Tuning parameters; their defaults suit most releases.", self.advanced_box
        )
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addLayout(self._layout)
        outer.addWidget(self.advanced_button)
        outer.addWidget(self.advanced_box)
        self._specs: tuple[ParameterSpec, ...] = ()
        self.editors: dict[str, Editor] = {}
        self.set_parameters(())

    def set_parameters(self, specs: Sequence[ParameterSpec]) -> None:
        """Rebuild the form for ``specs`` (each at its default); an empty tuple shows a short note."""
        for layout in (self._layout, self._advanced_layout):
            while layout.rowCount():
                layout.removeRow(0)
        before = focusable_before(self.advanced_button)  # where the new editors go in the tab chain
        self._specs = tuple(specs)
        self.editors = {spec.name: _editor(spec) for spec in self._specs}
        shown: list[QWidget] = []
        hidden: list[QWidget] = []  # behind "Advanced"
        for spec in self._specs:
            label = help_label(f"{spec.name}:", spec.help)
            editor = self.editors[spec.name]
            label.setBuddy(editor)
            layout = self._advanced_layout if spec.advanced else self._layout
            fields = hidden if spec.advanced else shown
            if spec.path and isinstance(editor, QLineEdit):
                editor.setPlaceholderText("path of a public CSV file")
                row, browse = _with_browse(editor, f"Choose the public {spec.name} file")
                layout.addRow(label, row)
                fields += [label, editor, browse]
            else:
                layout.addRow(label, editor)
                fields += [label, editor]
        # the editors are made after the button: they would come after the whole window in the tab chain
        in_tab_order([before, *shown, self.advanced_button, *hidden])
        for spec in self._specs:
            source = self.editors.get(spec.set_by)
            if isinstance(source, QLineEdit):
                source.textChanged.connect(self._follow_files)
        self._follow_files()
        if not self._specs:
            self._layout.addRow(QLabel("This algorithm has no parameters."))
        self.advanced_button.setVisible(any(spec.advanced for spec in self._specs))
        self.advanced_button.setChecked(False)

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
            elif isinstance(editor, QComboBox):
                editor.setCurrentText(str(value))
            elif editor is not None:
                editor.setText(str(value))

    def values(self) -> tuple[tuple[str, ParameterValue], ...]:
        """(name, value) pairs as a TaskSpec takes them, without a parameter whose file (``set_by``) is named
        (the core refuses both); raises ValueError for text that is not a value."""
        return tuple(
            (spec.name, _value(self.editors[spec.name], spec.kind))
            for spec in self._specs
            if not self._set_by_file(spec)
        )

    def _set_by_file(self, spec: ParameterSpec) -> bool:
        """Whether the file that sets ``spec`` (``set_by``) is named in its editor."""
        source = self.editors.get(spec.set_by)
        return isinstance(source, QLineEdit) and bool(source.text().strip())

    def _follow_files(self) -> None:
        """Disable each editor whose value a named file sets (its rows set the query count)."""
        for spec in self._specs:
            self.editors[spec.name].setEnabled(not self._set_by_file(spec))
