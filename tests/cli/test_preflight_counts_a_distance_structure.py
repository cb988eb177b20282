"""A distance release's structure file counts in the free-space check before the charge.

Rule checked: nothing is charged without a result (privacy rule 5). The pre-flight predicted 64 KiB for a
distance release, but distance_structure.json holds every support point of every coordinate: 6.4 MB for
the default l2 release of two columns (1,024 random directions), 8 MB for l1 on three columns at 65,535
bins. On a 6 MiB tmpfs the l1 release was charged and then failed with "No space left on device".
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.release import staging
from tests.cli.test_preflight import reservations


class FourMiBFree:
    """``shutil.disk_usage`` of a disk with 4 MiB free."""

    total = used = 1 << 40
    free = 4 << 20


@pytest.mark.parametrize(
    "extra",
    [
        ["--columns", "x,y", "--bounds", "0", "100", "0", "10", "--metric", "l2"],
        ["--columns", "x,y,z", "--bounds", "0", "100", "0", "10", "0", "16", "--bins", "65535"],
    ],
)
def test_a_distance_structure_too_large_for_the_free_space_is_refused_before_any_charge(
    extra, tmp_path, isolated_home, monkeypatch, capsys
):
    rng = np.random.default_rng(6)
    data = tmp_path / "points.csv"
    pd.DataFrame(
        {"x": rng.uniform(0, 100, 300), "y": rng.uniform(0, 10, 300), "z": rng.uniform(0, 16, 300)}
    ).to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    monkeypatch.setattr(staging.shutil, "disk_usage", lambda _path: FourMiBFree())
    out = tmp_path / "out"
    code = main(
        [
            "release",
            "distance",
            "--data",
            str(data),
            *extra,
            "--epsilon",
            "1",
            "--out",
            str(out),
            "--accept-warnings",
        ]
    )
    err = capsys.readouterr().err
    assert code == 2, err
    assert "MiB free" in err
    assert reservations(isolated_home) == 0
