"""A folder given to the in-memory engine, an empty folder, a named pipe: refused in words, no hang."""

from __future__ import annotations

import os
import signal

import pytest

from dpgui.cli import main


@pytest.fixture
def no_hang():
    def expire(signum, frame):
        raise TimeoutError("dpgui waited on the path")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, 10)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


def _release(path, engine, out):
    return main(
        ["release", "median", "--data", str(path), "--column", "x", "--bounds", "0", "100", "--epsilon", "1",
         "--engine", engine, "--out", str(out)]
    )  # fmt: skip


def test_a_folder_given_to_the_in_memory_engine_is_called_a_folder(tmp_path, capsys):
    folder = tmp_path / "data.csv"
    folder.mkdir()
    assert _release(folder, "memory", tmp_path / "o") == 2
    assert "data.csv: is a folder, not a file" in capsys.readouterr().err


def test_an_empty_folder_is_said_to_hold_no_parquet_parts(tmp_path, capsys):
    folder = tmp_path / "parts"
    folder.mkdir()
    assert _release(folder, "embedded", tmp_path / "o") == 2
    assert "the folder holds no Parquet parts" in capsys.readouterr().err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("command", ["memory", "embedded", "auto", "budget"])
def test_a_named_pipe_is_refused_without_waiting_on_it(tmp_path, capsys, no_hang, command):
    pipe = tmp_path / "data.csv"
    os.mkfifo(pipe)
    if command == "budget":
        code = main(["budget", "set", "--data", str(pipe), "--epsilon", "1"])
    else:
        code = _release(pipe, command, tmp_path / "o")
    err = capsys.readouterr().err
    assert code == 2 and "is not a regular file" in err, err


def test_a_parquet_folder_without_a_suffix_is_called_a_folder_not_an_unknown_file_type(tmp_path):
    """A folder of Parquet parts chosen as the public sample (read in memory) was refused as an
    "unsupported file type '(no suffix)'"; it is a folder, and the message says so."""
    import pandas as pd

    from dpgui.data.errors import DataError
    from dpgui.data.public import PublicSample

    folder = tmp_path / "parts"
    folder.mkdir()
    pd.DataFrame({"x": [1, 2]}).to_parquet(folder / "part-0.parquet")
    with pytest.raises(DataError, match="parts: is a folder, not a file"):
        PublicSample.from_file(folder)
