"""A table whose declared domains are too large for the algorithm named by --algorithm is a usage error
(exit 2), as the README says of every grid beyond an algorithm's size: a table audit got exit 4, the code
of a precondition that depends on n or δ."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from dpgui.cli import main

HUGE = {"lower": 0, "upper": 100000, "granularity": 1}
"""100,001 grid points: above the 65,536 cells a synthetic table's column may have."""


@pytest.mark.parametrize("algorithm", ["independent", "aim"])
def test_a_column_too_fine_for_the_named_algorithm_is_a_usage_error(
    algorithm: str, tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, domains = tmp_path / "t.csv", tmp_path / "domains.json"
    pd.DataFrame({"a": [1, 2, 3] * 50, "b": [5, 6, 7] * 50}).to_csv(data, index=False)
    domains.write_text(json.dumps({"a": HUGE, "b": {"lower": 0, "upper": 9, "granularity": 1}}), "utf-8")
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10", "--delta", "1e-5"]) == 0
    code = main(["release", "table", "--data", str(data), "--domains", str(domains), "--epsilon", "1",
                 "--delta", "1e-6", "--algorithm", algorithm, "--out", str(tmp_path / "out")])  # fmt: skip
    assert code == 2
    assert "a synthetic table needs at most 65536 per column" in capsys.readouterr().err
