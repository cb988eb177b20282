"""``dpgui release distance --public FILE``: the sample is used, never silently dropped.

No distance algorithm reads the sample's values, but the release checks it like every other task's: the
review checks it lies inside the declared box, the private file given as the sample is refused before any
charge, and the manifest names it. A parser that dropped ``--public`` would skip all three unseen.
"""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd

from dpgui.cli import main
from tests.cli.test_distance_queries_file import private_points
from tests.cli.test_preflight import reservations


def release(data, public, out, *extra: str) -> int:
    queries = out.parent / "queries.csv"
    queries.write_text("c0,c1\n0.5,0.5\n0.1,0.9\n")
    return main(
        ["release", "distance", "--data", str(data), "--columns", "c0,c1", "--bounds", "0", "1", "0", "1",
         "--public", str(public), "--algorithm", "laplace-per-query", "--queries", str(queries),
         "--epsilon", "1", "--out", str(out), *extra]
    )  # fmt: skip


def test_a_distance_releases_public_sample_is_reviewed_and_named_in_its_manifest(
    tmp_path, isolated_home, capsys
):
    data = private_points(tmp_path)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    public = tmp_path / "public.csv"
    rng = np.random.default_rng(5)
    pd.DataFrame({"c0": rng.random(50), "c1": 3 + rng.random(50)}).to_csv(public, index=False)
    capsys.readouterr()
    assert release(data, public, tmp_path / "out", "--accept-warnings") == 0
    err = capsys.readouterr().err
    assert "public sample inside the bounds of c1" in err, err  # 100% of c1 lies outside [0, 1]
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["parameters"]["public_sample"]["file_name"] == "public.csv"


def test_the_private_file_as_a_distance_public_sample_is_refused_before_any_charge(
    tmp_path, isolated_home, capsys
):
    data = private_points(tmp_path)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    copy = tmp_path / "public.csv"
    shutil.copyfile(data, copy)
    out = tmp_path / "out"
    code = release(data, copy, out, "--accept-warnings")
    err = capsys.readouterr().err
    assert code == 2, err
    assert "public sample" in err and reservations(isolated_home) == 0 and not any(out.rglob("*"))
