"""The synthetic-table planner: each marginal's predicted error is the noise the algorithm really adds
(the scales it requests, observed) turned into an expected TV that matches simulation."""

from __future__ import annotations

import dataclasses
import math
from pathlib import Path

import numpy as np
import pytest

from dpgui.algorithms import marginal_table as mt
from dpgui.algorithms.progress import run_to_end
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.domains_file import read_domains
from dpgui.planner.plan import plan
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.random import SeededRandom
from dpgui.tasks import table_error
from dpgui.tasks.runner import PreconditionFailed, prepare
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import RecordingRandom

DOMAINS = Path(__file__).resolve().parents[2] / "benchmarks" / "cps1988_domains.json"


def _spec(epsilon: float = 1.0, delta: float = 1e-6, way: int = 2, coarse: int = 0) -> TaskSpec:
    columns, domains = read_domains(DOMAINS)
    return TaskSpec(
        kind=TaskKind.TABLE,
        columns=columns,
        domains=domains,
        epsilon=epsilon,
        delta=delta,
        parameters=(("workload", way), ("coarse_bins", coarse)),
    )


@pytest.mark.parametrize(("noise", "scale"), [("discrete Gaussian", 7.5), ("discrete Laplace", 3.0)])
def test_expected_tv_matches_the_tv_of_simulated_noise(noise, scale):
    rng, cells, n = SeededRandom(0), 400, 5000
    draw = rng.discrete_gaussian if noise == "discrete Gaussian" else rng.discrete_laplace
    simulated = np.mean([0.5 * np.abs(draw(scale, cells)).sum() / n for _ in range(50)])
    assert table_error.expected_tv(noise, scale, cells, n) == pytest.approx(simulated, rel=0.03)


def _run(algorithm: str, spec: TaskSpec, rng: RecordingRandom) -> None:
    sizes = [int(d.size) for d in spec.domains]
    generator = np.random.default_rng(1)
    rows = np.stack([generator.integers(0, s, 2000) for s in sizes], axis=1)

    def marginals(cliques):
        return [
            np.bincount(
                np.ravel_multi_index(tuple(rows[:, i] for i in c), tuple(sizes[i] for i in c)),
                minlength=math.prod(sizes[i] for i in c),
            ).reshape(tuple(sizes[i] for i in c))
            for c in cliques
        ]

    rho = zcdp_rho_for(PrivacyCost(spec.epsilon, spec.delta))
    if algorithm == "independent":
        run = mt.independent_table(sizes, marginals, 2000, spec.epsilon, 10, rng)
    elif algorithm == "mst":
        run = mt.mst_table(sizes, marginals, 2000, rho, 10, rng)
    else:
        run = mt.aim_table(sizes, marginals, 2000, rho, 10, rng)
    run_to_end(run)


@pytest.fixture
def small() -> TaskSpec:
    """Three cps1988 columns (wage, education, region): quick to run."""
    spec = _spec()
    keep = (0, 1, 5)
    return TaskSpec(
        kind=TaskKind.TABLE,
        columns=tuple(spec.columns[i] for i in keep),
        domains=tuple(spec.domains[i] for i in keep),
        epsilon=1.0,
        delta=1e-6,
    )


def test_the_planned_scales_are_the_scales_the_algorithms_request(small):
    for algorithm, plans in (
        ("independent", table_error.independent_plans),
        ("mst", table_error.mst_plans),
        ("aim", table_error.aim_plans),
    ):
        rng = RecordingRandom(2)
        _run(algorithm, small, rng)
        requested = rng.scales("laplace") + rng.scales("gaussian")
        planned = plans(small, 2000)
        ones = [p.scale for p in planned if len(p.clique) == 1]
        assert requested[:3] == pytest.approx(ones), algorithm
        pairs = [p.scale for p in planned if len(p.clique) == 2]
        if algorithm != "independent":  # MST's tree pairs; AIM's first round
            assert pairs == pytest.approx([requested[3]] * len(pairs)), algorithm


def test_auto_compares_the_same_marginals_and_prefers_the_joint_model_at_two_way():
    rows = {row.algorithm: row for row in plan(_spec(), 28155)}
    assert rows["aim"].auto and rows["aim"].predicted_error < rows["mst"].predicted_error
    assert rows["independent"].predicted_error > 0.7  # its 21 pairs are never measured jointly
    assert len(rows["aim"].parts) == 7 + 21 and len(rows["independent"].parts) == 7
    one_way = {row.algorithm: row for row in plan(_spec(way=1), 28155)}
    assert one_way["independent"].predicted_error < one_way["aim"].predicted_error  # pure, all on 1-ways


def test_predictions_fall_with_epsilon_and_n():
    for algorithm in ("aim", "mst", "independent"):
        spec = _spec().with_algorithm(algorithm)
        errors = [
            table_error.workload_error(spec, getattr(table_error, f"{algorithm}_plans")(s, n))
            for s, n in ((_spec(0.3), 10_000), (_spec(1.0), 10_000), (_spec(1.0), 50_000))
        ]
        assert errors[0] >= errors[1] >= errors[2], algorithm


def test_aim_reports_each_round_by_name_with_its_noise_and_fit(wages_csv):
    from dpgui.algorithms.marginal_table import AimRound
    from dpgui.data.aggregate import InMemoryAggregator
    from dpgui.data.dataset import open_dataset
    from dpgui.data.domain import declared_grid
    from dpgui.tasks.table import AIM

    spec = TaskSpec(
        kind=TaskKind.TABLE,
        columns=("wage", "education"),
        domains=(declared_grid(0, 3000, bins=30), declared_grid(0, 18, granularity=1)),
        epsilon=1.0,
        delta=1e-6,
        algorithm="aim",
        parameters=(("rows", 50), ("max_rounds", 3)),
    )
    steps = []
    run = AIM.run(spec, InMemoryAggregator(open_dataset(wages_csv)), SeededRandom(3))
    while True:
        try:
            steps.append(next(run))
        except StopIteration:
            break
    rounds = [s for s in steps if isinstance(s.partial, AimRound)]
    assert rounds and [s.partial.round for s in rounds] == list(range(1, len(rounds) + 1))
    for step in rounds:
        assert step.partial.name.startswith(("wage", "education")) and step.partial.name in step.message
        assert f"σ {step.partial.sigma:.3g}" in step.message and 0 <= step.partial.fit <= 1


def test_auto_names_a_reason_every_algorithm_shares_once():
    """A column too fine for any table algorithm fails AIM, MST and independent alike: one sentence."""
    fine = NumericDomain(0, 1_000_000, 1)
    spec = TaskSpec(TaskKind.TABLE, ("income", "sex"), (fine, CategoricalDomain(("f", "m"))), 1.0, 1e-6)
    with pytest.raises(PreconditionFailed) as refused:
        prepare(spec, 1000)
    assert str(refused.value).count("column 'income' has 1000001 cells") == 1


def test_aim_merges_adjacent_cells_of_numeric_columns_only(tmp_path, monkeypatch):
    """The task tells AIM which columns are ordered: a categorical column's declared order means nothing,
    so its cells are never merged into coarse bins (the benchmark passes the same ``ordered_columns``)."""
    import pandas as pd

    from dpgui.data.aggregate import InMemoryAggregator
    from dpgui.data.dataset import open_dataset
    from dpgui.data.domain import declared_grid
    from dpgui.tasks import table

    path = tmp_path / "t.csv"
    g = np.random.default_rng(0)
    rows = 20_000  # enough that no cell is rare (a rare cell would be merged before the rounds)
    jobs = g.choice([f"j{i}" for i in range(40)], rows)
    pd.DataFrame({"job": jobs, "x": g.integers(0, 100, rows)}).to_csv(path, index=False)
    spec = TaskSpec(
        kind=TaskKind.TABLE,
        columns=("job", "x"),
        domains=(CategoricalDomain(tuple(f"j{i}" for i in range(40))), declared_grid(0, 99, granularity=1)),
        epsilon=0.5,
        delta=1e-6,
        algorithm="aim",
        parameters=(("rows", 20), ("max_rounds", 2), ("coarse_bins", 8)),
    )
    offered = []
    real = mt.coarse_candidates

    def spy(closure, sizes, ordered, levels):
        out = real(closure, sizes, ordered, levels)
        offered.extend((bins, sizes[0]) for clique, bins in out if bins is not None)
        return out

    monkeypatch.setattr(mt, "coarse_candidates", spy)
    run_to_end(table.AIM.run(spec, InMemoryAggregator(open_dataset(path)), SeededRandom(1)))
    assert offered and all(bins[0] == job_cells for bins, job_cells in offered)  # job's cells all kept
    assert all(bins[1] == 8 for bins, _ in offered)  # x merged to 8 bins


def test_aim_without_a_time_limit_parameter_ends_its_rounds_by_its_100_seconds(tmp_path, monkeypatch):
    """AIM's time cannot be predicted (a 25-column table ran for over 15 minutes), so a spec without the
    parameter (the app's default, a batch plan's) runs with AIM's default limit, which keeps a table to
    about two minutes (issue 16); 0 still means none."""
    import pandas as pd

    from dpgui.data.aggregate import InMemoryAggregator
    from dpgui.data.dataset import open_dataset
    from dpgui.data.domain import declared_grid
    from dpgui.tasks import table

    path = tmp_path / "t.csv"
    pd.DataFrame({"x": np.arange(200) % 10, "y": np.arange(200) % 7}).to_csv(path, index=False)
    grid = declared_grid(0, 9, granularity=1)
    base = TaskSpec(TaskKind.TABLE, ("x", "y"), (grid, grid), 1.0, 1e-6, algorithm="aim")
    limits = []
    real = mt.aim_table

    def spy(*args, **kwargs):
        limits.append(kwargs["time_limit"])
        return real(*args, **kwargs)

    monkeypatch.setattr(table, "aim_table", spy)
    for parameters in (
        (("rows", 20), ("max_rounds", 1)),
        (("rows", 20), ("max_rounds", 1), ("time_limit", 0)),
    ):
        spec = dataclasses.replace(base, parameters=parameters)
        run_to_end(table.AIM.run(spec, InMemoryAggregator(open_dataset(path)), SeededRandom(1)))
    assert limits == [table.AIM_SECONDS, None] and table.AIM_SECONDS == 100


def test_finish_now_sent_through_the_runner_ends_aim_and_the_release_says_so(tmp_path):
    """The runner and the task pass a sent FINISH_NOW on to AIM: the round after it is the last, and the
    release's note says Finish now made it so (the app's button sends it through the worker)."""
    import pandas as pd

    from dpgui.algorithms.marginal_table import AimRound
    from dpgui.algorithms.progress import FINISH_NOW
    from dpgui.data.dataset import open_dataset
    from dpgui.data.domain import declared_grid
    from dpgui.tasks.runner import run_algorithm

    path = tmp_path / "t.csv"
    g = np.random.default_rng(0)
    frame = pd.DataFrame({c: g.integers(0, 10, 2000) for c in ("a", "b", "c", "d")})
    frame.to_csv(path, index=False)
    grid = declared_grid(0, 9, granularity=1)
    spec = TaskSpec(TaskKind.TABLE, ("a", "b", "c", "d"), (grid,) * 4, 1.0, 1e-6, algorithm="aim")
    run = run_algorithm(prepare(spec, 2000), open_dataset(path), SeededRandom(2), lambda: None)
    rounds = 0

    def finish_after_round_one(step) -> str | None:
        nonlocal rounds
        rounds += isinstance(step.partial, AimRound)
        return FINISH_NOW if rounds == 1 else None

    table = run_to_end(run, finish_after_round_one)
    selected = [row for row in table.rows if row[1] == "selected"]
    assert len(selected) == 1 + 4  # the last round, cut short, measures one marginal per column
    assert any(
        n.endswith(
            "Finish now made round 2 the last, which spent what was left on 4 marginals (the Run page's "
            "rounds 2 to 5)"
        )
        for n in table.notes
    )


def test_aim_predicts_each_pair_at_the_resolution_with_less_error():
    """Where AIM would offer a pair coarsened (too noisy cell by cell), the plan predicts the coarse
    resolution, with less expected TV than the full one: AIM picks the less noisy candidate."""
    spec, n = _spec(coarse=8), 2000
    sizes = table_error.table_sizes(spec)
    pairs = [pair for pair in table_error.aim_plans(spec, n) if len(pair.clique) > 1]
    assert any(pair.bins is not None for pair in pairs), "no pair is predicted coarsened at n = 2000"
    for pair in pairs:
        full = table_error.expected_tv(pair.noise, pair.scale, math.prod(sizes[i] for i in pair.clique), n)
        assert pair.tv < full if pair.bins is not None else pair.tv == full
