"""A plan stopped between two releases, while the next one's budget is composed (the ledger's lock held by
another process for a minute, or Ctrl-C), keeps the release it committed and refunds every one it never
started, the next one included: nothing is charged that did not read the data."""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data import open_dataset
from dpgui.planner.batch import BatchPlan, split_plan
from dpgui.planner.plan_file import load_plan
from dpgui.privacy.ledger import Ledger, LedgerBusy, ReservationStatus
from dpgui.privacy.random import SeededRandom
from dpgui.release.release import Release
from dpgui.tasks.batch_run import NamedRun, execute_batch
from tests.cli.test_batch import PLAN
from tests.jobs.test_release_job import statuses, with_total

COMMITTED, REFUNDED = ReservationStatus.COMMITTED, ReservationStatus.REFUNDED


@pytest.fixture
def batch(tmp_path: Path) -> BatchPlan:
    path = tmp_path / "plan.toml"
    path.write_text(PLAN.replace("delta = 1e-6\n", ""))
    return split_plan(load_plan(path), 2001)


@pytest.mark.parametrize("stop", [LedgerBusy, KeyboardInterrupt])
def test_a_plan_stopped_before_its_second_release_refunds_it(
    wages_csv: Path, batch: BatchPlan, monkeypatch: pytest.MonkeyPatch, stop: type[BaseException]
) -> None:
    ledger = Ledger()
    dataset_id = with_total(ledger, wages_csv, 2.0)
    completed: list[Release] = []
    compose = ledger.state

    def state(*args, **kwargs):
        if len(completed) == 1:  # the first release is committed: the second one's budget is composed
            raise stop("simulated: the lock held by another process, or Ctrl-C")
        return compose(*args, **kwargs)

    monkeypatch.setattr(ledger, "state", state)
    runs = [NamedRun(release.name, release.prepared) for release in batch.releases]
    with pytest.raises(stop):
        run_to_end(execute_batch(runs, open_dataset(wages_csv), ledger, SeededRandom(1), completed=completed))
    assert statuses(Ledger(), dataset_id) == [COMMITTED, REFUNDED]
    assert Ledger().state(dataset_id).spent == batch.releases[0].cost
