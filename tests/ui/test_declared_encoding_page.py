"""The Data page's text encoding: the custodian declares how a file in another code page reads, the page
says it is declared, and a saved project reopens the file (and its public sample) the same way."""

from __future__ import annotations

from pathlib import Path

from dpgui.ui.main_window import MainWindow
from tests.data.test_declared_encoding import CITIES, _cyrillic_file


def _window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    return window


def test_a_declared_encoding_reads_the_file_and_survives_a_saved_project(qtbot, tmp_path: Path):
    private = _cyrillic_file(tmp_path / "private.csv")
    public = _cyrillic_file(tmp_path / "public.csv", rows=30)
    window = _window(qtbot)
    assert window.data_page.selected_encoding() is None  # automatic unless declared
    window.data_page.select_encoding("cp1251")
    window.load_private(private)
    window.load_public(public)
    assert window.dataset is not None and list(window.dataset.header.columns) == ["город", "доход"]
    assert window.data_page.format_label.text() == "cp1251 text (declared), comma-separated"
    assert window.public is not None and window.public.column_categories("город") == tuple(sorted(CITIES))
    project = tmp_path / "ru.dpgui.json"
    window.save_project(project)

    reopened = _window(qtbot)
    reopened.open_project(project)
    assert reopened.dataset is not None and reopened.dataset.encoding == "cp1251"
    assert reopened.public is not None and reopened.public.encoding == "cp1251"
    assert list(reopened.dataset.header.columns) == ["город", "доход"]


def test_an_undeclared_code_page_is_read_byte_by_byte_and_the_page_asks_for_its_encoding(qtbot, tmp_path):
    window = _window(qtbot)
    window.load_private(_cyrillic_file(tmp_path / "private.csv"))
    assert window.dataset is not None and window.dataset.encoding is None
    assert "declare its encoding" in window.data_page.format_label.text()
