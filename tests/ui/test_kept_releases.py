"""A release the app commits is kept in dpgui's folder until it is exported (``dpgui.release.kept``).

The app commits a release when its run ends; the custodian exports it later, or not at all. Before this
copy, closing the window or a crash before Export lost a result whose cost stays spent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from dpgui.cli.main import main
from dpgui.release import kept
from dpgui.ui.main_window import MainWindow
from tests.conftest import holds_canary
from tests.ui.test_export_staging import export_into
from tests.ui.test_main_window import run_and_wait, set_total


def test_a_committed_release_is_kept_until_it_is_exported(
    qtbot, window: MainWindow, errors: list[str], tmp_path: Path, monkeypatch, capsys
):
    set_total(window, 5.0)
    run_and_wait(qtbot, window)
    assert errors == [] and window.release is not None and window.record is not None
    folder = kept.kept_folder(window.release.release_id)
    manifest = json.loads((folder / "manifest.json").read_text())
    assert manifest["release_id"] == window.release.release_id
    assert {path.name for path in folder.iterdir()} >= {"release.csv", "report.html", "manifest.json"}
    assert not any(holds_canary(path.read_bytes()) for path in folder.iterdir())
    (entry,) = window.ledger.entries(window.record.id)
    assert entry.files == f"kept in {folder}"  # the commit line says where, before the values are shown

    assert window.dataset is not None
    assert main(["budget", "show", "--data", str(window.dataset.path)]) == 0
    assert f"its files are kept in {folder} until the app exports it" in capsys.readouterr().out

    window.refresh_budget()
    table = window.budget_page.ledger_table  # the total set, then the release
    status = table.item(table.rowCount() - 1, 4)
    assert status.text() == "committed, not exported"
    assert status.toolTip() == f"Not exported yet: its files are kept in {folder}"

    export_into(qtbot, window, tmp_path / "exported", monkeypatch)
    assert (tmp_path / "exported" / "manifest.json").is_file()
    assert not folder.exists()  # exported: the copy goes, and budget show no longer points at it
    assert main(["budget", "show", "--data", str(window.dataset.path)]) == 0
    assert "kept in" not in capsys.readouterr().out
    window.refresh_budget()
    assert table.item(table.rowCount() - 1, 4).text() == "committed"


@pytest.mark.parametrize(
    ("error", "said"),
    [
        (OSError(28, "No space left on device"), "[Errno 28] No space left on device"),
        (ValueError("a writer failed"), "a writer failed"),
    ],
)
def test_a_copy_that_cannot_be_written_does_not_cost_the_release(
    qtbot,
    window: MainWindow,
    errors: list[str],
    monkeypatch: pytest.MonkeyPatch,
    error: Exception,
    said: str,
):
    """The copy is a safeguard: a full disk under dpgui's folder, or any writer's error, leaves the
    release committed and shown, and the commit line says no copy was kept."""

    def failing(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(kept, "export_release", failing)
    set_total(window, 5.0)
    run_and_wait(qtbot, window)
    assert errors == [] and window.release is not None and window.record is not None
    assert not kept.kept_folder(window.release.release_id).exists()
    (entry,) = window.ledger.entries(window.record.id)
    assert entry.files == f"shown in the app; no copy kept ({said})"


def test_a_release_of_an_earlier_session_names_its_kept_copy(
    qtbot, window: MainWindow, errors: list[str]
) -> None:
    """Reopened from a project, a release not held in memory and never exported is pointed at its copy."""
    set_total(window, 5.0)
    run_and_wait(qtbot, window)
    assert window.release is not None
    release_id = window.release.release_id
    del window.session_releases[release_id]  # as after a restart: the project lists it, memory does not
    window.choose_release(release_id)
    message = window.statusBar().currentMessage()
    assert f"it was not exported, and its files are kept in {kept.kept_folder(release_id)}" in message


def test_reopening_the_data_says_how_many_charged_releases_were_never_exported(
    qtbot, window: MainWindow, errors: list[str]
) -> None:
    set_total(window, 5.0)
    run_and_wait(qtbot, window)
    assert window.dataset is not None and errors == []
    window.load_private(window.dataset.path)  # as in the next session, after a close without Export
    assert "1 charged release was never exported" in window.statusBar().currentMessage()


def test_the_close_question_says_the_files_are_kept_or_lost(
    qtbot, window: MainWindow, errors: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Closing with a release never exported asks (tests/ui/test_redteam_close_with_unexported_release.py);
    the question says where dpgui keeps its files, or that its values are lost when no copy was kept."""
    window.show()
    set_total(window, 5.0)
    run_and_wait(qtbot, window)
    window.close()
    question = window.close_question
    assert question is not None
    assert f"dpgui keeps their files in {kept.kept_root()} until you export them" in question.text()
    question.done(QMessageBox.StandardButton.No)
    assert window.release is not None
    kept.forget(window.release.release_id)  # as when the copy could not be written
    window.close()
    question = window.close_question
    assert question is not None and "1 of them could not be kept on disk" in question.text()
    question.done(QMessageBox.StandardButton.Yes)
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2_000)


def test_a_change_of_the_spec_redraws_the_budget_bar_not_the_ledger_table(
    window: MainWindow, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ledger table looks up each release's kept folder on disk; a change of ε (a keystroke) needs
    only the bar's share of this release, so it does not rebuild the table in the GUI thread."""
    tables: list[int] = []
    monkeypatch.setattr(window.budget_page, "show_ledger", lambda entries, *args: tables.append(len(entries)))
    shown: list[object] = []
    monkeypatch.setattr(window.budget_panel, "show_state", lambda state, release=None: shown.append(release))
    window.budget_page.epsilon.setValue(0.7)
    assert tables == [] and shown and shown[-1] is not None and shown[-1].epsilon == 0.7
    window.refresh_budget()
    assert len(tables) == 1


def test_the_ledger_table_stops_saying_not_exported_once_the_export_is_written(
    qtbot, window: MainWindow, errors: list[str], tmp_path: Path, monkeypatch
):
    """The Budget page kept "committed, not exported" after Export until something else re-read the
    ledger: the custodian going back to Budget was told a release they had just exported was not."""
    set_total(window, 5.0)
    run_and_wait(qtbot, window)
    table = window.budget_page.ledger_table
    assert table.item(table.rowCount() - 1, 4).text() == "committed, not exported"
    export_into(qtbot, window, tmp_path / "exported", monkeypatch)
    assert errors == [] and table.item(table.rowCount() - 1, 4).text() == "committed"
