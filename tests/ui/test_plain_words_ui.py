"""Plain words in the app (issue 15 item 5): the algorithm list, its Details control and the Help menu."""

from __future__ import annotations

from PySide6.QtCore import Qt

from dpgui.tasks.plain_words import GLOSSARY, PLAIN_WORDS
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind
from dpgui.ui.help_dialogs import GlossaryDialog, UserGuideDialog
from dpgui.ui.main_window import MainWindow


def entry_text(window: MainWindow, name: str) -> str:
    page = window.task_page
    rows = range(page.algorithm.count())
    return next(
        page.algorithm.item(r).text()
        for r in rows
        if page.algorithm.item(r).data(Qt.ItemDataRole.UserRole) == name
    )


def test_the_algorithm_list_shows_plain_words_and_the_paper_only_behind_details(demo_window: MainWindow):
    page = demo_window.task_page
    page.select_task(TaskKind.CDF)
    text = entry_text(demo_window, "pap")
    info = get_algorithm("pap")
    assert PLAIN_WORDS["pap"].name in text and f"Good for: {PLAIN_WORDS['pap'].good_for}" in text
    assert info.paper not in text
    page.select_algorithm("pap")
    assert not page.details.isVisibleTo(page) and info.paper in page.details.text()
    page.details_button.click()
    assert page.details.isVisibleTo(page) and page.details_button.isChecked()
    page.select_algorithm("auto")
    assert page.details.text().startswith("auto:")


def test_help_offers_the_user_guide_and_the_glossary(qtbot, demo_window: MainWindow):
    texts = [action.text() for action in demo_window.menuBar().actions()[-1].menu().actions()]
    assert texts[:2] == ["&User guide", "&Glossary"]
    demo_window.user_guide_action.trigger()
    guide = demo_window.help_dialog
    assert isinstance(guide, UserGuideDialog) and guide.isVisible()
    assert "The review before every charge" in guide.browser.toPlainText()
    guide.close()
    demo_window.glossary_action.trigger()
    glossary = demo_window.help_dialog
    assert isinstance(glossary, GlossaryDialog) and glossary.table.rowCount() == len(GLOSSARY)
    assert glossary.table.item(0, 0).text() == GLOSSARY[0][0]
    glossary.close()


def test_every_glossary_row_is_as_tall_as_its_wrapped_meaning_in_a_narrow_dialog(qtbot):
    """The rows were sized once, before the dialog had its size: uneven at its default width, and in a
    narrower dialog a meaning wrapped to more lines than its row had room for."""
    from PySide6.QtCore import QRect, Qt
    from PySide6.QtWidgets import QStyle

    dialog = GlossaryDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    dialog.resize(460, 640)
    qtbot.wait(50)
    table = dialog.table
    margin = table.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, table) + 1
    width = table.columnWidth(1) - 2 * margin  # the width the delegate wraps a meaning at
    metrics = table.fontMetrics()
    for row in range(table.rowCount()):
        text = table.item(row, 1).text()
        wrapped = metrics.boundingRect(QRect(0, 0, width, 1 << 20), Qt.TextFlag.TextWordWrap, text)
        assert table.rowHeight(row) >= wrapped.height(), text
