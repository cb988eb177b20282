"""The File menu's public sample is read in the thread pool, then shown; a refusal shows its dialog.

A large public sample held the GUI thread while it was read (and read twice: the first use of its frame
opened the file again). Start-up and projects still load it at once (``MainWindow.load_public``).
"""

from __future__ import annotations

import threading

import pytest
from PySide6.QtCore import QThreadPool

import dpgui.data.public as public
from dpgui.paths import demo_public_path
from dpgui.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    return window


def test_the_sample_is_read_off_the_gui_thread_once_then_shown(qtbot, window, monkeypatch) -> None:
    readers: list[str] = []
    real = public.open_dataset

    def recorded(*args, **kwargs):
        readers.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(public, "open_dataset", recorded)
    public._load.cache_clear()
    with qtbot.waitSignal(window.public_reader.done, timeout=20_000):
        window.read_public(demo_public_path())
    assert window.public is not None and window.public.path == demo_public_path().resolve()
    assert "rows, public" in window.data_page.public_label.text()
    assert readers and threading.main_thread().name not in readers
    assert len(readers) == 1  # the frame the page shows is the one the worker read


def test_a_file_that_cannot_be_read_shows_its_refusal(qtbot, window, tmp_path) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(b"a,b,c\n")
    with qtbot.waitSignal(window.public_reader.failed, timeout=20_000):
        window.read_public(bad)
    box = window.error_box
    assert box is not None and "header but no data rows" in box.text() and box.text().count("bad.csv") == 1
    assert window.public is None
    box.close()


def test_the_private_datas_twin_is_refused_after_the_read(qtbot, window, tmp_path) -> None:
    twin = tmp_path / "twin.csv"
    twin.write_bytes(demo_public_path().read_bytes())
    window.load_private(twin)
    with qtbot.waitSignal(window.public_reader.done, timeout=20_000):
        window.read_public(demo_public_path())
    assert window.public is None and "same bytes as the private data" in window.error_box.text()
    assert "a file of public data" in window.error_box.informativeText()  # not "check it is a data table"
    assert window.statusBar().currentMessage() == f"Did not open {demo_public_path().name}."
    window.error_box.close()


def test_a_sample_loaded_at_once_is_not_replaced_by_a_menu_read_still_running(
    qtbot, window, tmp_path
) -> None:
    """A menu read, then a project's public sample loaded at once: the menu's later result is dropped."""
    other = tmp_path / "other.csv"
    other.write_text("wage\n1\n2\n3\n")
    window.read_public(demo_public_path())
    window.load_public(other)
    QThreadPool.globalInstance().waitForDone()
    qtbot.wait(100)  # the menu read's result, queued to the GUI thread, arrives (and is dropped)
    assert window.public is not None and window.public.path == other.resolve()
