"""The window fits a small screen: 1024x700 (a 1024x768 laptop less its task bar and title bar)."""

from __future__ import annotations

from dpgui.ui.main_window import BUDGET, MainWindow

SMALL = (1024, 700)


def test_the_window_can_be_as_small_as_1024_by_700_on_every_page(qtbot, demo_window: MainWindow):
    window = demo_window
    window.show()
    qtbot.waitExposed(window)
    for page in range(window.pages.count()):
        window.go_to(page)
        window.resize(*SMALL)
        qtbot.wait(10)
        assert window.minimumSizeHint().width() <= SMALL[0] and window.minimumSizeHint().height() <= SMALL[1]
        assert (window.width(), window.height()) == SMALL, f"page {page}"
    window.go_to(BUDGET)
    plan = window.budget_page.plan_view
    assert plan.mode.minimumSizeHint().width() < 200  # the long mode names no longer set the page's width


def test_the_data_pages_other_box_shows_its_whole_label_at_1024_by_700(qtbot, demo_window: MainWindow):
    """The 'count other values as …' box sat in the bins column alone, its label cut off."""
    window = demo_window
    window.show()
    window.resize(*SMALL)
    qtbot.waitExposed(window)
    qtbot.wait(10)
    boxes = [row.other for row in window.data_page.domains.rows.values() if hasattr(row, "other")]
    assert boxes
    for box in boxes:
        assert box.width() >= box.sizeHint().width(), box.text()
