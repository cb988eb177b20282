"""Project files, error dialogs with details, recent files and window state in the main window."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from dpgui.data import NumericDomain
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.paths import demo_private_path, demo_public_path
from dpgui.privacy.ledger import ReservationStatus
from dpgui.release.project import spec_from_json, spec_to_json
from dpgui.tasks.spec import LABELLED_KINDS, TaskKind
from dpgui.ui.main_window import MAX_RECENT, MainWindow, settings
from dpgui.ui.task_page import MULTI_COLUMN_TASKS, task_kinds
from tests.conftest import holds_canary
from tests.ui.conftest import WAGE_DOMAIN
from tests.ui.test_main_window import set_total

EDUCATION = NumericDomain(0, 20, 1)
EXPERIENCE = NumericDomain(-5, 70, 1)


def fresh(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    return window


def build(window: MainWindow, kind: TaskKind) -> None:
    """Fill the Task page for ``kind`` as a custodian would."""
    page = window.task_page
    page.select_task(kind)
    if kind in MULTI_COLUMN_TASKS:
        page.select_columns(["education", "experience"])
        page.declare("experience", EXPERIENCE)
    else:
        page.select_columns(["education"])
    page.declare("education", EDUCATION)
    if kind in LABELLED_KINDS:
        page.label.setCurrentText("smsa")
        page.positive.setText("yes")


def test_every_tasks_spec_as_the_gui_builds_it_round_trips_through_json(qtbot):
    window = fresh(qtbot)
    window.load_private(demo_private_path())
    window.load_public(demo_public_path())
    for kind in task_kinds():
        build(window, kind)
        spec = window.current_spec()
        assert spec.kind is kind and spec.public is not None
        assert spec_from_json(json.loads(json.dumps(spec_to_json(spec)))) == spec


def test_a_saved_project_reopens_the_task_column_bounds_and_algorithm(qtbot, tmp_path: Path):
    window = fresh(qtbot)
    window.load_private(demo_private_path())
    window.load_public(demo_public_path())
    window.task_page.select_task(TaskKind.CDF)
    window.task_page.select_columns(["wage"])
    window.task_page.declare("wage", WAGE_DOMAIN)
    window.task_page.select_algorithm("tree-laplace")
    window.budget_page.epsilon.setValue(0.5)
    saved = window.current_spec()
    path = tmp_path / "session.dpgui.json"
    window.save_project(path)

    reopened = fresh(qtbot)
    reopened.open_project(path)
    assert reopened.dataset is not None and reopened.dataset.sha256 == window.dataset.sha256
    assert reopened.public is not None
    assert reopened.task_page.kind is TaskKind.CDF
    assert reopened.task_page.selected_columns() == ["wage"]
    assert reopened.task_page.domain_rows["wage"].domain() == WAGE_DOMAIN
    assert reopened.task_page.algorithm_name() == "tree-laplace"
    assert reopened.current_spec() == saved
    assert reopened.recent_files()[0] == str(path.resolve())


def test_a_project_file_holds_no_private_value_and_a_changed_file_is_warned(
    qtbot, tmp_path: Path, wages_csv: Path, monkeypatch
):
    window = fresh(qtbot)
    window.load_private(wages_csv)
    window.task_page.select_columns(["wage"])
    window.task_page.declare("wage", WAGE_DOMAIN)
    path = tmp_path / "session.dpgui.json"
    window.save_project(path)
    text = path.read_text(encoding="utf-8")
    assert not holds_canary(text) and holds_canary(wages_csv.read_text())

    warnings: list[str] = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warnings.append(text))
    wages_csv.write_text(wages_csv.read_text() + "1.0,3\n")
    fresh(qtbot).open_project(path)
    assert len(warnings) == 1 and "wages.csv" in warnings[0] and "SHA-256" in warnings[0]


def test_a_failing_algorithm_shows_details_and_its_spend_stays_committed(qtbot, monkeypatch):
    window = fresh(qtbot)
    window.load_private(demo_private_path())
    window.task_page.select_columns(["wage"])
    window.task_page.declare("wage", WAGE_DOMAIN)
    set_total(window, 3.0)

    def broken(self, *args, **kwargs):
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(InMemoryAggregator, "sorted_distinct_counts", broken)
    window.start_release()
    job = window.current_job
    assert job is not None
    with qtbot.waitSignal(job.failed, timeout=8000):
        pass
    box = window.error_box
    assert box is not None and box.isVisible()
    assert "disk on fire" in box.text() and "stays spent" in box.informativeText()
    assert "Traceback" in box.detailedText() and "RuntimeError" in box.detailedText()
    assert window.record is not None
    assert [e.status for e in window.ledger.entries(window.record.id)] == [ReservationStatus.COMMITTED]
    box.close()


def test_a_bad_file_shows_what_to_do_and_the_traceback(qtbot, tmp_path: Path):
    window = fresh(qtbot)
    bad = tmp_path / "broken.csv"
    bad.write_bytes(b"")
    window._load(window.load_private, bad)
    box = window.error_box
    assert box is not None and "broken.csv" in box.text() and "header row" in box.informativeText()
    assert "Traceback" in box.detailedText()
    assert window.dataset is None
    box.close()


def test_recent_files_keep_the_newest_eight_without_duplicates(qtbot, tmp_path: Path):
    window = fresh(qtbot)
    names = [tmp_path / f"f{i}.csv" for i in range(10)]
    for name in names:
        window.remember_recent(name)
    window.remember_recent(names[3])
    recent = window.recent_files()
    assert len(recent) == MAX_RECENT and recent[0] == str(names[3].resolve())
    assert len(set(recent)) == MAX_RECENT and str(names[0].resolve()) not in recent
    window._fill_recent_menu()
    assert [action.text() for action in window.recent_menu.actions()] == recent


def test_the_window_geometry_and_state_are_saved_on_close(qtbot):
    window = fresh(qtbot)
    assert settings().value("geometry") is None  # control: nothing stored before the close
    window.show()
    window.close()
    assert settings().value("geometry") == window.saveGeometry()
    assert settings().value("window_state") == window.saveState()


@pytest.fixture(autouse=True)
def no_modal_criticals(monkeypatch):
    monkeypatch.setattr(QMessageBox, "critical", lambda *args: pytest.fail(f"unexpected dialog {args}"))


def test_settings_live_under_the_user_data_folder_beside_the_ledger(qtbot, isolated_home):
    window = fresh(qtbot)
    window.remember_recent(isolated_home / "x.csv")
    settings().sync()
    assert Path(settings().fileName()) == isolated_home / "settings.ini"
    assert "x.csv" in (isolated_home / "settings.ini").read_text()


def test_a_first_start_opens_the_window_at_80_percent_of_the_screen(qtbot):
    window = fresh(qtbot)
    area = window.screen().availableGeometry()
    assert abs(window.width() - 0.8 * area.width()) <= 2 and abs(window.height() - 0.8 * area.height()) <= 2
    assert abs(window.geometry().center().x() - area.center().x()) <= 2
