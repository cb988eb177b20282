"""Pins ``dpgui plan TASK`` (dpgui/cli/plan_cmd.py): its checks, defaults and what it prints.

``--n`` below 1 is a usage error (exit 2); a task needs ``--bounds`` (a table ``--domains``) and
``--epsilon``, and takes no plan file; ``--delta`` defaults to 0; labelled tasks (threshold, point,
rectangle) get a label column. The table prints one line per algorithm (min n "—" when none, feasible
yes/no, auto ←), the epsilon for a target, the reason of an infeasible row, and each floor with its records
("public records" for the public-sample floor), solidity and source; ``--json`` prints the same rows and
floors.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.cli import main

MEDIAN = ["plan", "median", "--n", "1000", "--bounds", "0", "1000", "--epsilon", "1"]


THRESHOLD_PLAN = ["plan", "threshold", "--n", "2000", "--bounds", "0", "1000", "--epsilon", "1"]
"""A threshold task planned for 2,000 rows on [0, 1000] at epsilon 1."""


def test_n_below_one_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", "median", "--n", "0", "--bounds", "0", "1000", "--epsilon", "1"]) == 2
    assert "--n must be at least 1" in capsys.readouterr().err
    assert main(["plan", "median", "--n", "1", "--bounds", "0", "1000", "--epsilon", "1"]) == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["plan", "median", "--bounds", "0", "9", "--epsilon", "1"],
            "the following arguments are required: --n",
        ),
        (["plan", "median", "--n", "10", "--epsilon", "1"], "the following arguments are required: --bounds"),
        (
            ["plan", "median", "--n", "10", "--bounds", "0", "9"],
            "the following arguments are required: --epsilon",
        ),
        (["plan", "table", "--n", "10", "--epsilon", "1"], "the following arguments are required: --domains"),
        (["plan", "median", "extra.toml", *MEDIAN[2:]], "unexpected PLAN.toml"),
        (["plan", "batch", "--n", "10"], "plan batch needs the plan file"),
    ],
)
def test_missing_or_unexpected_arguments_are_usage_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    assert message in capsys.readouterr().err


def test_delta_defaults_to_zero(capsys: pytest.CaptureFixture[str]) -> None:
    """At the default delta the Gaussian tree (approximate DP) is infeasible; at delta = 1e-6 it is not."""
    cdf = ["plan", "cdf", "--n", "3000", "--bounds", "0", "1000", "--epsilon", "1", "--json"]
    assert main(cdf) == 0
    rows = {row["algorithm"]: row for row in json.loads(capsys.readouterr().out)["algorithms"]}
    assert rows["tree-gaussian"]["feasible"] is False and "δ > 0" in rows["tree-gaussian"]["reason"]
    assert main([*cdf, "--delta", "1e-6"]) == 0
    rows = {row["algorithm"]: row for row in json.loads(capsys.readouterr().out)["algorithms"]}
    assert rows["tree-gaussian"]["feasible"] is True


def test_labelled_tasks_are_planned_with_a_label(capsys: pytest.CaptureFixture[str]) -> None:
    """Threshold learning plans rows for a labelled column: the exponential mechanism is feasible."""
    argv = [*THRESHOLD_PLAN, "--json"]
    assert main(argv) == 0
    rows = {row["algorithm"]: row for row in json.loads(capsys.readouterr().out)["algorithms"]}
    assert rows["em-threshold"]["feasible"] is True and rows["em-threshold"]["reason"] == ""


def test_the_table_lines(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*THRESHOLD_PLAN, "--target-error", "0.1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == [
        "algorithm",
        "privacy",
        "predicted",
        "error",
        "unit",
        "min",
        "n",
        "feasible",
        "auto",
    ]
    em = next(line for line in lines if line.startswith("em-threshold "))
    assert em.split()[1] == "pure" and em.split()[-2:] == ["yes", "←"]
    recconcave = next(line for line in lines if line.startswith("recconcave "))
    assert recconcave.split()[1] == "approx" and recconcave.split()[-2:] == ["—", "no"]
    after = lines[lines.index(recconcave) + 1 :]
    assert after[0].strip() == "ε for the target error: unreachable at this n"
    assert after[1].strip().startswith("RecConcave needs a public direction")
    target = lines[lines.index(em) + 1].strip()
    assert target.startswith("ε for the target error: ") and float(target.rsplit(" ", 1)[1]) > 0
    floor = next(line for line in lines if line.startswith("floor: pure-DP learner"))
    assert floor.endswith(" records") and "public records" not in floor
    assert lines[lines.index(floor) + 1] == "       (proven; paper 003 via spec 003 A9)"


def test_the_public_floor_counts_public_records(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    public = tmp_path / "public.csv"
    public.write_text("x\n" + "\n".join(str(v) for v in range(100)) + "\n")
    argv = ["plan", "cdf", "--n", "3000", "--bounds", "0", "1000", "--epsilon", "1", "--public", str(public)]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    floor = next(line for line in lines if line.startswith("floor: public records"))
    assert floor.endswith("at least 10 public records")
    assert lines[lines.index(floor) + 1].startswith("       (order of magnitude; paper 001 Thm 15")


def test_json_has_the_rows_and_the_floors_with_their_solidity(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*THRESHOLD_PLAN, "--json", "--shapes"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert {row["algorithm"] for row in document["algorithms"]} >= {"em-threshold", "recconcave"}
    solidity = {floor["name"]: floor["solidity"] for floor in document["floors"]}
    assert solidity["pure-DP learner (certified, Littlestone dimension)"] == "proven"
    assert solidity["approximate DP, Ω(log*|X|)"] == "constant unknown"
    rows = {row["algorithm"]: row for row in document["algorithms"]}
    assert rows["recconcave"]["min_n"] is None and rows["em-threshold"]["auto"] is True
