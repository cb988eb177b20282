"""The app refuses a public sample with the private file's bytes, whichever of the two is opened first.

The sample suggests domains on the Task page; from the private file's twin they would be statistics of
the private data, kept even if the sample were later replaced. The core refuses such a sample at the
charge (``runner.refuse_private_inputs``); the window refuses it as soon as both are open.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from dpgui.data.errors import DataError
from dpgui.paths import demo_private_path, demo_public_path
from dpgui.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    return window


def test_the_private_file_is_refused_as_the_public_sample(window: MainWindow, tmp_path: Path) -> None:
    window.load_private(demo_private_path())
    twin = tmp_path / "copy.csv"
    shutil.copyfile(demo_private_path(), twin)  # another path, the same bytes
    with pytest.raises(DataError, match="same bytes as the private data"):
        window.load_public(twin)
    assert window.public is None
    window.load_public(demo_public_path())
    assert window.public is not None


def test_the_public_samples_twin_is_refused_as_private_data(window: MainWindow, tmp_path: Path) -> None:
    twin = tmp_path / "copy.csv"
    shutil.copyfile(demo_public_path(), twin)
    window.load_public(demo_public_path())
    with pytest.raises(DataError, match="same bytes as the public sample"):
        window.load_private(twin)
    assert window.opened is None and window.record is None  # not registered in the ledger either


def test_a_twin_opened_in_the_worker_is_not_shown_and_says_why(qtbot, window: MainWindow) -> None:
    window.load_public(demo_public_path())
    window.open_private(window.data_page.request(str(demo_public_path())))
    assert window.open_job is not None
    qtbot.waitUntil(lambda: window.open_job is None, timeout=20_000)
    assert window.opened is None and window.record is None
    boxes = [box for box in window.findChildren(QMessageBox) if "same bytes" in box.text()]
    assert boxes and "public sample" in boxes[0].text()
