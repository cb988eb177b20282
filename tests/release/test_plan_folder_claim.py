"""A plan holds its ``--out`` from before its charge to its last file, so two plans never mix their files.

Two ``dpgui release batch`` runs given the same new ``--out`` at once both passed the pre-flight (the
folder was empty for both) and wrote their release folders, plan.json and report.html into one folder.
The second plan is now refused before its charge (``claimed_plan_folder``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.release.staging import PLAN_CLAIM, OutFolderError, claimed_plan_folder


def test_a_second_plan_into_a_held_folder_is_refused_and_the_first_keeps_it(tmp_path: Path) -> None:
    out = tmp_path / "plan"
    with claimed_plan_folder(out):
        assert (out / PLAN_CLAIM).is_file()
        with pytest.raises(OutFolderError, match="another plan is writing into it"), claimed_plan_folder(out):
            pass
        assert (out / PLAN_CLAIM).is_file()  # the refused plan does not release the first one's hold
        (out / "01-wage-cdf").mkdir()
    assert sorted(p.name for p in out.iterdir()) == ["01-wage-cdf"]  # the marker goes with the plan


def test_a_folder_that_got_files_before_the_claim_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "plan"
    out.mkdir()
    (out / "report.html").write_text("another plan's")
    with pytest.raises(OutFolderError, match="got other files meanwhile"), claimed_plan_folder(out):
        pass
    assert sorted(p.name for p in out.iterdir()) == ["report.html"]


def test_a_plan_that_writes_nothing_leaves_no_folder_it_made(tmp_path: Path) -> None:
    out = tmp_path / "new" / "plan"
    with pytest.raises(RuntimeError), claimed_plan_folder(out):
        raise RuntimeError("refused at the review")
    assert not out.exists()
    kept = tmp_path / "kept"
    kept.mkdir()
    with claimed_plan_folder(kept):
        pass
    assert kept.is_dir() and not any(kept.iterdir())  # a folder the custodian made stays


def test_release_batch_holds_its_out_while_it_runs_and_leaves_only_its_files(
    wages_csv: Path, tmp_path: Path, isolated_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dpgui.cli import batch_cmd, main
    from tests.cli.test_batch_stopped_writes_its_committed_releases import PLAN

    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    out = tmp_path / "out"
    held: list[bool] = []
    real = batch_cmd.execute_batch

    def watched(*args, **kwargs):  # type: ignore[no-untyped-def]
        held.append((out / PLAN_CLAIM).is_file())
        return (yield from real(*args, **kwargs))

    monkeypatch.setattr(batch_cmd, "execute_batch", watched)
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    assert main(["release", "batch", str(plan), "--data", str(wages_csv), "--out", str(out)]) == 0
    assert held == [True]
    names = sorted(p.name for p in out.iterdir())
    assert names == ["01-wage-cdf", "02-wage-median", "plan.json", "report.html"]
