"""The offscreen screenshot mode of ``run_gui``."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QImage

from dpgui.paths import demo_private_path, demo_public_path
from dpgui.privacy.ledger import Ledger
from dpgui.ui.app import DEMO_BUDGET, run_gui


def distinct_colours(image: QImage, step: int = 7) -> int:
    return len(
        {image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)}
    )


def test_screenshot_writes_a_non_blank_png(qapp, tmp_path: Path):
    target = tmp_path / "shots" / "x.png"
    assert run_gui(demo_private_path(), demo_public_path(), target, demo=True) == 0
    image = QImage(str(target))
    assert not image.isNull() and image.width() >= 1000
    assert distinct_colours(image) > 20


def test_the_demo_gets_a_budget_only_when_it_has_none(qapp, tmp_path: Path):
    run_gui(demo_private_path(), None, tmp_path / "a.png", demo=True)
    ledger = Ledger()
    (record,) = ledger.datasets()
    assert ledger.state(record.id).total == DEMO_BUDGET
    assert [event.note for event in ledger.budget_events(record.id)] == ["demo default"]
    run_gui(demo_private_path(), None, tmp_path / "b.png", demo=True)
    assert len(Ledger().budget_events(record.id)) == 1


def test_the_screenshot_script_renders_every_page_and_scene(tmp_path: Path):
    """docs/screenshots/make_screenshots.py regenerates the README's pictures; each must be a real page."""
    root = Path(__file__).resolve().parents[2]
    script = root / "docs" / "screenshots" / "make_screenshots.py"
    folder = tmp_path / "shots"
    path = os.pathsep.join(filter(None, (str(root), os.environ.get("PYTHONPATH"))))
    environment = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": path}  # this tree's dpgui
    done = subprocess.run(
        [sys.executable, str(script), str(folder)],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    names = importlib.util.spec_from_file_location("make_screenshots", script)
    assert names is not None and names.loader is not None
    module = importlib.util.module_from_spec(names)
    names.loader.exec_module(module)
    assert sorted(path.stem for path in folder.glob("*.png")) == sorted(module.SHOTS)
    for path in folder.glob("*.png"):
        image = QImage(str(path))
        assert image.width() >= 1000 and distinct_colours(image) > 20, path.name
