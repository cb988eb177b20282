"""A synthetic table whose noise pays for more than the ledger charged is never released: the check
recomputes the cost from the noise scales and selection epsilons the algorithm actually used."""

from __future__ import annotations

import pytest

from dpgui.algorithms import marginal_table as mt
from dpgui.algorithms.progress import run_to_end
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import TaskKind, TaskSpec

TWO = (NumericDomain(0, 2000, 100), NumericDomain(0, 18, 1))


def _spec(algorithm: str, delta: float) -> TaskSpec:
    return TaskSpec(TaskKind.TABLE, ("wage", "education"), TWO, 1.0, delta, algorithm)


def _ledger(dataset) -> tuple[Ledger, str]:
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(5.0, 1e-5))
    return ledger, record.id


def _execute(spec: TaskSpec, csv_path) -> None:
    dataset = open_dataset(csv_path)
    run_to_end(execute(spec, dataset, _ledger(dataset)[0], SeededRandom(0)))


@pytest.mark.parametrize(("algorithm", "delta"), [("aim", 1e-6), ("mst", 1e-6), ("independent", 0.0)])
def test_every_table_algorithm_spends_what_it_was_charged(algorithm, delta, wages_csv, monkeypatch):
    checked: list[tuple[float, float]] = []
    real = mt.TableRelease.check_spent_within

    def observed(self, charged):
        checked.append((self.spent_by_noise, charged))
        return real(self, charged)

    monkeypatch.setattr(mt.TableRelease, "check_spent_within", observed)
    _execute(_spec(algorithm, delta), wages_csv)
    ((spent, charged),) = checked
    assert spent == pytest.approx(charged, rel=1e-6) and spent <= charged * (1 + 1e-9)


def test_noise_smaller_than_charged_is_refused_and_the_charge_stays(wages_csv, monkeypatch):
    real = mt.gaussian_sigma
    monkeypatch.setattr(mt, "gaussian_sigma", lambda rho: real(rho) / 1.01)
    dataset = open_dataset(wages_csv)
    ledger, dataset_id = _ledger(dataset)
    with pytest.raises(mt.OverspendError, match="more than the"):
        run_to_end(execute(_spec("mst", 1e-6), dataset, ledger, SeededRandom(0)))
    assert ledger.state(dataset_id).spent.epsilon > 0


def test_the_recomputed_cost_reads_the_scales_not_the_recorded_shares():
    measured = (
        mt.Measured((0,), "discrete Gaussian", 2.0, 0.25),
        mt.Measured((1,), "discrete Gaussian", 4.0, 0.1),
    )
    selected = (mt.Selected((0, 1), 0.4, 0.02),)
    release = mt.TableRelease(None, measured, selected, (0.0, 0.0), mt.Accounting.ZCDP)
    assert release.spent_by_noise == pytest.approx(2 / (2 * 4) + 2 / (2 * 16) + 0.4**2 / 8)
    assert release.total_cost == pytest.approx(0.37)  # the recorded shares say otherwise
    pure = mt.TableRelease(
        None, (mt.Measured((0,), "discrete Laplace", 8.0, 0.5),), (), (0.0,), mt.Accounting.PURE
    )
    assert pure.spent_by_noise == pytest.approx(0.25)
    with pytest.raises(mt.OverspendError):
        pure.check_spent_within(0.2)
    pure.check_spent_within(0.25)
