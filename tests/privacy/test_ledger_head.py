"""The ledger beyond its chain: the head file catches truncation, the lock needs no fcntl, a read-only
folder reads budgets but charges nothing, and its files are the owner's only."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from dpgui.privacy import ledger_store
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, LedgerReadOnly, LedgerTampered, ReservationStatus
from dpgui.tasks.runner import settle_failed_run

SHA = "b" * 64
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def ledger_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DPGUI_HOME", str(tmp_path / "home"))
    return tmp_path / "home" / "ledger.jsonl"


def one_release(ledger: Ledger) -> None:
    record = ledger.open_dataset(Path("wages.csv"), SHA)
    ledger.set_total(record.id, PrivacyCost(2.0))
    reservation = ledger.reserve(record.id, PrivacyCost(1.0), "median of wage")
    ledger.mark_touched(reservation)
    ledger.commit(reservation, "release-1")


def test_the_head_file_names_the_last_line(ledger_path: Path) -> None:
    ledger = Ledger()
    one_release(ledger)
    last = json.loads(ledger_path.read_text().splitlines()[-1])
    assert json.loads(ledger_path.with_suffix(".head").read_text()) == {
        "seq": last["seq"],
        "hash": last["hash"],
    }
    assert ledger.head().hash == last["hash"]


def test_removing_the_last_release_lines_is_reported_as_truncation(ledger_path: Path) -> None:
    one_release(Ledger())
    lines = ledger_path.read_text().splitlines(keepends=True)
    ledger_path.write_text("".join(lines[:-3]))  # reserved, touched, committed: gone; the chain still holds
    with pytest.raises(LedgerTampered, match="truncated"):
        Ledger()


def test_deleting_the_ledger_beside_its_head_is_truncation(ledger_path: Path) -> None:
    one_release(Ledger())
    ledger_path.unlink()
    with pytest.raises(LedgerTampered, match="truncated"):
        Ledger()


def release_on_a_copy(ledger_path: Path, folder: Path, extra_datasets: int) -> None:
    """Charge a release in a copy of the ledger's folder after registering ``extra_datasets`` datasets."""
    shutil.copytree(ledger_path.parent, folder)
    copy = Ledger(folder / ledger_path.name)
    for number in range(extra_datasets):
        copy.open_dataset(Path(f"other-{number}.csv"), str(number) * 64)
    (record,) = (r for r in copy.datasets() if r.sha256 == SHA)
    reservation = copy.reserve(record.id, PrivacyCost(0.05), "CDF of wage")
    copy.mark_touched(reservation)
    copy.commit(reservation, "release-on-the-copy")


@pytest.mark.parametrize("extra_datasets", [1, 3])
def test_a_longer_ledger_forked_from_its_head_is_refused(
    ledger_path: Path, tmp_path: Path, extra_datasets: int
) -> None:
    """Two copies of one ledger each charge a release; the copy with the longer history, put beside the other
    copy's head file, would drop the other's charge: the head's line is not in it."""
    ledger = Ledger()
    record = ledger.open_dataset(Path("wages.csv"), SHA)
    ledger.set_total(record.id, PrivacyCost(2.0))
    release_on_a_copy(ledger_path, tmp_path / "fork", extra_datasets)
    reservation = ledger.reserve(record.id, PrivacyCost(1.0), "median of wage")
    ledger.mark_touched(reservation)
    ledger.commit(reservation, "release-1")
    fork = tmp_path / "fork" / ledger_path.name
    assert len(fork.read_text().splitlines()) > len(ledger_path.read_text().splitlines())
    shutil.copyfile(fork, ledger_path)  # the head file stays
    with pytest.raises(LedgerTampered, match=r"line 5 does not match the chain head in ledger\.head"):
        Ledger()


def test_a_ledger_that_continues_its_older_head_is_accepted(ledger_path: Path, tmp_path: Path) -> None:
    """A head file behind the ledger on the same history (a crash before the head was written, or the head of
    an older copy) is no fork: every charge is still there."""
    one_release(Ledger())
    older_head = ledger_path.with_suffix(".head").read_bytes()
    release_on_a_copy(ledger_path, tmp_path / "later", extra_datasets=2)
    shutil.copyfile(tmp_path / "later" / ledger_path.name, ledger_path)
    ledger_path.with_suffix(".head").write_bytes(older_head)
    (record, *_) = Ledger().datasets()
    assert Ledger().state(record.id).spent.epsilon == pytest.approx(1.05)


def test_a_head_file_before_the_first_line_is_refused(ledger_path: Path) -> None:
    one_release(Ledger())
    ledger_path.with_suffix(".head").write_text('{"hash":"0","seq":-1}\n')
    with pytest.raises(LedgerTampered, match="not a chain head written by dpgui"):
        Ledger()


def test_budget_show_reports_a_truncated_ledger(ledger_path: Path, tmp_path: Path, capsys) -> None:
    from dpgui.cli import main

    data = tmp_path / "wages.csv"
    data.write_text("wage\n1\n2\n")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "1"]) == 0
    lines = ledger_path.read_text().splitlines(keepends=True)
    ledger_path.write_text("".join(lines[:-1]))
    assert main(["budget", "show", "--data", str(data)]) == 3
    err = capsys.readouterr().err
    assert "truncated" in err and "Traceback" not in err


def test_the_data_folder_and_ledger_files_are_the_owners_only(ledger_path: Path) -> None:
    from dpgui.paths import dpgui_home

    dpgui_home()
    one_release(Ledger())
    assert stat.S_IMODE(ledger_path.parent.stat().st_mode) == 0o700
    for path in (ledger_path, ledger_path.with_suffix(".head"), ledger_path.with_name("ledger.jsonl.lock")):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


@pytest.mark.skipif(os.name != "posix", reason="POSIX permissions")
def test_an_existing_world_readable_folder_and_ledger_are_tightened(ledger_path: Path) -> None:
    from dpgui.paths import dpgui_home

    one_release(Ledger())
    ledger_path.parent.chmod(0o755)
    ledger_path.chmod(0o644)
    dpgui_home()
    Ledger()
    assert stat.S_IMODE(ledger_path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(ledger_path.stat().st_mode) == 0o600


def test_the_ledger_imports_and_locks_without_fcntl(ledger_path: Path) -> None:
    """Windows has no fcntl: the package must import and the ledger must work without it."""
    code = textwrap.dedent(
        """
        import sys
        sys.modules["fcntl"] = None  # import fcntl now raises ImportError
        from pathlib import Path
        from dpgui.privacy.cost import PrivacyCost
        from dpgui.privacy.ledger import Ledger
        ledger = Ledger()
        record = ledger.open_dataset(Path("wages.csv"), "c" * 64)
        ledger.set_total(record.id, PrivacyCost(1.0))
        print(ledger.state(record.id).total.epsilon)
        """
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "1.0"


def test_a_read_only_folder_reads_budgets_and_refuses_charges(
    ledger_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one_release(Ledger())
    monkeypatch.setattr(ledger_store, "_writable", lambda _folder: False)
    ledger = Ledger()
    assert ledger.read_only
    (record,) = ledger.datasets()
    assert ledger.state(record.id).spent.epsilon == pytest.approx(1.0)
    with pytest.raises(LedgerReadOnly, match="cannot be written"):
        ledger.reserve(record.id, PrivacyCost(0.5), "another")


def test_budget_show_works_and_a_release_exits_2_in_a_read_only_folder(
    ledger_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    from dpgui.cli import main

    data = tmp_path / "wages.csv"
    data.write_text("wage\n" + "\n".join(str(i) for i in range(200)) + "\n")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "1"]) == 0
    before = ledger_path.read_bytes()
    monkeypatch.setattr(ledger_store, "_writable", lambda _folder: False)
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(data)]) == 0
    assert "remaining ε=1" in capsys.readouterr().out
    code = main(
        ["release", "median", "--data", str(data), "--column", "wage", "--bounds", "0", "200",
         "--epsilon", "0.5", "--out", str(tmp_path / "out")]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and "cannot be written" in err and "Traceback" not in err
    assert ledger_path.read_bytes() == before


# An interrupt or an I/O error between a ledger line and the head file (a ledger audit's kill points): a
# reservation never returned is refunded, a touched run stays charged, and a lagging head is caught up.


def with_budget(ledger: Ledger) -> str:
    record = ledger.open_dataset(Path("wages.csv"), SHA)
    ledger.set_total(record.id, PrivacyCost(2.0))
    return record.id


def head_write_fails_once(monkeypatch: pytest.MonkeyPatch, error: BaseException) -> None:
    """The next write of the head file raises ``error`` after the transaction's line is on disk."""
    real = ledger_store.LedgerFile._write_head

    def fail_once(self: ledger_store.LedgerFile) -> None:
        monkeypatch.setattr(ledger_store.LedgerFile, "_write_head", real)
        raise error

    monkeypatch.setattr(ledger_store.LedgerFile, "_write_head", fail_once)


def test_ctrl_c_after_the_reservation_line_refunds_the_run_that_never_started(ledger_path, monkeypatch):
    ledger = Ledger()
    dataset_id = with_budget(ledger)
    head_write_fails_once(monkeypatch, KeyboardInterrupt())
    with pytest.raises(KeyboardInterrupt):
        ledger.reserve(dataset_id, PrivacyCost(1.0), "median of wage")
    (entry,) = Ledger().entries(dataset_id)
    assert entry.status is ReservationStatus.REFUNDED
    assert Ledger().state(dataset_id).spent.epsilon == 0


def test_a_failure_after_the_touched_line_commits_the_run_instead_of_a_refused_refund(
    ledger_path, monkeypatch
):
    ledger = Ledger()
    dataset_id = with_budget(ledger)
    reservation = ledger.reserve(dataset_id, PrivacyCost(1.0), "median of wage")
    head_write_fails_once(monkeypatch, OSError("disk went away"))
    with pytest.raises(OSError):
        ledger.mark_touched(reservation)  # the touched line is written; the run never learns so
    settle_failed_run(ledger, reservation)  # was: "Cannot refund ...: Commit it instead."
    (entry,) = Ledger().entries(dataset_id)
    assert entry.status is ReservationStatus.COMMITTED
    assert Ledger().state(dataset_id).spent.epsilon == pytest.approx(1.0)


def test_reading_the_ledger_brings_a_lagging_head_up_to_date_so_a_removed_line_is_caught(
    ledger_path, monkeypatch
):
    ledger = Ledger()
    dataset_id = with_budget(ledger)
    monkeypatch.setattr(ledger_store.LedgerFile, "_write_head", lambda self: None)  # a crash before it
    ledger.reserve(dataset_id, PrivacyCost(1.0), "median of wage")
    monkeypatch.undo()
    monkeypatch.setenv("DPGUI_HOME", str(ledger_path.parent))
    Ledger().state(dataset_id)  # a read-only command: `dpgui budget show`
    lines = ledger_path.read_text().splitlines(keepends=True)
    ledger_path.write_text("".join(lines[:-1]))  # the unresolved charge removed
    with pytest.raises(LedgerTampered, match="truncated"):
        Ledger()
