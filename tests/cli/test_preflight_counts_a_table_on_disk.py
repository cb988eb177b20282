"""A synthetic table's rows count in the free-space check before the charge.

Rule checked: nothing is charged without a result (privacy rule 5; README: the output folder is "refused
when it ... has too little free space", before the ledger reserves anything). The pre-flight predicted 64
KiB for every table release whatever its ``--rows``, so a disk with a few MiB free passed the check and the
run was charged, then failed writing synthetic.csv (observed on a 1.5 MiB tmpfs: "No space left on
device", the commit line saying no files were written).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd

from dpgui.cli import main
from dpgui.release import staging
from tests.cli.test_preflight import reservations


class TwoMiBFree:
    """``shutil.disk_usage`` of a disk with 2 MiB free."""

    total = used = 1 << 40
    free = 2 << 20


def test_a_table_too_large_for_the_free_space_is_refused_before_any_charge(
    tmp_path, isolated_home, monkeypatch, capsys
):
    rng = np.random.default_rng(3)
    data = tmp_path / "people.csv"
    pd.DataFrame(
        {"age": rng.integers(18, 90, 500), "region": rng.choice(["north", "south", "east", "west"], 500)}
    ).to_csv(data, index=False)
    domains = tmp_path / "domains.json"
    domains.write_text(
        json.dumps(
            {
                "age": {"lower": 0, "upper": 100, "bins": 20},
                "region": {"categories": ["north", "south", "east", "west"]},
            }
        )
    )
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    monkeypatch.setattr(staging.shutil, "disk_usage", lambda _path: TwoMiBFree())
    out = tmp_path / "out"
    code = main(
        [
            "release", "table", "--data", str(data), "--domains", str(domains), "--algorithm",
            "independent", "--rows", "1000000", "--epsilon", "1", "--out", str(out), "--accept-warnings",
        ]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2, err
    assert "MiB free" in err
    assert reservations(isolated_home) == 0
    assert not out.exists()
