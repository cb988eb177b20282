"""Every task the app offers runs through the worker to a plot on the Review page and one ledger entry."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import ReservationStatus
from dpgui.tasks.spec import TaskKind
from dpgui.ui.main_window import REVIEW, MainWindow
from dpgui.ui.task_page import task_kinds
from tests.ui.test_session import build


@pytest.mark.parametrize("kind", task_kinds(), ids=lambda kind: kind.value)
def test_each_task_is_drawn_after_its_release_is_committed_to_the_ledger(
    qtbot, demo_window: MainWindow, kind
):
    window = demo_window
    assert window.record is not None
    window.ledger.set_total(window.record.id, PrivacyCost(20.0, 1e-3))
    build(window, kind)
    window.start_release()
    job = window.current_job
    assert job is not None, f"{kind.value} was refused"
    with qtbot.waitSignal(job.released, timeout=30_000):
        pass
    release = window.release
    assert release is not None and release.spec.kind is kind
    (entry,) = window.ledger.entries(window.record.id)
    assert entry.status is ReservationStatus.COMMITTED and entry.release_id == release.release_id
    assert entry.cost == release.cost
    review = window.review_page
    assert window.pages.currentIndex() == REVIEW and review.release is release
    if kind is TaskKind.DISTANCE:
        assert review.distance_explorer.isVisibleTo(window) and review.distance_explorer.structure is not None
    else:
        assert review.drawing is not None and review.drawing.items, f"nothing drawn for {kind.value}"
        if kind is TaskKind.TABLE:  # its plot sits on the first tab; the page opens on the synthetic rows'
            review.plot_tabs.setCurrentIndex(0)
        assert review.plot.isVisibleTo(window)
    assert review.plots(), f"the report of a {kind.value} release would have no plot"
    assert review.preview.isVisibleTo(window) == (kind is TaskKind.TABLE)
    if kind is TaskKind.TABLE:  # the first synthetic rows, in the columns' order
        model = review.preview_model
        assert model.rowCount() > 0
        headers = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]
        assert headers == list(release.spec.columns)
