"""Help > User guide and Help > Glossary: plain words for the custodian (issue 15 item 5).

The user guide is ``docs/user-guide.md`` rendered as Markdown (in a source checkout or an sdist); an
installed wheel without the docs says where to read it. The glossary comes from
``dpgui.tasks.plain_words.GLOSSARY``, the same terms the app uses.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from dpgui.tasks.plain_words import GLOSSARY

USER_GUIDE = Path(__file__).resolve().parents[2] / "docs" / "user-guide.md"
MISSING_GUIDE = (
    "# User guide\n\nThe user guide is `docs/user-guide.md` in dpgui's source distribution; this "
    "installation does not include it. `dpgui --help` and `dpgui release TASK --help` list every option."
)


def user_guide_text(path: Path = USER_GUIDE) -> str:
    """The user guide's Markdown, or a note saying where to find it."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return MISSING_GUIDE


class _HelpDialog(QDialog):
    def __init__(self, title: str, body: QWidget, parent: QWidget | None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self.resize(820, 640)
        layout = QVBoxLayout(self)
        layout.addWidget(body, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class UserGuideDialog(_HelpDialog):
    """The user guide as formatted text."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self.browser = QTextBrowser()
        self.browser.setOpenExternalLinks(True)
        self.browser.setMarkdown(user_guide_text())
        self.browser.setAccessibleName("User guide")
        super().__init__("dpgui user guide", self.browser, parent)


class GlossaryDialog(_HelpDialog):
    """Every term of the glossary beside its plain-words meaning."""

    def __init__(self, parent: QWidget | None = None) -> None:
        self.table = QTableWidget(len(GLOSSARY), 2)
        self.table.setHorizontalHeaderLabels(["Term", "In plain words"])
        self.table.setAccessibleName("Glossary")
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.table.setTabKeyNavigation(False)
        for row, (term, meaning) in enumerate(GLOSSARY):
            self.table.setItem(row, 0, QTableWidgetItem(term))
            self.table.setItem(row, 1, QTableWidgetItem(meaning))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        # each row as tall as its meaning wrapped at the column's width, whatever the dialog's size: rows
        # sized once, before the dialog had its size, were uneven and cut a meaning off in a narrow dialog
        self.table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        # a scroll bar that appears once the rows are sized narrows the meanings' column under them
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        super().__init__("dpgui glossary", self.table, parent)
