"""``dpgui release threshold|point``: exit 0 with the rule, exit 4 on a refused precondition."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main


@pytest.fixture
def labelled_csv(tmp_path: Path) -> Path:
    gen = np.random.default_rng(1)
    hours = gen.integers(0, 80, 2000)
    frame = pd.DataFrame({"hours": hours, "fulltime": np.where(hours >= 35, "yes", "no")})
    path = tmp_path / "hours.csv"
    frame.to_csv(path, index=False)
    main(["budget", "set", "--data", str(path), "--epsilon", "10", "--delta", "1e-3"])
    return path


def release(task: str, data: Path, out: Path, *extra: str) -> int:
    return main(
        ["release", task, "--data", str(data), "--feature", "hours", "--label", "fulltime",
         "--bounds", "0", "100", "--epsilon", "1", "--out", str(out), *extra]
    )  # fmt: skip


def test_threshold_release_prints_the_threshold(labelled_csv: Path, tmp_path: Path, capsys) -> None:
    assert release("threshold", labelled_csv, tmp_path / "out", "--direction", "ge") == 0
    out = capsys.readouterr().out
    value, direction = out.splitlines()[0].split(",")
    assert direction == "ge" and abs(float(value) - 35) <= 3
    assert (tmp_path / "out" / "release.csv").exists()


def test_bins_declare_the_grid_of_a_learning_task(labelled_csv: Path, tmp_path: Path) -> None:
    assert release("threshold", labelled_csv, tmp_path / "out", "--direction", "ge", "--bins", "20",
                   "--accept-warnings") == 0  # fmt: skip
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["parameters"]["domains"]["hours"]["granularity"] == 5


def test_recconcave_runs_with_delta_and_is_refused_without(
    labelled_csv: Path, tmp_path: Path, capsys
) -> None:
    args = ("--algorithm", "recconcave", "--direction", "ge", "--accept-warnings")  # no guarantee at this n
    assert release("threshold", labelled_csv, tmp_path / "a", *args, "--delta", "1e-6") == 0
    assert release("threshold", labelled_csv, tmp_path / "b", *args) == 4
    assert "δ > 0" in capsys.readouterr().err
    assert not (tmp_path / "b").exists()


def test_public_em_without_a_public_sample_exits_4(labelled_csv: Path, tmp_path: Path, capsys) -> None:
    assert release("threshold", labelled_csv, tmp_path / "o", "--algorithm", "public-em") == 4
    assert "public sample" in capsys.readouterr().err


def test_point_release_with_a_positive_value(labelled_csv: Path, tmp_path: Path, capsys) -> None:
    code = release("point", labelled_csv, tmp_path / "p", "--positive", "nobody", "--delta", "1e-6",
                   "--algorithm", "learn-points")  # fmt: skip
    assert code == 2  # no cell reads it: almost surely a typo, refused before the charge
    assert "no cell of label column 'fulltime' reads 'nobody'" in capsys.readouterr().err
    code = release("point", labelled_csv, tmp_path / "p", "--positive", "nobody", "--delta", "1e-6",
                   "--algorithm", "learn-points", "--accept-warnings")  # fmt: skip
    assert code == 0
    assert capsys.readouterr().out.splitlines()[0] == "none"


def test_the_label_private_learner_needs_its_opt_in_and_is_shown_on_its_own_account(
    labelled_csv: Path, tmp_path: Path, capsys
) -> None:
    args = ("--algorithm", "label-private", "--direction", "ge", "--positive", "yes")
    assert release("threshold", labelled_csv, tmp_path / "a", *args) == 2
    assert "--accept-labels-only" in capsys.readouterr().err
    accepted = (
        "--accept-labels-only",
        "--accept-warnings",
    )  # no accuracy guarantee at this n: a review warning
    assert release("threshold", labelled_csv, tmp_path / "b", *args, *accepted) == 0
    err = capsys.readouterr().err  # its budget lines name the account they are read from (an export audit)
    assert "left (labels-only account)" in err and f"{labelled_csv.name} (labels-only account): total" in err
    assert main(["budget", "show", "--data", str(labelled_csv)]) == 0
    shown = capsys.readouterr().out
    assert "spent ε=0;" in shown  # the replace-one account is untouched
    assert "labels-only account" in shown and "spent ε=1" in shown and "[labels-only]" in shown
