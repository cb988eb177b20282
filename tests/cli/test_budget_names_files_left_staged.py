"""`budget show` names a committed release whose files a crash left in their staging folder.

A release is charged at its commit, and its files are moved from the staging folder into --out after it;
a crash (or a failed move) between the two left the only copy of a paid-for result in a hidden folder
that nothing pointed at but the ledger's raw commit line.
"""

from __future__ import annotations

import json
import os
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
    lines = [json.loads(line) for line in (Path(os.environ["DPGUI_HOME"]) / "ledger.jsonl").open()]
    (touched,) = [line for line in lines if line["type"] == "touched"]
    assert touched["files"] == f"staged in {staged}, moved to {out}"  # said before the run read the data
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


def test_budget_show_points_at_the_files_a_run_stopped_before_its_commit_was_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An audit killed a release while it wrote its files: the ledger held the charge (unresolved) and the
    staging folder held the DP outputs, with nothing pointing from one to the other. The touched line now
    says where the run stages them."""
    from dpgui.data.fingerprint import sha256_file
    from dpgui.privacy.cost import PrivacyCost
    from dpgui.privacy.ledger import Ledger

    data = tmp_path / "private.csv"
    data.write_text("x\n" + "".join(f"{i % 97}\n" for i in range(400)))
    assert main(["budget", "set", "--data", str(data), "--epsilon", "5"]) == 0
    out = staging.prepare_out(tmp_path / "released")
    (out.staging / "release.csv").write_text("noisy\n")  # what the run wrote before it was killed
    killed = Ledger()  # stands for the process that was killed: its reservation stays open
    record = killed.open_dataset(data, sha256_file(data))
    killed.mark_touched(killed.reserve(record.id, PrivacyCost(1.0), "killed median"), out.describe())
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(data)]) == 0
    shown = capsys.readouterr().out
    assert "unresolved/spent" in shown and f"writing its files into {out.staging}" in shown
    assert "without manifest.json they are incomplete" in shown
    (out.staging / "manifest.json").write_text("{}")
    assert main(["budget", "show", "--data", str(data)]) == 0
    assert f"move them into {out.target}" in capsys.readouterr().out
