"""Form labels with a visible "?": hovering shows the field's help in plain words, clicking it shows it too.

The help text is the same one the CLI prints for the matching flag (a parameter's ``ParameterSpec.help``)
or the glossary's entry (``dpgui.tasks.plain_words.GLOSSARY``), so the app and the CLI say one thing.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QLabel, QToolTip

from dpgui.tasks.plain_words import GLOSSARY

HELP_LINK = "help"


def help_label(text: str, help_text: str) -> QLabel:
    """``text`` followed by a "?" link; the label's tooltip, and a click on the "?", show ``help_text``."""
    label = QLabel(f'{text} <a href="{HELP_LINK}" style="text-decoration: none"><b>?</b></a>')
    label.setTextFormat(Qt.TextFormat.RichText)
    label.setTextInteractionFlags(
        Qt.TextInteractionFlag.LinksAccessibleByMouse | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
    )
    label.setToolTip(help_text)
    label.linkActivated.connect(lambda _link: QToolTip.showText(QCursor.pos(), help_text, label))
    return label


def glossary(term: str) -> str:
    """The glossary's plain words for ``term`` (a KeyError for a term it does not define)."""
    return dict(GLOSSARY)[term]
