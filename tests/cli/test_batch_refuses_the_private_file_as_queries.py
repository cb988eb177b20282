"""A release plan cannot name the private file as a distance release's PUBLIC queries file.

Rule checked: no rows in exports (privacy rule 6). A plan's ``parameters = { queries = "..." }`` reaches
the distance release like ``--queries``; the single release refuses a queries file with the private file's
bytes, but ``dpgui release batch`` reserved the plan through its own path and exported every private row
in ``01-<name>/release.csv``.
"""

from __future__ import annotations

import json

from dpgui.cli import main
from tests.cli.test_distance_refuses_the_private_file_as_queries import (
    assert_refused_exporting_no_row,
    private_points,
)


def test_a_plan_naming_the_private_file_as_queries_is_refused_before_any_charge(
    tmp_path, isolated_home, capsys
):
    data = private_points(tmp_path)
    plan = tmp_path / "plan.toml"
    plan.write_text(
        'epsilon = 1.0\n\n[[release]]\nname = "dist"\ntask = "distance"\ncolumns = ["x", "y"]\n'
        'bounds = [0, 100, 0, 10]\ngranularity = [1, 0.1]\nalgorithm = "cdf-route"\n'
        f"parameters = {{ queries = {json.dumps(str(data))} }}\n"
    )
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    out = tmp_path / "out"
    code = main(["release", "batch", str(plan), "--data", str(data), "--out", str(out), "--accept-warnings"])
    assert_refused_exporting_no_row(code, out, isolated_home, capsys)
