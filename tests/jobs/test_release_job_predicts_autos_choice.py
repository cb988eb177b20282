"""The app's release job predicts the memory and work of the algorithm auto chose, as the CLI does.

On a grid of 10^12 points every dense histogram algorithm refuses and auto chooses SanPoints, which never
walks the grid; the job predicted the dense worst case for 'auto' and refused the run ("would need about
... GiB"), though the same run with SanPoints named was accepted.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from PySide6.QtCore import QThreadPool

from dpgui.data import NumericDomain, open_dataset
from dpgui.jobs.release_job import ReleaseJob
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.preflight import PreflightError
from dpgui.tasks.spec import TaskKind, TaskSpec

HUGE = NumericDomain(0, 10**12, 1)


def test_auto_on_a_huge_grid_runs_san_points(qtbot, pool: QThreadPool, tmp_path):
    path = tmp_path / "ids.csv"
    pd.DataFrame({"v": np.repeat([3, 999_999_999_999], 20_000)}).to_csv(path, index=False)
    ledger = Ledger()
    dataset = open_dataset(path)
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(5.0, 1e-3))
    spec = TaskSpec(TaskKind.HISTOGRAM, ("v",), (HUGE,), 1.0, 1e-6)
    job = ReleaseJob(spec, dataset, ledger, SeededRandom(1))
    assert job.prepared.algorithm.name == "san-points"
    with qtbot.waitSignal(job.released, timeout=30000) as released:
        job.start(pool)
    assert set(released.args[0].table.column("value")) <= {3, 999_999_999_999}


def test_a_dense_algorithm_on_it_is_still_refused(tmp_path):
    path = tmp_path / "ids.csv"
    pd.DataFrame({"v": [1, 2, 3]}).to_csv(path, index=False)
    spec = TaskSpec(TaskKind.CDF, ("v",), (NumericDomain(0, 2**25, 1),), 1.0, 0.0, "tree-laplace")
    with pytest.raises(PreflightError, match="GiB"):
        ReleaseJob(spec, open_dataset(path), Ledger(), SeededRandom(1))
