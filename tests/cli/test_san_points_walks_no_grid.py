"""SanPoints (and k-POINT) release the frequent values of a huge domain without walking its grid.

Rule checked: the pre-charge memory, work and disk predictions describe the run that happens. SanPoints'
registry entry says it "never enumerates the domain (up to 2^64 points, or undeclared ranges)", but the
prediction counted every histogram's grid as dense: on bounds 0 to 10^12 at step 1 the CLI refused it
("would need about 316650 GiB of memory"), and with the limits raised, the disk check asked for 76 TB, so
the one histogram algorithm meant for huge domains could not run on one. Chosen by auto too (the dense
algorithms refuse more than 2^26 cells), the prediction must be of auto's choice.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.cli import main
from dpgui.data.domain import NumericDomain
from dpgui.tasks.preflight import estimate
from dpgui.tasks.spec import TaskKind, TaskSpec

HUGE = NumericDomain(0, 10**12, 1)


def histogram(algorithm: str) -> TaskSpec:
    return TaskSpec(TaskKind.HISTOGRAM, ("v",), (HUGE,), 1.0, 1e-6, algorithm)


@pytest.mark.parametrize("algorithm", ["san-points", "k-point"])
def test_the_estimate_of_a_sparse_algorithm_does_not_scale_with_the_grid(algorithm: str) -> None:
    predicted = estimate(histogram(algorithm), 10_000)
    assert predicted.grid_points == 0
    assert predicted.memory < 1 << 30
    assert predicted.output_bytes < 10 << 20


def test_a_dense_histogram_still_scales_with_its_grid() -> None:
    assert estimate(histogram("geometric"), 10_000).grid_points == HUGE.size


@pytest.mark.parametrize("algorithm", ["san-points", "auto"])
def test_san_points_runs_on_a_grid_of_a_trillion_points(tmp_path, isolated_home, capsys, algorithm) -> None:
    data = tmp_path / "ids.csv"
    pd.DataFrame({"v": np.repeat([3, 7_000_000_000, 999_999_999_999], 20_000)}).to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10", "--delta", "1e-3"]) == 0
    out = tmp_path / "out"
    code = main(
        [
            "release", "histogram", "--data", str(data), "--column", "v", "--bounds", "0", "1e12",
            "--granularity", "1", "--epsilon", "1", "--delta", "1e-6", "--algorithm", algorithm,
            "--accept-warnings", "--out", str(out),
        ]
    )  # fmt: skip
    err = capsys.readouterr().err
    assert code == 0, err
    released = pd.read_csv(out / "release.csv", comment="#")
    assert set(released["value"]) <= {3, 7_000_000_000, 999_999_999_999}
