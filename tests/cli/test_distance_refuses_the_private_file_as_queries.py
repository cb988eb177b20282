"""The private file itself given as the distance release's PUBLIC queries file.

Rule checked: exports hold DP outputs and public facts only, never rows (privacy rule 6). ``release
distance --queries FILE`` writes every query point into release.csv beside its answer. With the private
file as FILE (a slip the help text's "PUBLIC" does not prevent) the private rows were exported verbatim,
and charged as an ordinary release. A queries file with the private file's bytes must be refused before
the charge, like a public sample with them.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from tests.cli.test_preflight import reservations
from tests.conftest import CANARY, holds_canary


def private_points(folder: Path) -> Path:
    """300 private points (x, y) in [0, 100] x [0, 10], one x the canary, as ``folder/private.csv``."""
    rng = np.random.default_rng(4)
    frame = pd.DataFrame(
        {"x": np.round(rng.uniform(0, 100, 300), 2), "y": np.round(rng.uniform(0, 10, 300), 2)}
    )
    frame.loc[0, "x"] = CANARY
    path = folder / "private.csv"
    frame.to_csv(path, index=False)
    return path


def assert_refused_exporting_no_row(code: int, out: Path, home: Path, capsys) -> None:
    """Refused with exit 2, naming the queries file, before any charge, and no private row in ``out``."""
    err = capsys.readouterr().err
    exported = [p for p in out.rglob("*") if p.is_file()] if out.exists() else []
    assert not [p.name for p in exported if holds_canary(p.read_bytes())], "a private row was exported"
    assert code == 2, err
    assert "queries" in err
    assert reservations(home) == 0


@pytest.mark.parametrize("how", ["same path", "copy"])
def test_the_private_file_as_queries_file_is_refused_before_any_charge(how, tmp_path, isolated_home, capsys):
    data = private_points(tmp_path)
    queries = data
    if how == "copy":
        queries = tmp_path / "queries.csv"
        shutil.copyfile(data, queries)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    out = tmp_path / "out"
    code = main(
        [
            "release", "distance", "--data", str(data), "--columns", "x,y", "--bounds", "0", "100", "0",
            "10", "--bins", "16", "--queries", str(queries), "--epsilon", "1", "--out", str(out),
            "--accept-warnings",
        ]
    )  # fmt: skip
    assert_refused_exporting_no_row(code, out, isolated_home, capsys)
