"""A screen reader can name every field of the main flow, and a release can be made from the keyboard alone.

Orca and NVDA read Qt's accessibility tree: a focusable widget is named by its own accessible name, by the
QLabel whose buddy it is, or by its button text. Qt's other fallbacks do not count here: a group box's
title names every field in the box alike, and a combo box's "name" on Linux is its current value.
"""

from __future__ import annotations

from itertools import pairwise

from PySide6.QtCore import Qt
from PySide6.QtGui import QTextDocumentFragment
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QFileDialog,
    QLabel,
    QTabBar,
    QTabWidget,
    QWidget,
)

from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.spec import TaskKind
from dpgui.ui.help_dialogs import GlossaryDialog, UserGuideDialog
from dpgui.ui.main_window import BUDGET, DATA, PAGES, REVIEW, RUN, TASK, MainWindow
from tests.ui.test_main_window import charge_from_the_review, pick_cdf, set_total

TAB_PRESSES = 60
"""More Tab presses than any page has fields: a field not reached by then is not in the page's tab chain."""


def _plain(text: str) -> str:
    return " ".join(QTextDocumentFragment.fromHtml(text).toPlainText().replace("&", "").split())


def spoken_name(widget: QWidget) -> str:
    """What a screen reader names ``widget`` by: its accessible name, its buddy label's text, its text (a
    button, a label) or, for a tab bar, its current tab's."""
    if widget.accessibleName():
        return widget.accessibleName()
    buddies = [label for label in widget.window().findChildren(QLabel) if label.buddy() is widget]
    if buddies:
        return _plain(buddies[0].text())
    if isinstance(widget, QAbstractButton | QLabel):
        return _plain(widget.text())
    if isinstance(widget, QTabBar):
        return widget.tabText(widget.currentIndex())
    return ""


def takes_tab_focus(widget: QWidget) -> bool:
    """Shown and in the tab chain (a spin box's inner edit is not: its focus goes to the spin box)."""
    return (
        widget.isVisible()
        and bool(widget.focusPolicy() & Qt.FocusPolicy.TabFocus)
        and widget.focusProxy() is None
    )


def unnamed(root: QWidget) -> list[str]:
    """The focusable widgets under ``root``, each tab of its tab widgets shown in turn, with no name."""
    missing: set[str] = set()
    for tabs in [None, *root.findChildren(QTabWidget)]:
        for index in range(1 if tabs is None else tabs.count()):
            if tabs is not None:
                if not tabs.isVisible() or not tabs.isTabVisible(index):
                    continue
                tabs.setCurrentIndex(index)
                QApplication.processEvents()
            for widget in root.findChildren(QWidget):
                if takes_tab_focus(widget) and not spoken_name(widget):
                    where = type(widget.parentWidget()).__name__
                    missing.add(f"{type(widget).__name__} {widget.objectName()!r} in {where}")
    return sorted(missing)


def release_by_the_window(qtbot, window: MainWindow) -> None:
    """A CDF of wage released as the Run button asks for it."""
    set_total(window, 20.0)
    pick_cdf(window)
    window.go_to(RUN)
    window.run_page.run_button.click()
    charge_from_the_review(qtbot, window)
    job = window.current_job
    assert job is not None
    with qtbot.waitSignal(job.released, timeout=30_000):
        pass


def test_every_focusable_widget_of_the_main_flow_has_a_name_a_screen_reader_speaks(qtbot, window):
    window.show()
    qtbot.waitExposed(window)
    window.task_page.select_task(TaskKind.QUANTILES)  # a form with parameters behind "Advanced"
    window.task_page.parameters.advanced_button.setChecked(True)
    found = {}
    for page in range(len(PAGES)):
        window.go_to(page)
        found[PAGES[page]] = unnamed(window)
    release_by_the_window(qtbot, window)
    found["Review of a release"] = unnamed(window)
    for dialog in (UserGuideDialog(window), GlossaryDialog(window)):
        qtbot.addWidget(dialog)
        dialog.show()
        found[dialog.windowTitle()] = unnamed(dialog)
    assert {where: widgets for where, widgets in found.items() if widgets} == {}


def test_tab_leaves_the_review_pages_table_of_released_values(qtbot, window):
    """Tab went from cell to cell of the released values (1,001 rows for a CDF), and past the last one to a
    tab widget whose tab bar is hidden, which kept the focus where it was."""
    window.show()
    release_by_the_window(qtbot, window)
    window.activateWindow()
    QTest.qWaitForWindowActive(window)
    table = window.review_page.table
    table.setFocus()
    table.setCurrentIndex(table.model().index(table.model().rowCount() - 1, 1))  # the last cell
    qtbot.keyClick(table, Qt.Key.Key_Tab)
    assert QApplication.focusWidget() is not table
    assert QApplication.focusWidget() is window.review_page.plot


def test_plots_are_named_and_described_by_what_they_show(qtbot, window):
    window.show()
    release_by_the_window(qtbot, window)
    plot = window.review_page.plot
    title = _plain(plot.getPlotItem().titleLabel.text)
    assert title and plot.accessibleName() == title
    bottom = plot.getPlotItem().getAxis("bottom").labelText
    assert f"Horizontal axis: {_plain(bottom)}" in plot.accessibleDescription()


def tab_to(qtbot, window: MainWindow, name: str) -> QWidget:
    """Press Tab until the widget named ``name`` has the focus (fails if the tab chain never reaches it)."""
    for _ in range(TAB_PRESSES):
        QApplication.processEvents()  # a page shows the fields it rebuilt (a new task's) once events run
        focused = QApplication.focusWidget()
        if focused is not None and spoken_name(focused) == name:
            return focused
        qtbot.keyClick(focused or window, Qt.Key.Key_Tab)
    raise AssertionError(f"Tab never reached {name!r}")


def press(qtbot, window: MainWindow, key: Qt.Key, modifier=Qt.KeyboardModifier.NoModifier) -> None:
    """A key pressed where the focus is (a shortcut reaches the window's actions from there)."""
    qtbot.keyClick(QApplication.focusWidget() or window, key, modifier)


def test_a_release_is_made_and_exported_from_the_keyboard_alone(qtbot, demo_window, monkeypatch, tmp_path):
    """Opening the files goes through the platform's file dialogs, which offscreen Qt cannot type into:
    the fixture opens them, and the export folder is answered for the dialog as the export tests do."""
    window = demo_window
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(20.0))  # "Set total budget…" asks in a dialog
    window.show()
    window.activateWindow()
    QTest.qWaitForWindowActive(window)
    control = Qt.KeyboardModifier.ControlModifier

    press(qtbot, window, Qt.Key.Key_2, control)
    assert window.pages.currentIndex() == TASK
    assert QApplication.focusWidget() is window.task_page.task  # the page's first field
    for _ in range(window.task_page.task.count()):  # the arrows go through the tasks (Space opens the list)
        if window.task_page.kind is TaskKind.CDF:
            break
        press(qtbot, window, Qt.Key.Key_Down)
    assert window.task_page.kind is TaskKind.CDF
    column = tab_to(qtbot, window, "Column:")
    qtbot.keyClicks(column, "wage")
    for name, text in (("wage lower bound", "0"), ("wage upper bound", "20000"), ("wage granularity", "20")):
        qtbot.keyClicks(tab_to(qtbot, window, name), text)

    press(qtbot, window, Qt.Key.Key_3, control)
    assert window.pages.currentIndex() == BUDGET
    epsilon = window.budget_page.epsilon
    assert QApplication.focusWidget() is epsilon
    press(qtbot, window, Qt.Key.Key_A, control)
    qtbot.keyClicks(QApplication.focusWidget(), "0.5")
    assert epsilon.value() == 0.5

    press(qtbot, window, Qt.Key.Key_R, control)  # Release > Run release: the review sheet opens
    qtbot.waitUntil(
        lambda: window.review_sheet is not None and window.review_sheet.isVisible(), timeout=15000
    )
    sheet = window.review_sheet
    assert window.pages.currentIndex() == RUN and sheet.charge_button.isDefault()
    qtbot.keyClick(sheet, Qt.Key.Key_Return)  # "Charge and run"
    job = window.current_job
    assert job is not None
    with qtbot.waitSignal(job.released, timeout=30_000):
        pass

    release = window.release
    assert release is not None and release.spec.kind is TaskKind.CDF and release.cost.epsilon == 0.5
    assert window.pages.currentIndex() == REVIEW
    assert window.focusWidget() is window.review_page.headline  # what was released, spoken first
    window.activateWindow()  # a desktop's window manager does this when the review sheet closes
    QTest.qWaitForWindowActive(window)
    folder = tmp_path / "export"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *args, **kwargs: (str(folder), ""))
    button = tab_to(qtbot, window, "Export release…")
    qtbot.keyClick(button, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not window.exporter.busy, timeout=15000)
    assert (folder / "manifest.json").is_file()
    offer = window.exported_offer
    assert offer is not None and offer.isVisible()
    qtbot.keyClick(offer, Qt.Key.Key_Escape)  # "Release exported": closed from the keyboard
    assert not offer.isVisible()

    window.activateWindow()
    QTest.qWaitForWindowActive(window)
    press(qtbot, window, Qt.Key.Key_1, control)
    assert window.pages.currentIndex() == DATA
    assert window.focusWidget() is window.data_page.engine


def _box(widget: QWidget, page: QWidget) -> tuple[int, int, int, int]:
    """``widget``'s left, top, right and bottom in ``page``'s coordinates."""
    top_left = widget.mapTo(page, widget.rect().topLeft())
    return top_left.x(), top_left.y(), top_left.x() + widget.width(), top_left.y() + widget.height()


def test_tab_goes_through_the_task_page_as_it_reads_left_column_first(qtbot, window):
    """Top to bottom, left to right within a row; the left column (task, columns, their domains, missing
    values) before the right one (algorithm, parameters). The domain rows and the parameter editors are
    built after the page, when the task or the algorithm changes."""
    window.show()
    page = window.task_page
    page.select_task(TaskKind.QUANTILES)
    page.select_columns(["wage"])
    page.select_algorithm("em-each")
    page.parameters.advanced_button.setChecked(True)
    window.go_to(TASK)
    QApplication.processEvents()
    right = _box(page.algorithm, page)[0]
    chain, widget = [], page.nextInFocusChain()
    while widget is not page:
        if page.isAncestorOf(widget) and takes_tab_focus(widget) and widget.isEnabled():
            chain.append(widget)
        widget = widget.nextInFocusChain()
    assert page.domain_rows["wage"].lower in chain and page.parameters.editors
    assert all(editor in chain for editor in page.parameters.editors.values() if editor.isEnabled())
    for before, after in pairwise(chain[1:]):  # after the page's scroll area
        (left_a, top_a, _, bottom_a), (left_b, top_b, _, bottom_b) = _box(before, page), _box(after, page)
        same_side = (left_a >= right) == (left_b >= right)
        below = top_b >= (top_a + bottom_a) / 2
        beside = top_b < bottom_a and bottom_b > top_a and left_b > left_a
        assert (left_b >= right > left_a) or (same_side and (below or beside)), (
            f"Tab goes from {spoken_name(before)!r} to {spoken_name(after)!r}"
        )
