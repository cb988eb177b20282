"""Pins ``dpgui release``'s own checks and defaults (dpgui/cli/release_cmd.py).

``--bounds`` is one LO HI pair per column, paired in order; ``--unit`` is one unit for every column or one
per column; ``--delta`` defaults to 0 and ``--missing`` to imputing (a table also offers keeping); the
scan progress prints each tenth once; the run progress of a release waits 5 s and repeats a standing tenth
every 30 s by default; a release the review refuses exits 2 with nothing reserved or written.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from dpgui.algorithms.progress import Progress
from dpgui.cli import main
from dpgui.cli.main import build_parser
from dpgui.cli.release_cmd import RunProgress, ScanProgress, declared_domains, declared_units, public_sample
from dpgui.data.backends import choose_engine
from dpgui.data.domain import NumericDomain, declared_grid
from dpgui.data.engines import COLUMNAR_MIN_BYTES, Engine


def release_parser(task: str) -> argparse.ArgumentParser:
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    tasks = next(a for a in commands.choices["release"]._actions if isinstance(a, argparse._SubParsersAction))
    return tasks.choices[task]


def test_release_defaults_and_required_flags() -> None:
    base = ["--column", "wage", "--bounds", "0", "10", "--epsilon", "1", "--out", "out"]
    args = release_parser("median").parse_args(base)
    assert args.bounds == [0.0, 10.0] and args.delta == 0.0 and args.missing == "impute"
    for flag in ("--column", "--bounds", "--epsilon", "--out"):
        i = base.index(flag)
        without = base[:i] + base[i + (3 if flag == "--bounds" else 2) :]
        with pytest.raises(SystemExit):
            release_parser("median").parse_args(without)
    with pytest.raises(SystemExit):
        release_parser("median").parse_args([*base, "--missing", "keep"])
    with pytest.raises(SystemExit):
        release_parser("median").parse_args(
            ["--column", "wage", "--bounds", "0", "--epsilon", "1", "--out", "o"]
        )


def test_the_missing_policies_offered() -> None:
    """A table keeps missing values as blanks by default and may also impute or fail; one-column tasks may
    impute or fail, never keep."""
    median = next(a for a in release_parser("median")._actions if "--missing" in a.option_strings)
    table = next(a for a in release_parser("table")._actions if "--missing" in a.option_strings)
    assert "keep" not in list(median.choices or ()) and {"impute", "fail"} <= set(median.choices or ())
    assert "keep" in list(table.choices or ()) and table.default == "keep"


def namespace(bounds: list[float], unit: list[str] | None = None) -> argparse.Namespace:
    return argparse.Namespace(bounds=bounds, granularity=None, bins=10, unit=unit)


def test_bounds_pair_up_per_column_in_order() -> None:
    domains = declared_domains(namespace([0.0, 10.0, -5.0, 5.0]), ["x", "y"])
    assert [(d.lower, d.upper) for d in domains] == [(0.0, 10.0), (-5.0, 5.0)]
    assert all(isinstance(d, NumericDomain) for d in domains)
    for wrong in ([0.0, 10.0], [0.0, 10.0, -5.0], [0.0, 10.0, -5.0, 5.0, 1.0, 2.0]):
        with pytest.raises(ValueError, match="--bounds needs one LO HI pair per column: 2 columns"):
            declared_domains(namespace(wrong), ["x", "y"])


def test_release_needs_a_task_and_per_column_bounds() -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["release"])
    assert stopped.value.code == 2
    rectangle = ["--features", "x,y", "--label", "z", "--epsilon", "1", "--out", "o"]
    assert release_parser("rectangle").parse_args([*rectangle, "--bounds", "0", "1", "0", "1"]).bounds == [
        0,
        1,
        0,
        1,
    ]
    with pytest.raises(SystemExit):
        release_parser("rectangle").parse_args(rectangle)


def test_a_public_sample_is_loaded_only_when_given(tmp_path: Path) -> None:
    assert public_sample(argparse.Namespace(public=None)) is None
    path = tmp_path / "public.csv"
    path.write_text("x\n1\n2\n")
    sample = public_sample(argparse.Namespace(public=path))
    assert sample is not None and sample.path == path.resolve()


def test_units_are_one_for_all_or_one_per_column() -> None:
    assert declared_units(namespace([0.0, 1.0]), 3) == ["", "", ""]
    assert declared_units(namespace([0.0, 1.0], ["USD"]), 3) == ["USD", "USD", "USD"]
    assert declared_units(namespace([0.0, 1.0], ["USD", "h"]), 2) == ["USD", "h"]
    with pytest.raises(ValueError, match="--unit needs one unit for all columns or one per column"):
        declared_units(namespace([0.0, 1.0], ["USD", "h"]), 3)
    units = [d.unit for d in declared_domains(namespace([0.0, 1.0, 2.0, 3.0], ["USD", "h"]), ["x", "y"])]
    assert units == ["USD", "h"]


def test_scan_progress_prints_each_tenth_once(capsys: pytest.CaptureFixture[str]) -> None:
    report = ScanProgress()
    for fraction in (0.0, 0.04, 0.1, 0.15, 0.55, 0.99, 1.0, 1.0):
        report(fraction)
    lines = capsys.readouterr().err.splitlines()
    assert lines == [f"scanning the private data: {p}%" for p in (0, 10, 50, 90, 100)]


def test_run_progress_defaults_are_five_seconds_then_every_thirty(capsys: pytest.CaptureFixture[str]) -> None:
    """The clock starts at 100 s: lines from 5 s after the start (5.0 included), then one per new tenth (10%
    is new) or every 30 s."""
    now = [100.0]
    report = RunProgress(clock=lambda: now[0])
    steps = ((104.9, 0.5), (105.0, 0.15), (105.1, 0.52), (134.0, 0.55), (135.2, 0.56), (165.2, 0.57))
    for second, fraction in steps:
        now[0] = second
        report(Progress(fraction, f"at {second}"))
    lines = capsys.readouterr().err.splitlines()
    expected = [("10", 105.0), ("50", 105.1), ("50", 135.2), ("50", 165.2)]
    assert lines == [f"running: {tenth}% (at {second})" for tenth, second in expected]


def test_a_refused_review_exits_2_and_charges_nothing(
    wages_csv: Path, tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    argv = ["release", "median", "--data", str(wages_csv), "--column", "wage", "--epsilon", "1"]
    assert main([*argv, "--bounds", "0", "5000", "--bins", "10", "--out", str(tmp_path / "a")]) == 2
    assert not (tmp_path / "a").exists()
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    assert "remaining ε=5" in capsys.readouterr().out


@pytest.mark.parametrize(("extra", "message"), [
    (["--table", "people"], "or a Spark table (--table people), not both"),
    (["--spark-master", "local[1]"], "--spark-master local[1] is for the Spark engine"),
    (["--engine", "embedded", "--spark-master", "local[1]"], "is for the Spark engine"),
])  # fmt: skip
def test_a_source_flag_the_release_would_not_use_is_refused(tmp_path, capsys, extra, message):
    """--data with --table read the table and dropped the file; --spark-master with another engine was
    ignored. Both are refused before the data is opened (Spark is never started) or anything charged."""
    data = tmp_path / "small.csv"
    data.write_text("x\n1\n2\n3\n")
    release = ["release", "median", "--data", str(data), "--column", "x", "--bounds", "0", "9"]
    assert main([*release, "--epsilon", "1", "--out", str(tmp_path / "out"), *extra]) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def release_help(flag: str) -> str:
    """The help of ``flag`` on ``dpgui release cdf``."""
    release = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    tasks = next(a for a in release.choices["release"]._actions if isinstance(a, argparse._SubParsersAction))
    return str(next(a.help for a in tasks.choices["cdf"]._actions if flag in a.option_strings))


def test_the_granularity_help_states_the_cores_default_at_its_edges():
    """The help said 'default: 1 when the bounds hold at least 1,000 whole numbers', but bounds 0 and 10^7
    get a step of 1,000: the core gives 1 only up to 2^20 apart. The help now states both edges."""
    assert "whole numbers 999 to 1,048,576 apart" in release_help("--granularity")
    assert [declared_grid(0, upper).granularity for upper in (998, 999, 1_048_576)] == [0.05, 1.0, 1.0]
    assert declared_grid(0, 1_048_577).granularity == 100.0


def test_the_engine_help_states_when_auto_scans_out_of_core(tmp_path):
    """The help said auto scans files over min(1 GiB, RAM/4) out of core; Parquet and Feather files are
    scanned from 16 MiB (and a Parquet folder always)."""
    assert "Parquet or Feather files over 16 MiB and other files over min(1 GiB, RAM/4)" in release_help(
        "--engine"
    )
    parquet = tmp_path / "big.parquet"
    parquet.write_bytes(b"PAR1" + bytes(COLUMNAR_MIN_BYTES) + b"PAR1")
    assert choose_engine(parquet) is Engine.EMBEDDED
