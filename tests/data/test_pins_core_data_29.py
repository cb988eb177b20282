"""Pins found by planting errors in the engine choice (tools/planted_errors.py, session 29).

The tests chose an engine only by an explicit threshold or on a machine's own RAM, so ``auto`` scanning
every file over 1 MiB out of core (AUTO_MIN_BYTES at 1 << 20) passed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.data import backends
from dpgui.data.backends import Engine, auto_threshold, choose_engine

GIB = 1 << 30


def test_auto_loads_a_csv_of_a_few_mebibytes_in_memory_on_a_large_machine(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(backends, "physical_memory", lambda: 64 * GIB)
    path = tmp_path / "wages.csv"
    path.write_text("wage\n" + "12345.678\n" * 300_000)  # 3 MiB
    assert auto_threshold() == GIB
    assert choose_engine(path) is Engine.MEMORY


def test_auto_scans_files_over_a_quarter_of_a_small_machines_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(backends, "physical_memory", lambda: 2 * GIB)
    assert auto_threshold() == GIB // 2
