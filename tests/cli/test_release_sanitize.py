"""``dpgui release cdf|quantiles|histogram|synthetic``: exit codes and the CSV each writes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from tests.conftest import holds_canary


@pytest.fixture
def budget(wages_csv):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "20", "--delta", "1e-5"]) == 0
    return wages_csv


def release(task: str, data: Path, out: Path, *extra: str) -> int:
    common = ["--data", str(data), "--column", "wage", "--epsilon", "1", "--out", str(out)]
    return main(["release", task, *common, *extra])


def test_cdf_writes_value_cdf_rows_for_every_bin_edge(budget, tmp_path, capsys):
    assert release("cdf", budget, tmp_path / "o", "--bounds", "0", "2000", "--bins", "200") == 0
    table = pd.read_csv(tmp_path / "o" / "release.csv", comment="#")
    assert list(table.columns) == ["value", "cdf"] and len(table) == 201
    assert table["value"].iloc[1] == 10 and table["cdf"].iloc[-1] == 1.0
    assert np.all(np.diff(table["cdf"]) >= 0)
    assert not holds_canary((tmp_path / "o" / "release.csv").read_text())
    assert re.search(
        r"released by [a-z-]+ at ε=1; files: release.csv", capsys.readouterr().out
    )  # auto's pick


def test_cdf_csv_and_manifest_say_the_cdf_is_the_share_at_or_below_each_value(budget, tmp_path):
    assert release("cdf", budget, tmp_path / "o", "--bounds", "0", "2000", "--bins", "200") == 0
    first = (tmp_path / "o" / "release.csv").read_text().splitlines()[0]
    assert first.startswith("# cdf = share of records with wage <= value")
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert manifest["meaning"] == first.removeprefix("# ")


def test_gaussian_cdf_with_delta(budget, tmp_path):
    code = release("cdf", budget, tmp_path / "o", "--bounds", "0", "2000", "--delta", "1e-6",
                   "--algorithm", "tree-gaussian")  # fmt: skip
    assert code == 0 and pd.read_csv(tmp_path / "o" / "release.csv", comment="#")["cdf"].iloc[-1] == 1.0


def test_quantiles_write_q_value_rows(budget, tmp_path):
    assert release("quantiles", budget, tmp_path / "o", "--bounds", "0", "2000", "--q", "0.1,0.5,0.9") == 0
    table = pd.read_csv(tmp_path / "o" / "release.csv", comment="#")
    assert list(table.columns) == ["q", "value"] and table["q"].tolist() == [0.1, 0.5, 0.9]
    assert table["value"].is_monotonic_increasing


def test_bad_quantiles_and_conflicting_grids_are_usage_errors(budget, tmp_path, capsys):
    assert release("quantiles", budget, tmp_path / "o", "--bounds", "0", "9", "--q", "median") == 2
    assert (
        release("cdf", budget, tmp_path / "p", "--bounds", "0", "9", "--bins", "3", "--granularity", "1") == 2
    )
    assert "Traceback" not in capsys.readouterr().err


def test_numeric_and_categorical_histograms(budget, tmp_path):
    assert release("histogram", budget, tmp_path / "n", "--bounds", "0", "2000", "--bins", "4") == 0
    numeric = pd.read_csv(tmp_path / "n" / "release.csv", comment="#")
    assert list(numeric.columns) == ["value", "count"] and numeric["value"].tolist() == [
        0,
        500,
        1000,
        1500,
        2000,
    ]
    code = main(["release", "histogram", "--data", str(budget), "--column", "education", "--categories",
                 "12,16", "--other", "--epsilon", "1", "--out", str(tmp_path / "c")])  # fmt: skip
    assert code == 0
    categorical = pd.read_csv(tmp_path / "c" / "release.csv", dtype={"category": str})
    assert categorical["category"].tolist() == ["12", "16", "other"] and (categorical["count"] >= 0).all()


def test_histogram_without_bounds_or_categories_is_a_usage_error(budget, tmp_path):
    assert release("histogram", budget, tmp_path / "o") == 2


def test_synthetic_writes_the_requested_number_of_records(budget, tmp_path):
    assert release("synthetic", budget, tmp_path / "o", "--bounds", "0", "2000", "--rows", "250") == 0
    table = pd.read_csv(tmp_path / "o" / "release.csv")
    assert list(table.columns) == ["wage"] and len(table) == 250 and table["wage"].between(0, 2000).all()


def test_a_declared_unit_reaches_the_manifest_and_the_report(budget, tmp_path):
    grid = ("--bounds", "0", "2000", "--bins", "200")
    assert release("cdf", budget, tmp_path / "o", *grid, "--unit", "USD") == 0
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert manifest["parameters"]["domains"]["wage"]["unit"] == "USD"
    assert "[0, 2000] USD in steps of 10" in (tmp_path / "o" / "report.html").read_text()


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--bounds", "0", "2000", "--other"], "--other counts undeclared categories: it needs --categories"),
        (["--categories", "12,16", "--unit", "years"], "--unit is the unit of a numeric column's values"),
    ],
)
def test_a_histogram_flag_of_the_other_kind_of_column_is_refused(budget, tmp_path, capsys, extra, message):
    """--other with a numeric grid, or --unit with declared categories, was accepted and dropped."""
    column = ["--column", "education"] if "--categories" in extra else []
    assert release("histogram", budget, tmp_path / "o", *extra, *column) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "o").exists()
