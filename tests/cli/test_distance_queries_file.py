"""The distance commands' ``--queries FILE``: its rows set the query count.

Observed: ``dpgui release distance --queries FILE --query-count 5`` ran, silently ignoring the count (the
file's rows set it).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from tests.cli.test_preflight import reservations


def private_points(folder: Path) -> Path:
    """200 private points (c0, c1) in [0, 1]^2."""
    rng = np.random.default_rng(2)
    path = folder / "private.csv"
    pd.DataFrame({"c0": rng.random(200), "c1": rng.random(200)}).to_csv(path, index=False)
    return path


def release(data: Path, queries: Path, out: Path, *extra: str) -> int:
    return main(
        ["release", "distance", "--data", str(data), "--columns", "c0,c1", "--bounds", "0", "1", "0", "1",
         "--queries", str(queries), "--epsilon", "1", "--out", str(out), "--accept-warnings", *extra]
    )  # fmt: skip


@pytest.mark.parametrize("algorithm", ["laplace-per-query", "auto"])
def test_a_query_count_beside_a_queries_file_is_refused_before_any_charge(
    algorithm, tmp_path, isolated_home, capsys
):
    data = private_points(tmp_path)
    queries = tmp_path / "queries.csv"
    queries.write_text("c0,c1\n0.5,0.5\n0.1,0.9\n")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    capsys.readouterr()
    out = tmp_path / "out"
    code = release(data, queries, out, "--algorithm", algorithm, "--query-count", "5")
    err = capsys.readouterr().err
    assert code == 2, err
    assert "--queries and --query-count were both given" in err
    assert "the queries file's rows set the query count" in err
    assert reservations(isolated_home) == 0 and not out.exists()
    assert release(data, queries, out, "--algorithm", algorithm) == 0  # control: the file alone runs
