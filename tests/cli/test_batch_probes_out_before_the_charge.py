"""``dpgui release batch`` checks that ``--out`` can be written before it charges the plan.

Rule checked: nothing is charged without a result (privacy rule 5). ``dpgui release`` probes ``--out``
(created, written, free space) before the reservation; the batch only checked that ``--out`` is absent or
empty. On a read-only mount the whole plan was reserved, run and committed, then ended with
"Read-only file system" and no file: every release charged, none released, and the message did not say so.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest

from dpgui.cli import main
from dpgui.release import export
from tests.cli.test_batch_stopped_writes_its_committed_releases import PLAN
from tests.cli.test_preflight import reservations


@pytest.mark.parametrize(
    "failure",
    [OSError(errno.ENOSPC, "No space left on device"), PermissionError(errno.EACCES, "Permission denied")],
)
def test_a_plan_whose_out_folder_cannot_be_written_is_refused_before_any_charge(
    failure, wages_csv, tmp_path, isolated_home, monkeypatch, capsys
):
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0

    def refuse(path: Path, data: bytes) -> None:
        raise failure

    monkeypatch.setattr(export, "write_atomic", refuse)
    out = tmp_path / "out"
    code = main(["release", "batch", str(plan), "--data", str(wages_csv), "--out", str(out)])
    err = capsys.readouterr().err
    assert reservations(isolated_home) == 0, err
    assert code == 2, err
    assert failure.strerror in err
    assert not out.exists()
    assert not list(tmp_path.glob(".out.staging-*"))
