"""Nothing charged without a result: every input that cannot give a release ends in exit 2 (or 3, 4)
before the ledger reserves anything; everything else ends in a complete release in --out."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.release import export, staging

ROOT = Path(__file__).resolve().parents[2]


def reservations(home: Path) -> int:
    ledger = home / "ledger.jsonl"
    if not ledger.exists():
        return 0
    return sum(json.loads(line)["type"] == "reserved" for line in ledger.read_text().splitlines())


def budget(data: Path, epsilon: str = "50") -> None:
    assert main(["budget", "set", "--data", str(data), "--epsilon", epsilon]) == 0


def write(path: Path, text: str | bytes) -> Path:
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return path


def numbers(count: int = 300) -> str:
    return "\n".join(str(i % 100) for i in range(count)) + "\n"


def release(task: str, data: Path, out: Path, *extra: str) -> int:
    return main(["release", task, "--data", str(data), "--out", str(out), "--epsilon", "1", *extra])


def assert_refused_before_charge(code: int, home: Path, out: Path, capsys, expected: str, exit_code: int = 2):
    err = capsys.readouterr().err
    assert code == exit_code, err
    assert expected in err, err
    assert "Traceback" not in err
    assert reservations(home) == 0
    assert not out.exists()
    assert not list(out.parent.glob(f".{out.name}.staging-*"))


# -- a corpus of malformed files: refused by the data pass, before the reservation ------------------------

MALFORMED = {
    "date_in_numeric": ("x\n" + numbers() + "2024-01-05\n", ["--column", "x"], "is not a finite number"),
    "nul_bytes": (b"x\n" + numbers().encode() + b"1\x002\n", ["--column", "x"], "is not a finite number"),
    "infinity": ("x\n" + numbers() + "inf\n", ["--column", "x"], "is not a finite number"),
    "all_missing": ("x,y\n" + ",1\n" * 300, ["--column", "x"], "every cell of column 'x' is missing"),
    "missing_fail": (
        "x,y\n" + "3,1\n" * 300 + ",1\n",
        ["--column", "x", "--missing", "fail"],
        "1 missing cells",
    ),
    "duplicate_header": ("x,x\n" + "1,2\n" * 300, ["--column", "x"], "names the column 'x' twice"),
    "ragged_row": ("x,y\n" + "1,2\n" * 300 + "1,2,3\n" + "4,5\n" * 3, ["--column", "x"], "line 302 has 3"),
}


@pytest.mark.parametrize("engine", ["memory", "embedded"])
@pytest.mark.parametrize("case", sorted(MALFORMED))
def test_a_malformed_file_is_refused_the_same_by_every_engine_before_any_charge(
    case, engine, tmp_path, isolated_home, capsys
):
    content, flags, expected = MALFORMED[case]
    data = write(tmp_path / "data.csv", content)
    budget(data)
    out = tmp_path / "out"
    code = release("median", data, out, "--bounds", "0", "100", "--engine", engine, *flags)
    assert_refused_before_charge(code, isolated_home, out, capsys, expected)


def test_a_third_label_class_is_refused_before_any_charge(tmp_path, isolated_home, capsys):
    rows = "".join(f"{i % 50},{i % 2}\n" for i in range(400)) + "7,2\n"
    data = write(tmp_path / "labels.csv", "x,label\n" + rows)
    budget(data)
    out = tmp_path / "out"
    code = release("threshold", data, out, "--feature", "x", "--label", "label", "--bounds", "0", "50")
    assert_refused_before_charge(code, isolated_home, out, capsys, "is not a label")


def test_an_undeclared_category_is_refused_before_any_charge(tmp_path, isolated_home, capsys):
    data = write(tmp_path / "cats.csv", "c\n" + "a\nb\n" * 150 + "z\n")
    budget(data)
    out = tmp_path / "out"
    code = release("histogram", data, out, "--column", "c", "--categories", "a,b")
    assert_refused_before_charge(code, isolated_home, out, capsys, "'z' is not a declared category")


# -- parameters: refused before the data is opened ------------------------------------------------------


@pytest.mark.parametrize(
    ("task", "flags", "expected"),
    [
        ("cdf", ["--bounds", "0", "100", "--epsilon", "1000"], "epsilon must be"),
        ("cdf", ["--bounds", "0", "100", "--epsilon", "1e-320"], "epsilon must be"),
        ("histogram", ["--bounds", "0", "1", "--granularity", "1e-300"], "more than 2^64"),
        ("median", ["--bounds", "0", "100", "--epsilon", "inf"], "epsilon must be"),
        # the same words for 0 as for 1e-320 (CLI fuzz, session 36: "> 0, got 0.0" beside the range)
        ("median", ["--bounds", "0", "100", "--epsilon", "0"], "epsilon must be a number in [1e-06, 100]"),
        (
            "median",
            ["--bounds", "0", "100", "--epsilon", "1e-320"],
            "must be a number in [1e-06, 100], got 9.99989e-321",
        ),
        ("median", ["--bounds", "0", "100", "--beta", "0"], "beta"),
        ("median", ["--bounds", "0", "100", "--beta", "-1"], "beta"),
        ("median", ["--bounds", "0", "100", "--beta", "2"], "beta"),
        ("median", ["--bounds", "0", "100", "--delta", "nan"], "delta must be"),
        ("cdf", ["--bounds", "0", "1e300"], "outside ±2^63"),
        ("histogram", ["--bounds", "0", "1e300"], "outside ±2^63"),
        ("median", ["--bounds", "5", "1"], "lower < upper"),
        ("cdf", ["--bounds", "0", "1", "--bins", "0"], "bins"),
        ("cdf", ["--bounds", "0", "5", "--granularity", "10"], "has one point"),  # table audit, session 36
        ("synthetic", ["--bounds", "0", "100", "--rows", "1000000000"], "rows must be in"),
        ("cdf", ["--bounds", "0", "30000", "--granularity", "0.001"], "the largest grid that fits has"),
        ("cdf", ["--bounds", "0", "1000", "--max-memory", "0.1"], "--max-memory"),
        ("cdf", ["--bounds", "0", "100000", "--max-seconds", "0.5"], "--max-seconds"),
    ],
)
def test_a_parameter_out_of_range_is_refused_with_exit_2_before_any_charge(
    task, flags, expected, wages_csv, tmp_path, isolated_home, capsys
):
    budget(wages_csv)
    out = tmp_path / "out"
    argv = ["release", task, "--data", str(wages_csv), "--column", "wage", "--out", str(out)]
    code = main([*argv, *(["--epsilon", "1"] if "--epsilon" not in flags else []), *flags])
    assert_refused_before_charge(code, isolated_home, out, capsys, expected)


def test_the_largest_grid_named_in_a_refusal_fits(wages_csv, tmp_path, isolated_home, capsys):
    from dpgui.data.domain import NumericDomain
    from dpgui.tasks.preflight import Limits, estimate, largest_grid
    from dpgui.tasks.spec import TaskKind, TaskSpec

    spec = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 30000, 0.001),), epsilon=1.0)
    limits = Limits()
    fits = largest_grid(estimate(spec, 2001), limits)
    smaller = TaskSpec(TaskKind.CDF, ("wage",), (NumericDomain(0, 30000, 30000 / (fits - 1)),), epsilon=1.0)
    predicted = estimate(smaller, 2001)
    assert predicted.memory <= limits.max_memory and predicted.seconds <= limits.max_seconds


# -- the output folder ------------------------------------------------------------------------------------


def median(data: Path, out: Path, *extra: str) -> int:
    return release("median", data, out, "--column", "wage", "--bounds", "0", "20000", *extra)


def test_an_existing_file_as_out_is_refused_before_any_charge(wages_csv, tmp_path, isolated_home, capsys):
    budget(wages_csv)
    target = write(tmp_path / "taken.txt", "mine")
    assert median(wages_csv, target) == 2
    err = capsys.readouterr().err
    assert "is an existing file" in err and "Traceback" not in err
    assert reservations(isolated_home) == 0 and target.read_text() == "mine"


@pytest.mark.parametrize(
    "failure",
    [OSError(errno.ENOSPC, "No space left on device"), PermissionError(errno.EACCES, "Permission denied")],
)
def test_a_full_disk_or_read_only_folder_is_refused_before_any_charge(
    failure, wages_csv, tmp_path, isolated_home, monkeypatch, capsys
):
    budget(wages_csv)

    def refuse(path: Path, data: bytes) -> None:
        raise failure

    monkeypatch.setattr(export, "write_atomic", refuse)
    out = tmp_path / "out"
    assert_refused_before_charge(median(wages_csv, out), isolated_home, out, capsys, failure.strerror)


class Free:
    """``shutil.disk_usage`` of a nearly full disk."""

    total = used = 1 << 40
    free = 1000


def test_too_little_free_space_is_refused_before_any_charge(
    wages_csv, tmp_path, isolated_home, monkeypatch, capsys
):
    budget(wages_csv)
    monkeypatch.setattr(staging.shutil, "disk_usage", lambda _path: Free())
    out = tmp_path / "out"
    assert_refused_before_charge(median(wages_csv, out), isolated_home, out, capsys, "MiB free")


def test_an_earlier_release_is_kept_unless_overwrite_which_removes_its_stale_files(
    wages_csv, tmp_path, isolated_home, capsys
):
    budget(wages_csv)
    out = tmp_path / "out"
    coarse = (
        "--bounds",
        "0",
        "20000",
        "--bins",
        "50",
        "--accept-warnings",
    )  # a 51-point grid: a review warning
    assert release("cdf", wages_csv, out, "--column", "wage", *coarse) == 0
    assert (out / "release.parquet").exists()
    before = reservations(isolated_home)
    assert median(wages_csv, out) == 2
    assert "holds an earlier release" in capsys.readouterr().err
    assert reservations(isolated_home) == before
    assert median(wages_csv, out, "--overwrite") == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["task"] == "median"
    assert not (out / "release.parquet").exists()  # the earlier CDF's table is not left beside the median
    assert {p.name for p in out.iterdir()} == {o["file"] for o in manifest["outputs"]} | {"manifest.json"}
    assert not list(tmp_path.glob(".out.staging-*"))


def test_the_manifest_and_the_commit_line_tie_the_release_to_the_ledger(wages_csv, tmp_path, isolated_home):
    budget(wages_csv)
    out = tmp_path / "out"
    assert median(wages_csv, out) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    lines = [json.loads(line) for line in (isolated_home / "ledger.jsonl").read_text().splitlines()]
    (commit,) = [line for line in lines if line["type"] == "committed"]
    assert commit["release_id"] == manifest["release_id"]
    assert commit["prev"] == manifest["ledger_head"]["hash"]
    assert str(out) in commit["files"]
    head = json.loads((isolated_home / "ledger.head").read_text())
    assert head == {"seq": commit["seq"], "hash": commit["hash"]}


def test_a_failure_after_the_commit_names_the_staging_folder(
    wages_csv, tmp_path, isolated_home, monkeypatch, capsys
):
    budget(wages_csv)

    def refuse(source, destination) -> None:
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(staging, "_move", refuse)
    out = tmp_path / "out"
    assert median(wages_csv, out) == 2
    err = capsys.readouterr().err
    (staged,) = tmp_path.glob(".out.staging-*")
    assert str(staged) in err and "committed" in err and "Traceback" not in err
    assert (staged / "manifest.json").exists()
    commit = [json.loads(x) for x in (isolated_home / "ledger.jsonl").read_text().splitlines()][-1]
    assert commit["type"] == "committed" and str(staged) in commit["files"]


# -- what the custodian is told ---------------------------------------------------------------------------


def test_data_problems_are_counted_on_stderr_and_never_exported(tmp_path, isolated_home, capsys):
    values = np.r_[np.arange(200) % 90, np.full(20, np.nan), [150.0] * 5]
    data = tmp_path / "data.csv"
    pd.DataFrame({"x": values}).to_csv(data, index=False)
    budget(data)
    out = tmp_path / "out"
    assert release("median", data, out, "--column", "x", "--bounds", "0", "100") == 0
    err = capsys.readouterr().err
    assert "column 'x': 20 missing (8.9%), 0 invalid, 5 out of bounds of 225 rows" in err
    assert "warning: 8.9% of column 'x' is missing and will be replaced by 0" in err
    exported = b"".join(path.read_bytes() for path in out.iterdir())
    assert b"out of bounds" not in exported and b"8.9%" not in exported


def test_a_closed_stdout_after_a_release_is_not_an_error(wages_csv, tmp_path, isolated_home):
    """``dpgui release cdf ... | head -1``: the release is complete and the command exits 0."""
    budget(wages_csv)
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "DPGUI_HOME": str(isolated_home)}
    argv = ["release", "cdf", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "20000"]
    process = subprocess.Popen(
        [sys.executable, "-m", "dpgui", *argv, "--bins", "2000", "--epsilon", "1", "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        cwd=ROOT,
    )
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    err = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0, err
    assert "Traceback" not in err and "BrokenPipe" not in err
    assert (out / "manifest.json").exists() and (out / "release.csv").exists()


def test_a_write_failing_after_the_run_says_the_run_is_charged_and_the_ledger_records_it(
    wages_csv, tmp_path, isolated_home, monkeypatch, capsys
):
    """The pre-flight probe passed but the disk filled up during the run: charged, and said so."""
    budget(wages_csv)
    real = export.write_atomic

    def full_for_releases(path: Path, data: bytes) -> None:
        if path.name != ".dpgui-probe":
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        real(path, data)

    monkeypatch.setattr(export, "write_atomic", full_for_releases)
    out = tmp_path / "out"
    assert median(wages_csv, out) == 2
    err = capsys.readouterr().err
    assert "is charged" in err and "No space left on device" in err and "Traceback" not in err
    commit = [json.loads(x) for x in (isolated_home / "ledger.jsonl").read_text().splitlines()][-1]
    assert commit["type"] == "committed" and commit["files"].startswith("none: writing the outputs failed")
    assert not out.exists() and not list(tmp_path.glob(".out.staging-*"))


def test_a_read_only_parent_stages_inside_out(wages_csv, tmp_path, isolated_home, monkeypatch):
    """Only the parent refuses new entries: the staging folder goes inside --out and is removed after."""
    budget(wages_csv)
    out = tmp_path / "out"
    out.mkdir()
    make = Path.mkdir

    def refuse_beside(self: Path, *args, **kwargs) -> None:
        if self.parent == tmp_path and self.name.startswith(".out.staging-"):
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        make(self, *args, **kwargs)

    monkeypatch.setattr(Path, "mkdir", refuse_beside)
    assert median(wages_csv, out) == 0
    assert sorted(p.name for p in out.iterdir()) == ["manifest.json", "release.csv", "report.html"]
