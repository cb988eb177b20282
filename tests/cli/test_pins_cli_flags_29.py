"""Pins found by planting errors in the learning, rectangle, query and fingerprint commands (session 29).

The command-line tests used labels the default reading understands (yes/no), no public sample and no
missing cell, so a command dropping ``--positive``, ``--public`` or ``--missing fail`` passed; the query
tests named their columns in the structure's order; nothing ran ``dpgui fingerprint`` or mapped a tampered
ledger to its exit code.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.cli.errors import EXIT_BUDGET, run_guarded
from dpgui.data.fingerprint import keyed_fingerprint, sha256_file
from dpgui.privacy.ledger_store import LedgerTampered
from tests.cli.test_pins_core_cli_29 import released  # noqa: F401 (a fixture)


@pytest.fixture
def labelled(tmp_path: Path) -> tuple[Path, Path]:
    """A private file whose labels only --positive explains ("in"/"out"), and a public sample of it."""
    gen = np.random.default_rng(4)
    a, b = gen.integers(0, 100, 3000), gen.integers(0, 50, 3000)
    label = np.where((a >= 20) & (a <= 70) & (b >= 10) & (b <= 30), "in", "out")
    frame = pd.DataFrame({"a": a, "b": b, "label": label})
    data, public = tmp_path / "private.csv", tmp_path / "public.csv"
    frame.to_csv(data, index=False)
    frame.head(300).to_csv(public, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "20"]) == 0
    return data, public


def manifest_of(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text(encoding="utf-8"))


def test_threshold_reads_the_positive_label_and_the_public_sample_it_is_given(labelled, tmp_path) -> None:
    data, public = labelled
    out = tmp_path / "out"
    assert main(
        ["release", "threshold", "--data", str(data), "--feature", "a", "--label", "label",
         "--positive", "in", "--bounds", "0", "100", "--epsilon", "1", "--public", str(public),
         "--out", str(out)]
    ) == 0  # fmt: skip
    parameters = manifest_of(out)["parameters"]
    assert parameters["label"] == {"column": "label", "positive": "in"}
    assert parameters["public_sample"]["file_name"] == "public.csv"


def test_rectangle_reads_the_positive_label_and_the_public_sample_it_is_given(labelled, tmp_path) -> None:
    data, public = labelled
    out = tmp_path / "out"
    assert main(
        ["release", "rectangle", "--data", str(data), "--features", "a,b", "--bounds", "0", "99", "0", "49",
         "--label", "label", "--positive", "in", "--epsilon", "3", "--public", str(public),
         "--out", str(out)]
    ) == 0  # fmt: skip
    parameters = manifest_of(out)["parameters"]
    assert parameters["label"] == {"column": "label", "positive": "in"}
    assert parameters["public_sample"]["file_name"] == "public.csv"


def test_threshold_with_missing_fail_refuses_a_missing_feature_cell(tmp_path, capsys) -> None:
    data = tmp_path / "gaps.csv"
    hours = np.arange(400) % 80
    frame = pd.DataFrame({"hours": hours.astype(float), "fulltime": np.where(hours >= 35, "yes", "no")})
    frame.loc[7, "hours"] = np.nan
    frame.to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "5"]) == 0
    code = main(
        ["release", "threshold", "--data", str(data), "--feature", "hours", "--label", "fulltime",
         "--bounds", "0", "100", "--epsilon", "1", "--missing", "fail", "--out", str(tmp_path / "out")]
    )  # fmt: skip
    assert code == 2 and "missing" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_queries_file_is_read_by_column_name_whatever_its_column_order(
    released,  # noqa: F811
    tmp_path: Path,
    capsys,
) -> None:
    queries = tmp_path / "queries.csv"
    queries.write_text("c1,c0\n90,1\n10,8\n", encoding="utf-8")
    assert main(["query", "distance", "--release", str(tmp_path), "--queries", str(queries)]) == 0
    rows = [line.split(",") for line in capsys.readouterr().out.splitlines()[1:]]
    points = np.array([[1.0, 90.0], [8.0, 10.0]])
    assert [[float(row[0]), float(row[1])] for row in rows] == points.tolist()
    assert [float(row[2]) for row in rows] == pytest.approx(released.answer(points).tolist())


def test_fingerprint_prints_the_keyed_fingerprint_never_the_raw_sha256(tmp_path, capsys) -> None:
    path = tmp_path / "data.csv"
    path.write_text("x\n1\n2\n", encoding="utf-8")
    assert main(["fingerprint", str(path)]) == 0
    printed = capsys.readouterr().out.split()
    assert printed == [keyed_fingerprint(sha256_file(path)), "data.csv"]
    assert sha256_file(path) not in printed


def test_a_tampered_ledger_exits_with_the_budget_code(capsys) -> None:
    def tampered() -> int:
        raise LedgerTampered("line 3's hash does not match")

    assert run_guarded(tampered) == EXIT_BUDGET == 3
    assert "the ledger cannot be trusted" in capsys.readouterr().err
