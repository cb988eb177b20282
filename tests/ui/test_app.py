"""The offscreen screenshot mode of ``run_gui``."""

from __future__ import annotations

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
