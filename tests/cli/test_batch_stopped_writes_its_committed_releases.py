"""A plan stopped part-way still writes the releases it committed.

Rule checked: nothing is charged without a result (privacy rule 5). ``dpgui release batch`` commits each
release of the plan as it finishes, but exported them all only at the end: a Ctrl-C (or any failure) in a
later release left the earlier, committed and charged, releases with no file at all.
"""

from __future__ import annotations

import json
from pathlib import Path

from dpgui.cli import main
from dpgui.cli.errors import EXIT_INTERRUPTED
from dpgui.tasks import runner
from tests.cli.test_batch import PLAN as PLAN_WITH_DELTA

PLAN = PLAN_WITH_DELTA.replace("delta = 1e-6\n", "")
"""test_batch's plan of two releases, pure: these tests set a budget without δ."""


def outcomes(home: Path) -> list[str]:
    lines = [json.loads(line) for line in (home / "ledger.jsonl").read_text().splitlines()]
    return [line["type"] for line in lines if line["type"] in ("committed", "refunded")]


def test_a_plan_interrupted_in_its_second_release_writes_the_first(
    wages_csv, tmp_path, isolated_home, monkeypatch, capsys
):
    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    real_run = runner.run_algorithm
    calls = []

    def interrupted_second(prepared, dataset, rng, on_touch, *args, **kwargs):
        calls.append(prepared)
        if len(calls) == 2:
            on_touch()
            raise KeyboardInterrupt  # Ctrl-C after the second release read the data
        return (yield from real_run(prepared, dataset, rng, on_touch, *args, **kwargs))

    monkeypatch.setattr(runner, "run_algorithm", interrupted_second)
    out = tmp_path / "out"
    code = main(["release", "batch", str(plan), "--data", str(wages_csv), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == EXIT_INTERRUPTED, err
    assert outcomes(isolated_home) == ["committed", "committed"]  # both charged: both read the data
    first = out / "01-wage-cdf"
    assert (first / "release.csv").is_file(), "the committed first release was charged but not written"
    manifest = json.loads((first / "manifest.json").read_text())
    assert manifest["task"] == "cdf"


def test_a_plan_stopped_while_writing_a_release_refunds_the_releases_that_never_started(
    wages_csv, tmp_path, isolated_home, monkeypatch, capsys
):
    """The first release's files cannot be written (a full disk): it read the data, so it stays charged,
    but the second release never started and read nothing, so it is refunded, not left open (an open
    reservation counts as spent for good once the process ends)."""
    from dpgui.cli import batch_cmd

    plan = tmp_path / "plan.toml"
    plan.write_text(PLAN)
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0

    def disk_full(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(batch_cmd, "export_one", disk_full)
    code = main(["release", "batch", str(plan), "--data", str(wages_csv), "--out", str(tmp_path / "out")])
    assert code != 0, capsys.readouterr().err
    assert outcomes(isolated_home) == ["committed", "refunded"]
