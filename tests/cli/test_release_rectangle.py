"""``dpgui release rectangle``: one box per run, bounds per feature, usage errors as exit 2; TreeLog and
HeavyPaths are offered by ``release interior-point --algorithm``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main


@pytest.fixture
def boxes_csv(tmp_path):
    gen = np.random.default_rng(3)
    a, b = gen.integers(0, 100, 3000), gen.integers(0, 50, 3000)
    label = np.where((a >= 20) & (a <= 70) & (b >= 10) & (b <= 30), "yes", "no")
    path = tmp_path / "boxes.csv"
    pd.DataFrame({"a": a, "b": b, "label": label}).to_csv(path, index=False)
    return path


def release_rectangle(data, out, *bounds: str, features: str = "a,b") -> int:
    return main(
        ["release", "rectangle", "--data", str(data), "--features", features, "--bounds", *bounds,
         "--label", "label", "--positive", "yes", "--epsilon", "3", "--out", str(out)]
    )  # fmt: skip


def test_release_rectangle_writes_a_box_inside_the_target(boxes_csv, tmp_path, capsys) -> None:
    assert main(["budget", "set", "--data", str(boxes_csv), "--epsilon", "5"]) == 0
    assert release_rectangle(boxes_csv, tmp_path / "out", "0", "99", "0", "49") == 0
    table = pd.read_csv(tmp_path / "out" / "release.csv")
    rows = {row.feature: (row.lower, row.upper) for row in table.itertuples()}
    assert 20 <= rows["a"][0] <= rows["a"][1] <= 70 and 10 <= rows["b"][0] <= rows["b"][1] <= 30
    assert "quantile-box" in capsys.readouterr().out


def test_bounds_must_come_in_one_pair_per_feature(boxes_csv, tmp_path, capsys) -> None:
    assert main(["budget", "set", "--data", str(boxes_csv), "--epsilon", "5"]) == 0
    assert release_rectangle(boxes_csv, tmp_path / "out", "0", "99") == 2
    assert "one LO HI pair per column" in capsys.readouterr().err


def test_a_feature_named_twice_is_refused_before_the_charge(boxes_csv, tmp_path, capsys) -> None:
    """CLI fuzz (session 36): ``--features a,a`` spent the box's budget twice on one axis, unannounced."""
    assert main(["budget", "set", "--data", str(boxes_csv), "--epsilon", "5"]) == 0
    code = release_rectangle(boxes_csv, tmp_path / "out", "0", "99", "0", "99", features="a, a")
    assert code == 2 and "each column may appear once; a is repeated" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_interior_point_cli_offers_treelog_and_heavypaths(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["release", "interior-point", "--help"])
    out = capsys.readouterr().out
    assert "treelog" in out and "heavypaths" in out
