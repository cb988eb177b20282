"""A synthetic table's rows count in the pre-charge memory check.

Rule checked: nothing is charged without a result (privacy rule 5; README: a run predicted to need more
memory than ``--max-memory`` is refused before the ledger reserves anything). The prediction left a table's
synthetic rows out, so ``--rows 10000000 --max-memory 1`` passed the pre-flight; observed under a 2 GB
address-space limit: charged (committed) and then "out of memory", with no file.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from dpgui.cli import main
from dpgui.tasks import runner
from tests.cli.test_preflight import reservations


def test_a_table_whose_rows_exceed_max_memory_is_refused_before_any_charge(
    tmp_path, isolated_home, monkeypatch, capsys
):
    rng = np.random.default_rng(3)
    data = tmp_path / "people.csv"
    pd.DataFrame(
        {
            "age": rng.integers(18, 90, 500),
            "hours": rng.integers(0, 60, 500),
            "region": rng.choice(["north", "south", "east", "west"], 500),
            "sector": rng.choice(["public", "private"], 500),
        }
    ).to_csv(data, index=False)
    domains = tmp_path / "domains.json"
    domains.write_text(
        json.dumps(
            {
                "age": {"lower": 0, "upper": 100, "bins": 20},
                "hours": {"lower": 0, "upper": 80, "bins": 16},
                "region": {"categories": ["north", "south", "east", "west"]},
                "sector": {"categories": ["public", "private"]},
            }
        )
    )
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0

    def must_not_run(*args, **kwargs):
        raise AssertionError("the run started: the pre-flight let a table too large for --max-memory through")

    monkeypatch.setattr(runner, "run_algorithm", must_not_run)
    out = tmp_path / "out"
    code = main(
        [
            "release", "table", "--data", str(data), "--domains", str(domains), "--algorithm",
            "independent", "--rows", "10000000", "--max-memory", "1", "--epsilon", "1", "--out", str(out),
            "--accept-warnings",
        ]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert reservations(isolated_home) == 0, err
    assert code == 2, err
    assert "memory" in err
    assert not out.exists()
