"""A CDF whose upper bound is not a grid point says what its last row counts.

Observed: ``dpgui release cdf --bounds 0 100 --granularity 30`` on records 10, 95, 95, 95 released the row
``90,1.0`` under the header "cdf = share of records with v <= value, at every released value": false, as
three records are above 90. The grid ends at 90, and values above its last point have no grid point above
them, so they count at it (the default grid does the same: bounds 0 to 1e9+3 end at 1e9). The row is the
share of records <= the upper bound; the sentence now says so. The counts themselves are unchanged.
"""

from __future__ import annotations

import pandas as pd

from dpgui.cli import main
from dpgui.data.domain import NumericDomain
from dpgui.tasks.outputs import cdf_meaning


def test_the_sentence_names_the_last_grid_point_and_the_upper_bound():
    off = cdf_meaning("v", NumericDomain(0, 100, 30))
    assert "the upper bound 100 is not a grid point" in off and "last grid point 90" in off
    assert "share of records with v <= 100" in off
    on = cdf_meaning("v", NumericDomain(0, 90, 30))
    assert on == cdf_meaning("v") and "not a grid point" not in on
    assert "not a grid point" not in cdf_meaning("v", NumericDomain(0, 100, 100 / 7))  # --bins 7


def test_release_csv_states_it(tmp_path, isolated_home, capsys):
    data = tmp_path / "v.csv"
    pd.DataFrame({"v": [10, 95, 95, 95] * 50}).to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    out = tmp_path / "out"
    code = main(
        [
            "release", "cdf", "--data", str(data), "--column", "v", "--bounds", "0", "100", "--granularity",
            "30", "--algorithm", "tree-laplace", "--epsilon", "5", "--accept-warnings", "--out", str(out),
        ]
    )  # fmt: skip
    assert code == 0, capsys.readouterr().err
    header = (out / "release.csv").read_text(encoding="utf-8").splitlines()[0]
    assert "its row is the share of records with v <= 100" in header
