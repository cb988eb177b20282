"""Where dpgui keeps its state (dpgui/paths.py): DPGUI_HOME is honoured, the folder is the owner's alone."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from dpgui.paths import dpgui_home


@pytest.fixture
def elsewhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The platform's data folder pointed into the test's folder, so that a lost override writes nothing
    outside it."""
    platform = tmp_path / "platform"
    monkeypatch.setenv("XDG_DATA_HOME", str(platform))
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    return platform


def test_dpgui_home_is_the_folder_dpgui_home_names(
    tmp_path: Path, elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DPGUI_HOME", str(tmp_path / "state"))
    assert dpgui_home() == tmp_path / "state"
    assert (tmp_path / "state").is_dir()
    assert not elsewhere.exists()


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_a_state_folder_readable_by_its_group_is_tightened_to_the_owner(
    tmp_path: Path, elsewhere: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = tmp_path / "state"
    state.mkdir(mode=0o750)
    state.chmod(0o750)
    monkeypatch.setenv("DPGUI_HOME", str(state))
    dpgui_home()
    assert stat.S_IMODE(state.stat().st_mode) == 0o700


def test_a_home_that_is_a_file_is_named_with_the_variable_that_set_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An audit pointed DPGUI_HOME at a file: "dpgui: error: /tmp/.../homefile: File exists" named neither
    what the path was for nor the variable that set it."""
    home = tmp_path / "homefile"
    home.write_text("")
    monkeypatch.setenv("DPGUI_HOME", str(home))
    with pytest.raises(NotADirectoryError, match=r"is a file, not a folder \(set by DPGUI_HOME\)"):
        dpgui_home()
