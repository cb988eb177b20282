"""The app names the system packages Qt's xcb plugin needs instead of letting Qt abort."""

from __future__ import annotations

import pytest

from dpgui.cli import main
from dpgui.ui import app
from dpgui.ui.platform_check import XCB_LIBRARIES, uses_xcb, xcb_problem


def test_the_missing_xcb_libraries_are_named_with_their_packages():
    present = {"xcb-cursor"}
    message = xcb_problem({"DISPLAY": ":0"}, lambda name: name if name in present else None)
    assert message is not None and "apt-get install libxcb-icccm4 libxcb-keysyms1" in message
    assert "libxcb-cursor0" not in message
    assert xcb_problem({"DISPLAY": ":0"}, lambda name: name) is None  # everything present


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({"DISPLAY": ":0"}, True),
        ({"QT_QPA_PLATFORM": "xcb"}, True),
        ({"QT_QPA_PLATFORM": "offscreen", "DISPLAY": ":0"}, False),
        ({"DISPLAY": ":0", "WAYLAND_DISPLAY": "wayland-0"}, False),
        ({}, False),
    ],
)
def test_only_an_xcb_session_is_checked(environment, expected):
    assert uses_xcb(environment, platform="linux") is expected
    assert uses_xcb(environment, platform="darwin") is False


def test_the_gui_refuses_with_the_message_and_exit_2_before_creating_the_app(monkeypatch, capsys):
    monkeypatch.setattr(app, "xcb_problem", lambda: "install " + " ".join(XCB_LIBRARIES.values()))
    monkeypatch.setattr(app, "application", lambda: pytest.fail("the app must not be created"))
    assert app.run_gui(None, None) == 2
    assert "libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1" in capsys.readouterr().err


def test_dpgui_file_opens_the_gui_on_that_file_and_its_public_sample(monkeypatch, tmp_path, capsys):
    private, public = tmp_path / "p.csv", tmp_path / "q.csv"
    private.write_text("a\n1\n")
    public.write_text("a\n2\n")
    opened = []
    monkeypatch.setattr(app, "run_gui", lambda p, q: opened.append((p, q)) or 0)
    assert main([str(private), "--public", str(public)]) == 0
    assert opened == [(private, public)]
    assert main([str(private), "--public", str(tmp_path / "missing.csv")]) == 2
    assert "does not exist" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:  # a mistyped command or a missing file: named, with the commands
        main([str(tmp_path / "missing.csv")])
    assert usage.value.code == 2 and "neither a command nor an existing file" in capsys.readouterr().err


def test_a_mistyped_command_is_named_with_the_closest_one(capsys):
    """Docs audit, session 34: 'dpgui relase' said "relase does not exist", and 'dpgui budgett show --data x'
    printed the GUI parser's usage with "unrecognized arguments"."""
    for mistyped, meant in ((["relase"], "release"), (["budgett", "show", "--data", "x"], "budget")):
        with pytest.raises(SystemExit) as usage:
            main(mistyped)
        err = capsys.readouterr().err
        assert usage.value.code == 2 and f"did you mean {meant!r}?" in err and "the commands are" in err


def test_without_any_display_the_app_says_so_instead_of_letting_qt_abort():
    """No DISPLAY nor WAYLAND_DISPLAY on Linux: Qt aborted with exit 134 and a core dump (a CLI fuzz)."""
    message = xcb_problem({}, lambda name: name)
    assert message is not None and "no display" in message and "dpgui --help" in message
    assert xcb_problem({"QT_QPA_PLATFORM": "offscreen"}, lambda name: name) is None  # a platform forced
    assert xcb_problem({"WAYLAND_DISPLAY": "wayland-0"}, lambda name: name) is None
