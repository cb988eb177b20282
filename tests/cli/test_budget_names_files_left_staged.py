"""`budget show` names a committed release whose files a crash left in their staging folder.

A release is charged at its commit, and its files are moved from the staging folder into --out after it;
a crash (or a failed move) between the two left the only copy of a paid-for result in a hidden folder
that nothing pointed at but the ledger's raw commit line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.cli.main import main
from dpgui.release import staging


def _release_that_crashes_before_publishing(
    data: Path, out: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "set", "--data", str(data), "--epsilon", "5"]) == 0

    def crash(*args: object) -> None:
        raise KeyboardInterrupt  # the process dies after the commit, before the move

    monkeypatch.setattr("dpgui.cli.release_cmd.publish", crash)
    assert main(["release", "median", "--data", str(data), "--column", "x", "--bounds", "0", "100",
              "--epsilon", "1", "--out", str(out), "--accept-warnings"]) != 0  # fmt: skip
    assert "the run is charged; its files are in" in capsys.readouterr().err


def test_budget_show_points_at_the_staging_folder_a_crash_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "private.csv"
    data.write_text("x\n" + "".join(f"{i % 97}\n" for i in range(400)))
    out = tmp_path / "released"
    _release_that_crashes_before_publishing(data, out, monkeypatch, capsys)
    (staged,) = [path for path in tmp_path.iterdir() if path.name.startswith(".released.staging-")]
    assert main(["budget", "show", "--data", str(data)]) == 0
    shown = capsys.readouterr().out
    assert f"its files are still in {staged}" in shown and f"move them into {out}" in shown
    assert main(["budget", "show", "--data", str(data), "--json"]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["entries"]
    assert entry["status"] == "committed" and entry["files"] == f"staged in {staged}, moved to {out}"

    for path in staged.iterdir():  # the custodian moves them; the pointer goes
        path.rename(out / path.name)
    assert main(["budget", "show", "--data", str(data)]) == 0
    assert "still in" not in capsys.readouterr().out


@pytest.mark.parametrize(
    "files",
    [
        None,
        "none: writing the outputs failed (disk full)",
        "staged in /nonexistent/s, moved to /nonexistent/t",
    ],
)
def test_no_pointer_without_a_staging_folder_holding_files(files: str | None) -> None:
    assert staging.files_left(files) is None
