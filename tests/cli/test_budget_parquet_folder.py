"""A Parquet folder, which ``release --data`` accepts, gets its budget from ``dpgui budget`` too."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from dpgui.cli import main


def test_a_parquet_folder_can_be_given_a_budget_and_released_against_it(tmp_path, capsys):
    folder = tmp_path / "parts"
    folder.mkdir()
    values = np.random.default_rng(0).integers(0, 100, 400)
    pd.DataFrame({"x": values[:200]}).to_parquet(folder / "part-0.parquet")
    pd.DataFrame({"x": values[200:]}).to_parquet(folder / "part-1.parquet")

    assert main(["budget", "set", "--data", str(folder), "--epsilon", "5"]) == 0
    code = main(
        ["release", "median", "--data", str(folder), "--column", "x", "--bounds", "0", "100",
         "--epsilon", "1", "--out", str(tmp_path / "out")]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(folder), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["spent"]["epsilon"] == 1.0 and state["total"]["epsilon"] == 5.0
    assert main(["fingerprint", str(folder)]) == 0
