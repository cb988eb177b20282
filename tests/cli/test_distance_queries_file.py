"""The distance commands' ``--queries FILE``: its rows set the query count, and a bad file is an input error.

Observed: ``dpgui release distance --queries FILE --query-count 5`` ran, silently ignoring the count (the
file's rows set it); a queries file with text in a numeric column, a missing column or an empty cell made
the release exit 4 ("precondition failed") where the user guide says an input error exits 2.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.distance.cdf_route import STRUCTURE_FILE, PrivacyBudget, support_points
from dpgui.cli import main
from tests.algorithms.distance.test_cdf_route import structure
from tests.cli.test_preflight import reservations

BAD_FILES = {
    "text in a numeric column": ("c0,c1\n0.5,0.5\nx,0.2\n", "row 2, column 'c0' reads 'x'"),
    "a missing column": ("c0\n0.5\n", "lacks the columns c1"),
    "an empty cell": ("c0,c1\n0.5,\n", "missing or non-numeric values"),
}


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


@pytest.mark.parametrize("algorithm", ["laplace-per-query", "cdf-route", "auto"])
@pytest.mark.parametrize("bad", list(BAD_FILES))
def test_a_bad_queries_file_is_an_input_error_of_the_release(algorithm, bad, tmp_path, isolated_home, capsys):
    text, said = BAD_FILES[bad]
    data = private_points(tmp_path)
    queries = tmp_path / "queries.csv"
    queries.write_text(text)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    capsys.readouterr()
    code = release(data, queries, tmp_path / "out", "--algorithm", algorithm)
    err = capsys.readouterr().err
    assert code == 2, err
    assert said in err and "minimum n" not in err
    assert reservations(isolated_home) == 0


@pytest.mark.parametrize("bad", list(BAD_FILES))
def test_a_bad_queries_file_is_an_input_error_of_the_query(bad, tmp_path, capsys):
    text, said = BAD_FILES[bad]
    supports = [support_points(np.linspace(0, 1, 11), 16)] * 2
    released = structure(np.array([[0.1, 0.2], [0.5, 0.9]]), supports, PrivacyBudget(1e9))
    (tmp_path / STRUCTURE_FILE).write_text(json.dumps(released.to_json()), encoding="utf-8")
    queries = tmp_path / "queries.csv"
    queries.write_text(text)
    assert main(["query", "distance", "--release", str(tmp_path), "--queries", str(queries)]) == 2
    assert said in capsys.readouterr().err


@pytest.mark.parametrize(
    ("algorithm", "said"),
    [("bourgain", "needs a file of public queries"), ("gaussian-per-query", "needs delta > 0")],
)
def test_an_algorithm_without_its_inputs_is_an_input_error(algorithm, said, tmp_path, isolated_home, capsys):
    """No queries file for an algorithm that answers one, or delta 0 for the Gaussian baseline: whatever n
    is, the parameters are unusable (exit 2), as with a bad file beside them under ``auto``."""
    data = private_points(tmp_path)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    capsys.readouterr()
    queries = tmp_path / "queries.csv"
    queries.write_text("c0,c1\n0.5,0.5\n")
    extra = ("--queries", str(queries)) if algorithm != "bourgain" else ()
    code = main(
        ["release", "distance", "--data", str(data), "--columns", "c0,c1", "--bounds", "0", "1", "0", "1",
         "--epsilon", "1", "--out", str(tmp_path / "out"), "--algorithm", algorithm, *extra]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2, err
    assert said in err and "minimum n" not in err
    assert reservations(isolated_home) == 0


@pytest.mark.parametrize(
    ("columns", "extra", "said"),
    [
        ("c0,c1", ("--algorithm", "cdf-route", "--metric", "linf"), "the CDF route answers l1 and l2"),
        ("c0,c1", ("--algorithm", "huang-roth-offline", "--metric", "l2"), "answers l1 only"),
        ("c0,c0", ("--algorithm", "cdf-route"), "each column may appear once; c0 is repeated"),
    ],
)
def test_a_metric_or_column_list_the_algorithm_cannot_take_is_an_input_error(
    columns, extra, said, tmp_path, isolated_home, capsys
):
    """No row count makes the CDF route answer l-infinity or a coordinate count once if listed twice: exit 2,
    not 4 ("precondition failed", which prints a minimum n)."""
    data = private_points(tmp_path)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    capsys.readouterr()
    bounds = ("0", "1", "0", "1")
    code = main(
        ["release", "distance", "--data", str(data), "--columns", columns, "--bounds", *bounds,
         "--epsilon", "1", "--delta", "1e-6", "--out", str(tmp_path / "out"), *extra]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2, err
    assert said in err and "minimum n" not in err
    assert reservations(isolated_home) == 0
