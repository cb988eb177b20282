"""A release whose δ is not below 1/n fails its review: refused before the charge unless accepted.

An audit released a CDF of 300 rows at δ = 0.5: the review said "all checks passed", the ledger charged it
(ε ≈ 3.9 at the total's δ) and the manifest stated a (1, 0.5)-DP guarantee, one that allows handing out a
record outright.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli.main import main
from dpgui.tasks.review import delta_checks


def test_delta_is_checked_against_one_over_n() -> None:
    assert delta_checks(0.0, 300) == ()  # pure DP: nothing to check
    (small,) = delta_checks(1e-6, 300)
    (large,) = delta_checks(0.5, 300)
    (edge,) = delta_checks(1 / 300, 300)
    assert small.passed and not large.passed and not edge.passed
    assert "exposes a record outright" in large.detail and "1/n = 0.00333" in large.detail


def test_a_release_at_delta_one_half_is_refused_before_the_charge(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = tmp_path / "base.csv"
    pd.DataFrame({"x": np.random.default_rng(1).integers(0, 100, 300)}).to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10", "--delta", "1e-5"]) == 0
    release = ["release", "cdf", "--data", str(data), "--column", "x", "--bounds", "0", "100",
               "--epsilon", "1", "--delta", "0.5", "--out", str(tmp_path / "o")]  # fmt: skip
    assert main(release) == 2
    assert "[FAILED] δ below 1/n" in capsys.readouterr().err
    assert main(["budget", "show", "--data", str(data), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == []  # nothing booked
    assert main(["release", "cdf", "--data", str(data), "--column", "x", "--bounds", "0", "100",
                 "--epsilon", "1", "--delta", "1e-6", "--out", str(tmp_path / "p")]) == 0  # fmt: skip
