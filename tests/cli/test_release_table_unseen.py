"""Synthetic tables from a file nobody tuned for: missing values in numeric and categorical columns, a
categorical column of 200 values (most undeclared, so "other"), a log-normal numeric column far past its
declared upper bound. Every algorithm runs end to end through the CLI, inside the declared domains, and
keeps the missing values blank (the default) or imputes them."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main

N = 3000
DECLARED_CITIES = [f"c{i:03d}" for i in range(40)]
DOMAINS = {
    "income": {"lower": 0, "upper": 100000, "bins": 40},
    "age": {"lower": 18, "upper": 90, "granularity": 1},
    "city": {"categories": DECLARED_CITIES},
    "sex": {"categories": ["f", "m"]},
}


@pytest.fixture
def unseen(tmp_path: Path) -> Path:
    generator = np.random.default_rng(11)
    age = generator.integers(18, 91, N).astype(float)
    income = np.exp(generator.normal(9.5 + 0.02 * (age - 18), 1.2, N))  # skewed; many above 100,000
    city = np.array([f"c{i:03d}" for i in np.minimum(generator.zipf(1.3, N) - 1, 199)], dtype=object)
    sex = generator.choice(np.array(["f", "m"], dtype=object), N)
    for column, share in ((income, 0.05), (age, 0.03), (city, 0.04), (sex, 0.02)):
        column[generator.random(N) < share] = np.nan
    path = tmp_path / "unseen.csv"
    pd.DataFrame({"sex": sex, "city": city, "income": income, "age": age}).to_csv(path, index=False)
    assert main(["budget", "set", "--data", str(path), "--epsilon", "20", "--delta", "1e-4"]) == 0
    return path


MISSING_SHARES = {"income": 0.05, "age": 0.03, "city": 0.04, "sex": 0.02}


def _release(
    data: Path, tmp_path: Path, algorithm: str, domains: dict = DOMAINS, *flags: str
) -> tuple[int, Path]:
    declared = tmp_path / "domains.json"
    declared.write_text(json.dumps(domains), encoding="utf-8")
    out = tmp_path / algorithm
    delta = "0" if algorithm == "independent" else "1e-6"
    common = ["--data", str(data), "--domains", str(declared), "--epsilon", "2", "--delta", delta]
    return main(["release", "table", *common, "--algorithm", algorithm, "--out", str(out), *flags]), out


@pytest.mark.parametrize("algorithm", ["independent", "mst", "aim"])
def test_an_unseen_table_keeps_its_missing_values_blank_inside_its_declared_domains(
    unseen, tmp_path, capsys, algorithm
):
    code, out = _release(unseen, tmp_path, algorithm)  # --missing keep is a table's default
    assert code == 0, capsys.readouterr().err
    table = pd.read_csv(out / "synthetic.csv")
    assert list(table.columns) == list(DOMAINS) and len(table) == N
    for column, share in MISSING_SHARES.items():  # blanks about as often as in the data (ε = 2, n = 3000),
        assert abs(table[column].isna().mean() - share) <= 0.02, column  # or none if within the noise
    assert table["income"].isna().mean() > 0.03 and table["city"].isna().mean() > 0.02  # over 3 σ: kept
    present = table.dropna()
    assert present["income"].between(0, 100000).all() and present["age"].between(18, 90).all()
    assert (present["age"] % 1 == 0).all()
    assert pd.read_parquet(out / "synthetic.parquet")["age"].dtype == "Int64"  # whole numbers, with blanks
    assert set(present["city"]) <= {*DECLARED_CITIES, "other"} and set(present["sex"]) <= {"f", "m", "other"}
    true = pd.read_csv(unseen)
    undeclared = (true["city"].notna() & ~true["city"].isin(DECLARED_CITIES)).mean()
    assert abs((table["city"] == "other").mean() - undeclared) < 0.1
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["parameters"]["missing_values"].startswith("missing values kept")


def test_imputing_instead_replaces_numbers_and_counts_categories_as_other(unseen, tmp_path, capsys):
    code, out = _release(unseen, tmp_path, "independent", DOMAINS, "--missing", "impute")
    assert code == 0, capsys.readouterr().err
    table = pd.read_csv(out / "synthetic.csv", keep_default_na=False)
    assert table["income"].between(0, 100000).all() and table["age"].dtype.kind == "i"
    true = pd.read_csv(unseen)
    undeclared = (~true["city"].isin(DECLARED_CITIES)).mean()  # missing cities count as "other" too
    assert abs((table["city"] == "other").mean() - undeclared) < 0.1
    manifest = json.loads((out / "manifest.json").read_text())
    missing = manifest["parameters"]["missing_values"]  # per column: numbers imputed, categories "other"
    assert "income: missing values replaced by 0" in missing
    assert "city: missing values counted as 'other'" in missing


def test_a_model_too_large_is_refused_naming_the_largest_columns(unseen, tmp_path, capsys):
    fine = dict(DOMAINS, income={"lower": 0, "upper": 100000, "granularity": 2})
    fine["age"] = {"lower": 18, "upper": 90, "granularity": 0.01}
    fine["city"] = {"categories": [f"c{i:03d}" for i in range(200)]}
    code, out = _release(unseen, tmp_path, "aim", fine)
    err = capsys.readouterr().err
    assert (
        code == 2 and "coarsen the largest columns (income (50001 cells), age (7201 cells), city (201" in err
    )
    assert not out.exists()
