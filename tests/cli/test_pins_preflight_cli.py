"""Pins ``dpgui release``'s pre-flight flags (dpgui/cli/preflight.py): their defaults and range checks.

``--max-memory`` defaults to 4 GiB and ``--max-seconds`` to 600 s (the help text says so, and both are the
core's Limits defaults); both must be positive, and the memory at most 2^62 bytes (2^32 GiB); a namespace
without the flags (``release batch``) gets the defaults. ``--overwrite`` is off by default, also for a
namespace without it. The checks before a charge run in order (preconditions, predicted resources, --out,
the data pass, a writable ledger) and a refusal after --out is prepared discards it; the Stager says it
started only once it is called.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import pytest

from dpgui.cli import preflight
from dpgui.privacy.ledger import LedgerReadOnly
from dpgui.release.staging import OutFolder
from dpgui.tasks.preflight import GIB, Limits


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    preflight.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_defaults_are_four_gib_six_hundred_seconds_and_no_overwrite() -> None:
    args = parse()
    assert args.max_memory == 4.0
    assert args.max_seconds == 600.0
    assert args.overwrite is False
    assert parse("--overwrite").overwrite is True
    assert preflight.limits(args) == Limits(4 * GIB, 600.0) == Limits()


def test_a_namespace_without_the_flags_gets_the_default_limits() -> None:
    assert preflight.limits(argparse.Namespace()) == Limits(4 * GIB, 600.0)


def test_given_limits_are_passed_on_in_bytes_and_seconds() -> None:
    assert preflight.limits(parse("--max-memory", "0.5", "--max-seconds", "2.5")) == Limits(GIB // 2, 2.5)
    assert preflight.limits(parse("--max-seconds", "0.5")).max_seconds == 0.5  # under a second is allowed


@pytest.mark.parametrize(
    "argv",
    [
        ("--max-memory", "0"),
        ("--max-memory", "-1"),
        ("--max-seconds", "0"),
        ("--max-seconds", "-0.5"),
        ("--max-memory", str(2**32 + 1)),
        ("--max-memory", "nan"),
        ("--max-memory", "inf"),
        ("--max-memory", "1e300"),
        ("--max-seconds", "inf"),
        ("--max-seconds", str(365 * 24 * 3600 + 1)),
    ],
)
def test_limits_that_are_not_positive_or_too_large_are_refused(argv: tuple[str, str]) -> None:
    """The message gives the ranges (it said "must be positive numbers" of inf and 1e300: CLI fuzz)."""
    with pytest.raises(
        ValueError, match=r"--max-memory must be in \(0, 4,294,967,296\] GiB and --max-seconds"
    ):
        preflight.limits(parse(*argv))


def test_the_largest_memory_limit_is_two_to_the_62_bytes() -> None:
    assert preflight.limits(parse("--max-memory", str(2**32))).max_memory == 2**62


@dataclass
class FakeLedger:
    read_only: bool
    path: Path = Path("/ledger/ledger.jsonl")


def test_the_checks_before_a_charge_run_in_order_and_discard_out_on_refusal(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls: list[str] = []
    out = OutFolder(tmp_path / "out", tmp_path / "staging")
    estimate = SimpleNamespace(output_bytes=123)
    prepared = SimpleNamespace(algorithm=SimpleNamespace(name="chosen"))
    spec = SimpleNamespace(with_algorithm=lambda name: calls.append(f"spec of {name}") or "concrete")
    monkeypatch.setattr(preflight, "prepare", lambda spec, n: calls.append(f"prepare {n}") or prepared)
    monkeypatch.setattr(
        preflight, "refuse_flags_auto_ignores", lambda chosen, args: calls.append(f"flags of {chosen.name}")
    )
    monkeypatch.setattr(preflight, "estimate", lambda spec, n: calls.append(f"estimate {spec}") or estimate)
    monkeypatch.setattr(
        preflight, "check_limits", lambda spec, p, limits: calls.append(f"limits of {spec} {limits}")
    )

    def prepare_out(target: Path, overwrite: bool, needed_bytes: int, private: Path) -> OutFolder:
        calls.append(f"out overwrite={overwrite} bytes={needed_bytes} private={private}")
        return out

    monkeypatch.setattr(preflight, "prepare_out", prepare_out)
    monkeypatch.setattr(preflight, "data_check", lambda spec, opened: calls.append("data") or "check")
    monkeypatch.setattr(preflight, "report_data", lambda check, accept: calls.append(f"report {check}"))
    monkeypatch.setattr(preflight, "discard", lambda folder: calls.append(f"discard {folder is out}"))
    opened = SimpleNamespace(dataset=SimpleNamespace(n_rows=2000, path=Path("/data/private.csv")))
    args = argparse.Namespace(out=tmp_path / "out", accept_warnings=False)  # as release batch: no --overwrite
    assert preflight.before_charging(spec, opened, args, FakeLedger(False)) is out  # type: ignore[arg-type]
    assert calls == [
        "prepare 2000",
        "flags of chosen",
        "spec of chosen",  # the prediction is of auto's choice (SanPoints walks no grid)
        "estimate concrete",
        f"limits of concrete {Limits()}",
        "out overwrite=False bytes=123 private=/data/private.csv",
        "data",
        "report check",
    ]
    calls.clear()
    with pytest.raises(LedgerReadOnly, match="cannot be written"):
        preflight.before_charging(spec, opened, args, FakeLedger(True))  # type: ignore[arg-type]
    assert calls[-1] == "discard True"


def test_the_stager_has_not_started_until_it_is_called(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import dpgui.release.export as export

    seen: list[tuple[object, ...]] = []

    def export_release(release: object, staging: Path, plots: object) -> str:
        seen.append((release, staging, plots))
        return "files"

    monkeypatch.setattr(export, "export_release", export_release)
    out = OutFolder(tmp_path / "out", tmp_path / "staging")
    stager = preflight.Stager(out)
    assert stager.started is False and stager.staged is None
    assert stager("release") == out.describe()  # type: ignore[arg-type]
    assert stager.started is True and stager.staged == "files"
    assert seen == [("release", out.staging, None)]
    with_plots = preflight.Stager(out, plots=lambda r: {"p.png": b"x"})
    with_plots("release")  # type: ignore[arg-type]
    assert seen[-1][2] == {"p.png": b"x"}
    with pytest.raises(TypeError):
        preflight.Stager(out, None, "files")  # type: ignore[call-arg]
