"""The command's top level: negative numbers as values, a closed pipe is not an error, no tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from dpgui.cli import main
from dpgui.cli.arguments import split_negative_assignments
from dpgui.cli.errors import run_guarded

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    "bounds",
    [
        ["--bounds", "-1e3", "0"],
        ["--bounds=-1e3", "0"],
        ["--bounds", "-1E+3", "-.5"],
        ["--bounds", "-1_000", "0"],  # float() reads it; argparse took it for an option
    ],
)
def test_negative_bounds_in_any_notation_reach_the_command(bounds, wages_csv, tmp_path, capsys):
    code = main(
        ["release", "median", "--data", str(wages_csv), "--column", "wage", *bounds, "--epsilon", "1",
         "--out", str(tmp_path / "o"), "--accept-warnings"]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 3 and "budget set" in err  # parsed; refused only for the missing total budget


def test_an_assignment_of_a_negative_number_is_split_and_nothing_else_is():
    assert split_negative_assignments(["--bounds=-1e3", "0", "--q=0.5", "-x=-1"]) == [
        "--bounds", "-1e3", "0", "--q=0.5", "-x=-1"
    ]  # fmt: skip


@pytest.mark.parametrize(
    "command",
    [
        ["budget", "show", "--data", ""],
        ["fingerprint", " "],
        ["release", "median", "--data", "DATA", "--column", "wage", "--bounds", "0", "1", "--epsilon", "1",
         "--out", ""],
        ["query", "distance", "--release", "", "--point", "1"],
    ],
)  # fmt: skip
def test_an_empty_path_is_refused_not_read_as_the_current_folder(command, wages_csv, capsys):
    """CLI fuzz (session 36): ``--out ''`` was the current folder."""
    command = [str(wages_csv) if word == "DATA" else word for word in command]
    with pytest.raises(SystemExit) as exit_:
        main(command)
    assert exit_.value.code == 2 and "an empty path" in capsys.readouterr().err


def test_an_unexpected_error_is_one_line_with_exit_2_not_a_traceback(capsys):
    def explode() -> int:
        raise ZeroDivisionError("float division by zero")

    assert run_guarded(explode) == 2
    err = capsys.readouterr().err
    assert "ZeroDivisionError" in err and "Traceback" not in err


@pytest.mark.parametrize("command", [["algorithms"], ["--help"]])
def test_a_closed_stdout_is_not_an_error(command):
    """``dpgui algorithms | head -1``: exit 0 and nothing on stderr."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(
        [sys.executable, "-m", "dpgui", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # the reader is gone before the first line is written
    err = process.stderr.read().decode()
    assert process.wait(timeout=60) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err


def test_a_first_word_no_system_can_check_is_neither_a_command_nor_a_file(capsys):
    """A 300-character first word raised OSError (name too long) from the file check: a traceback."""
    with pytest.raises(SystemExit) as exited:
        main(["a" * 300])
    assert exited.value.code == 2 and "is neither a command nor an existing file" in capsys.readouterr().err


def test_version_on_a_full_or_closed_stdout_exits_with_one_line(monkeypatch, capsys):
    """--version ran outside the guarded path: /dev/full and a closed pipe printed tracebacks."""
    import errno

    class Full:
        def write(self, text: str) -> int:
            raise OSError(errno.ENOSPC, "No space left on device")

        def flush(self) -> None:
            raise OSError(errno.ENOSPC, "No space left on device")

        def fileno(self) -> int:
            raise ValueError("no descriptor")

    monkeypatch.setattr(sys, "stdout", Full())
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 2 and "No space left on device" in capsys.readouterr().err
