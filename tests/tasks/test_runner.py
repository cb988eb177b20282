"""The release flow: priced before reading data, charged before results exist, refunds only untouched runs."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.data.aggregate import GridCountsAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.data.public import PublicSample
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetExceeded, Ledger, ReservationStatus
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.runner import PreconditionFailed, RunCancelled, execute, prepare
from dpgui.tasks.simulation import (
    SPREAD_NEIGHBOURS,
    SmoothedPopulation,
    across_shapes,
    expected_error,
    rank_error,
    release_error,
)
from dpgui.tasks.spec import AUTO, TaskKind, TaskSpec


def spec(kind: TaskKind = TaskKind.MEDIAN, epsilon: float = 1.0) -> TaskSpec:
    return TaskSpec(kind, ("wage",), NumericDomain(0, 20000, 1), epsilon)


def ledger_with_total(dataset, epsilon: float) -> tuple[Ledger, str]:
    ledger = Ledger()
    record = ledger.open_dataset(dataset.path, dataset.sha256)
    ledger.set_total(record.id, PrivacyCost(epsilon))
    return ledger, record.id


def test_prepare_prices_and_resolves_auto_without_data():
    prepared = prepare(spec(), n=1000)
    assert prepared.spec.algorithm != AUTO and prepared.cost == PrivacyCost(1.0)
    assert "auto chose" in prepared.auto_reason


def test_auto_names_the_algorithms_it_could_not_run_here():
    """PAP cuts at a public sample's values: without one it is refused, and auto's reason says so."""
    reason = prepare(TaskSpec(TaskKind.CDF, ("wage",), NumericDomain(0, 20000, 20), 1.0), n=28155).auto_reason
    refused = reason.split("; refused here: ")[1]
    assert "pap" in refused and "tree-laplace" not in refused
    assert "simulated on synthetic shapes" in reason  # it could not see the column's shape


def test_auto_on_a_public_sample_does_not_say_it_guessed_the_shape(tmp_path):
    path = tmp_path / "public.csv"
    pd.DataFrame({"wage": np.random.default_rng(1).lognormal(6, 1, 500)}).to_csv(path, index=False)
    spec = TaskSpec(
        TaskKind.CDF, ("wage",), NumericDomain(0, 20000, 20), 1.0, public=PublicSample.from_file(path)
    )
    reason = prepare(spec, n=28155).auto_reason
    assert "simulated mean error" in reason and "synthetic shapes" not in reason


def test_a_public_sample_stands_for_a_population_its_atoms_kept_and_its_single_values_spread():
    """Repeated public values are atoms drawn as they are; each value held once is spread between the
    midpoints to its 10th distinct neighbours, so n >> m draws fill the gaps a plain bootstrap leaves."""
    g = np.random.default_rng(3)
    sample = np.concatenate([np.full(700, 100.0), 100 + g.exponential(3000, 300)])
    drawn = SmoothedPopulation.of(sample, 0.0, 20000.0).draw(200_000, np.random.default_rng(4))
    assert abs(np.mean(drawn == 100.0) - 0.7) < 0.005  # the atom keeps its share, exactly at 100
    tail = np.sort(np.unique(sample[sample > 100]))
    assert np.unique(drawn[drawn != 100.0]).size > 0.9 * np.count_nonzero(drawn != 100.0)  # no value piles up
    k, i = SPREAD_NEIGHBOURS, 150  # a value in the middle of the tail: drawn within its stretch
    low, high = (tail[i - k] + tail[i]) / 2, (tail[i] + tail[i + k]) / 2
    assert np.any((drawn > low) & (drawn < tail[i])) and np.any((drawn > tail[i]) & (drawn < high))
    assert drawn.min() >= 0.0 and drawn.max() <= 20000.0
    gaps = np.diff(np.sort(drawn[(drawn > tail[10]) & (drawn < tail[-10])]))
    assert gaps.max() < np.diff(tail).max() / 10  # the sample's widest gap is filled in


def test_auto_with_a_small_public_sample_picks_privtree_on_a_point_mass_and_a_tail(tmp_path):
    """benchmarks/cdf_accuracy.py's point mass plus tail at 1,024 bins and eps = 1: PrivTree 42 ranks, the
    tree 51. Resampling 2,000 public values plainly made PrivTree look like 66, and auto kept the tree."""
    g = np.random.default_rng(1985)
    values = np.clip(np.concatenate([np.full(1420, 100.0), 100 + g.exponential(3000, 580)]), 0, 20000)
    path = tmp_path / "public.csv"
    pd.DataFrame({"x": values}).to_csv(path, index=False)
    public = PublicSample.from_file(path)
    cdf = TaskSpec(TaskKind.CDF, ("x",), NumericDomain(0, 20000, 20000 / 1024), 1.0, public=public)
    assert prepare(cdf, n=28155).spec.algorithm == "privtree"


def test_auto_does_not_simulate_on_a_public_sample_on_another_scale(tmp_path):
    """The demo's public wages are hourly (1 to 45) and the grid weekly (0 to 4,000): on that grid the sample
    is a few point masses, so auto simulates on the synthetic shapes and its reason says why."""
    path = tmp_path / "hourly.csv"
    pd.DataFrame({"wage": np.random.default_rng(1).lognormal(2.2, 0.5, 500)}).to_csv(path, index=False)
    public = PublicSample.from_file(path)
    weekly = TaskSpec(TaskKind.CDF, ("wage",), NumericDomain(0, 4000, 20), 1.0, public=public)
    reason = prepare(weekly, n=28155).auto_reason
    assert "simulated on synthetic shapes" in reason and "does not describe the declared grid" in reason
    shapes = dataclasses.replace(weekly, public=None)
    for name in ("tree-laplace", "privtree"):
        assert expected_error(weekly.with_algorithm(name), 28155) == expected_error(
            shapes.with_algorithm(name), 28155
        )
    hourly = dataclasses.replace(weekly, domains=(NumericDomain(0, 60, 0.5),))
    assert "synthetic shapes" not in prepare(hourly, n=28155).auto_reason  # on its own scale it is used


def test_every_synthetic_shape_weighs_the_same_in_relative_terms():
    assert across_shapes([2.0, 0.5], floor=1e-9) == pytest.approx(across_shapes([1.0, 1.0], floor=1e-9))
    assert across_shapes([0.0, 4.0], floor=0.25) == pytest.approx(1.0)  # an error of 0 counts as the floor


def test_auto_picks_privtree_where_it_leads_on_most_shapes_by_far():
    """DPBench's 4,096 cells at 1,000 records and eps = 1 (benchmarks/dpbench_1d.md: PrivTree 1.7 times
    better than the tree on both shapes). Averaged plainly, PrivTree's error on the "spiky" shape outweighed
    its lead on the three other shapes and auto kept the tree."""
    cdf = TaskSpec(TaskKind.CDF, ("x",), NumericDomain(0, 4095, 1), 1.0)
    assert prepare(cdf, n=1000).spec.algorithm == "privtree"


def test_auto_simulates_many_records_at_their_own_n():
    """DPBench's 4,096 cells at 10^7 records and eps = 0.1: the tree is 1.1-1.4 times better than PrivTree
    there (benchmarks/dpbench_1d.md), but on 20,000 simulated rows, rescaled, PrivTree looked ahead."""
    cdf = TaskSpec(TaskKind.CDF, ("x",), NumericDomain(0, 4095, 1), 0.1)
    assert prepare(cdf, n=10**7).spec.algorithm == "tree-laplace"


def _fake_estimates(monkeypatch, by_trials: dict[str, dict[int, float]]) -> list[tuple[str, int]]:
    """Auto's simulations replaced: algorithm -> {releases per shape: mean error}; returns the calls."""
    from dpgui.tasks import simulation

    calls: list[tuple[str, int]] = []

    def fake(spec: TaskSpec, n: int, trials: int) -> float | None:
        calls.append((spec.algorithm, trials))
        return by_trials.get(spec.algorithm, {}).get(trials, 1.0)

    monkeypatch.setattr(simulation, "_expected_error", fake)
    monkeypatch.setattr(simulation, "_race_trials", {})
    return calls


QUANTILES_SPEC = TaskSpec(TaskKind.QUANTILES, ("x",), NumericDomain(-100, 100, 0.001), 1.0,
                          parameters=(("q", "0.25,0.5,0.75"),))  # fmt: skip


def test_auto_races_the_close_estimates_and_the_review_shows_the_raced_number(monkeypatch):
    """JointExp's error varies by half its mean from release to release: two releases per shape put it
    first at 29 quantiles where twelve put it 9% behind PrivTree. Within 25% of the best, both are
    simulated again with three times the releases, and the better of those estimates wins."""
    calls = _fake_estimates(
        monkeypatch, {"joint-exp": {2: 0.010, 6: 0.013}, "privtree-quantiles": {2: 0.012, 6: 0.011}}
    )
    prepared = prepare(QUANTILES_SPEC, n=1000)
    assert prepared.spec.algorithm == "privtree-quantiles"
    assert "came close and were simulated again with 3 times the releases" in prepared.auto_reason
    assert sorted(name for name, trials in calls if trials == 6) == ["joint-exp", "privtree-quantiles"]
    assert expected_error(prepared.spec, 1000) == pytest.approx(0.011)  # the number auto ranked it by


def test_a_raced_estimate_of_zero_is_an_estimate(monkeypatch):
    """A race's `refined or first` kept the first estimate when the raced one was 0.0 (falsy)."""
    _fake_estimates(
        monkeypatch, {"joint-exp": {2: 0.010, 6: 0.002}, "privtree-quantiles": {2: 0.012, 6: 0.0}}
    )
    prepared = prepare(QUANTILES_SPEC, n=1000)
    assert prepared.spec.algorithm == "privtree-quantiles"
    assert expected_error(prepared.spec, 1000) == 0.0


def test_auto_does_not_race_a_clear_lead(monkeypatch):
    calls = _fake_estimates(
        monkeypatch, {"joint-exp": {2: 0.010, 6: 0.020}, "privtree-quantiles": {2: 0.0126, 6: 0.005}}
    )
    prepared = prepare(QUANTILES_SPEC, n=1000)
    assert prepared.spec.algorithm == "joint-exp" and "came close" not in prepared.auto_reason
    assert all(trials == 2 for _, trials in calls)


def test_rank_errors_against_hand_counted_data():
    """Records 1.4, 2, 2 and 5 on the grid 0..9: a CDF counts 1.4 at or below 2 (its grid snaps up), and a
    quantile's error is the distance from q n to the released point's rank interval."""
    values = np.array([1.4, 2.0, 2.0, 5.0])
    grid = NumericDomain(0, 9, 1)
    cdf = TaskSpec(TaskKind.CDF, ("x",), grid, 1.0)
    truth = (0.0, 0.0, 0.75, 0.75, 0.75, 1.0, 1.0, 1.0, 1.0, 1.0)
    assert release_error(cdf, ReleaseTable(("value", "cdf"), tuple(enumerate(truth))), values, None) == 0
    short = tuple((v, min(share, 0.75)) for v, share in enumerate(truth))  # 0.75 against 1 from 5 on
    assert release_error(cdf, ReleaseTable(("value", "cdf"), short), values, None) == pytest.approx(0.25)
    quantiles = TaskSpec(TaskKind.QUANTILES, ("x",), grid, 1.0)
    table = ReleaseTable(("q", "value"), ((0.5, 2), (0.25, 5)))  # q n = 2 in [1, 3]; q n = 1 vs [3, 4]
    assert release_error(quantiles, table, values, None) == pytest.approx((0 + 2) / 2 / 4)  # per quantile
    median = TaskSpec(TaskKind.MEDIAN, ("x",), grid, 1.0)
    assert release_error(median, ReleaseTable(("value",), ((0,),)), values, None) == pytest.approx(2 / 4)


@pytest.mark.parametrize(("kind", "algorithm"), [(TaskKind.CDF, "privtree"), (TaskKind.QUANTILES, "aq")])
def test_the_error_from_grid_counts_is_the_error_from_the_rows(kind, algorithm):
    domain = NumericDomain(0, 100, 0.1)
    parameters = (("q", "0.1,0.5,0.9"),) if kind is TaskKind.QUANTILES else ()
    spec = TaskSpec(kind, ("x",), domain, 0.1, algorithm=algorithm, parameters=parameters)
    values = np.random.default_rng(2).lognormal(3, 0.7, 3000)
    counts = np.bincount(spec.domain.to_grid(values).astype(np.intp), minlength=domain.size)
    data = GridCountsAggregator("x", spec.domain, counts)
    table = run_to_end(get_algorithm(algorithm).run(spec, data, SeededRandom(3)))
    held = np.flatnonzero(counts)
    from_counts = rank_error(spec, table, held.astype(np.uint64), counts[held])
    assert from_counts == pytest.approx(release_error(spec, table, values, None)) and from_counts > 0


def test_precondition_refuses_before_any_reservation(wages_csv):
    dataset = open_dataset(wages_csv)
    ledger, dataset_id = ledger_with_total(dataset, 5.0)
    with pytest.raises(PreconditionFailed) as failure:
        run_to_end(execute(spec(TaskKind.INTERIOR_POINT, 0.01), dataset, ledger, SeededRandom(1)))
    assert failure.value.min_n > dataset.n_rows
    assert ledger.entries(dataset_id) == []


def test_release_is_committed_before_it_is_returned(wages_csv):
    dataset = open_dataset(wages_csv)
    ledger, dataset_id = ledger_with_total(dataset, 5.0)
    release = run_to_end(execute(spec(), dataset, ledger, SeededRandom(2)))
    (entry,) = ledger.entries(dataset_id)
    assert entry.status is ReservationStatus.COMMITTED and entry.release_id == release.release_id
    assert release.budget_after.spent.epsilon == pytest.approx(1.0)


def test_cancel_after_touching_data_stays_charged(wages_csv):
    dataset = open_dataset(wages_csv)
    ledger, dataset_id = ledger_with_total(dataset, 5.0)
    with pytest.raises(RunCancelled):
        run_to_end(execute(spec(), dataset, ledger, SeededRandom(3), cancelled=lambda: True))
    (entry,) = ledger.entries(dataset_id)
    assert entry.status is ReservationStatus.COMMITTED
    assert ledger.state(dataset_id).spent.epsilon == pytest.approx(1.0)


def test_failure_before_touching_data_is_refunded(wages_csv):
    dataset = open_dataset(wages_csv)
    ledger, dataset_id = ledger_with_total(dataset, 5.0)
    bad = TaskSpec(TaskKind.MEDIAN, ("no-such-column",), NumericDomain(0, 1, 1), 1.0)
    with pytest.raises(ValueError):
        run_to_end(execute(bad, dataset, ledger, SeededRandom(4)))
    (entry,) = ledger.entries(dataset_id)
    assert entry.status is ReservationStatus.REFUNDED
    assert ledger.state(dataset_id).spent.epsilon == 0


def test_overspend_is_refused(wages_csv):
    dataset = open_dataset(wages_csv)
    ledger, _ = ledger_with_total(dataset, 0.5)
    with pytest.raises(BudgetExceeded):
        run_to_end(execute(spec(), dataset, ledger, SeededRandom(5)))


def test_demo_median_rank_is_within_one_percent_of_n_in_19_of_20_runs():
    """The issue's acceptance check: cps1988 wage on [0, 20000] at eps = 1."""
    import numpy as np

    from dpgui.paths import demo_private_path

    dataset = open_dataset(demo_private_path())
    wages = np.sort(dataset.frame["wage"].to_numpy())
    n = wages.size
    ledger, _ = ledger_with_total(dataset, 20.0)
    rng = SeededRandom(6)
    good = 0
    for _ in range(20):
        value = run_to_end(execute(spec(), dataset, ledger, rng)).table.rows[0][2]
        low_rank, high_rank = np.searchsorted(wages, value, "left"), np.searchsorted(wages, value, "right")
        distance = max(low_rank - n / 2, n / 2 - high_rank, 0)
        good += distance <= 0.01 * n
    assert good >= 19
