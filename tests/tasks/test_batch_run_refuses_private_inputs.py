"""A plan run refuses, before its charge, a release whose public sample is the private file.

The command line's review refuses it earlier (``review_gate``), but the app's plan job reserves through
``execute_batch`` alone: its ``reserve_plan`` is the only check on that path. Without it the plan was
booked and run with the private data read as public (privacy rule 3).
"""

from __future__ import annotations

import pytest

from dpgui.data.checks import DataError
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.public import PublicSample
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.batch_run import NamedRun, execute_batch
from dpgui.tasks.runner import prepare
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.cli.test_preflight import reservations


def test_a_plan_with_the_private_file_as_a_public_sample_is_refused_before_any_charge(
    wages_csv, isolated_home
):
    dataset = open_dataset(wages_csv)
    ledger = Ledger()
    ledger.set_total(ledger.open_dataset(dataset.path, dataset.sha256).id, PrivacyCost(5.0))
    spec = TaskSpec(
        TaskKind.CDF, ("wage",), (NumericDomain(0, 20_000, 20),), 1.0, algorithm="pap",
        public=PublicSample.from_file(wages_csv),
    )  # fmt: skip
    runs = [NamedRun("wage cdf", prepare(spec, dataset.n_rows))]
    with pytest.raises(DataError, match="public sample"):
        next(execute_batch(runs, dataset, ledger, SeededRandom(0)))
    assert reservations(isolated_home) == 0
