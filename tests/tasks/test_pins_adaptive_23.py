"""Pins of the adaptive tasks (``dpgui/tasks/adaptive.py``): what each engine is asked for (the spec's
epsilon, its budget share and branching, the data's histogram and count), JointExp's refusal of a dynamic
program too large, and the PrivTree and DAWA a-priori bounds term by term."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from dpgui.algorithms.dawa import bucket_bias_bound, bucket_penalty, typical_buckets
from dpgui.algorithms.privtree import PrivTreeParameters
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.tie_breaking import refinement
from dpgui.algorithms.tree_cdf import cdf_error_bound
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from dpgui.tasks import adaptive
from dpgui.tasks.registry import Guarantee, get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import captured_call

GRID = NumericDomain(0, 4000, 10)
ENGINES = {"privtree": ("privtree_cdf", "tree_share"), "dawa": ("dawa_cdf", "partition_share")}


def _spec(
    kind: TaskKind, algorithm: str, epsilon: float = 0.7, domain=GRID, **parameters: object
) -> TaskSpec:
    return TaskSpec(kind, ("wage",), (domain,), epsilon, 0.0, algorithm, parameters=tuple(parameters.items()))


def _asked(monkeypatch, wages_csv, spec: TaskSpec, engine: str) -> tuple[tuple, dict, InMemoryAggregator]:
    data = InMemoryAggregator(open_dataset(wages_csv))
    info = get_algorithm(spec.algorithm)
    args, kwargs = captured_call(monkeypatch, adaptive, engine, lambda: info.run(spec, data, None))
    return args, kwargs, data


@pytest.mark.parametrize("family", ENGINES)
@pytest.mark.parametrize("suffix", ["", "-histogram", "-synthetic", "-quantiles"])
def test_each_engine_runs_at_the_specs_epsilon_share_and_branching(monkeypatch, wages_csv, family, suffix):
    """The engine gets the whole epsilon of the spec (its own split is the share), the share and the
    branching the user set, and the column's histogram with the data's row count."""
    engine, share = ENGINES[family]
    kind = get_algorithm(family + suffix).task
    spec = _spec(kind, family + suffix, **{share: 0.3, "branching": 4, "rows": 5, "q": "0.5"})
    args, kwargs, data = _asked(monkeypatch, wages_csv, spec, engine)
    histogram, n, epsilon = args[:3]
    assert np.array_equal(histogram, data.histogram("wage", spec.domain, spec.missing))
    assert n == data.count() and epsilon == 0.7
    assert kwargs[share] == 0.3 and kwargs["branching"] == 4


@pytest.mark.parametrize("family", ENGINES)
def test_the_engines_default_share_and_automatic_branching(monkeypatch, wages_csv, family):
    """Without parameters the engine gets the paper's share (the ParameterSpec default) and no branching
    (None: the bucket tree picks its own)."""
    engine, share = ENGINES[family]
    _, kwargs, _ = _asked(monkeypatch, wages_csv, _spec(TaskKind.CDF, family), engine)
    default = {"privtree": adaptive.PRIVTREE_SHARE, "dawa": adaptive.DAWA_SHARE}[family].default
    assert kwargs[share] == default and kwargs["branching"] is None


def test_joint_exp_runs_on_the_columns_records_with_ties_broken_at_the_specs_epsilon(monkeypatch, wages_csv):
    """JointExp is given the column's records on the grid K times finer (each in its own grid point's
    block, ties broken by tie_breaking's jitter), that grid's size, the requested quantiles and the whole
    epsilon."""
    spec = _spec(TaskKind.QUANTILES, "joint-exp", q="0.25,0.75")
    data = InMemoryAggregator(open_dataset(wages_csv))
    run = lambda: get_algorithm("joint-exp").run(spec, data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, adaptive, "joint_exp_quantiles", run)
    values, counts = data.sorted_distinct_counts("wage", spec.domain, spec.missing)
    k = refinement(GRID.size)
    assert np.array_equal(np.repeat(args[0] // np.uint64(k), args[1]), np.repeat(values, counts))
    assert args[2:5] == (GRID.size * k, (0.25, 0.75), 0.7)


def test_joint_exp_refuses_a_dynamic_program_too_large_and_names_aq():
    """Too many records and quantiles for JointExp's dynamic program: refused with a reason naming aq, and
    no bound is stated; a small one is accepted."""
    info = get_algorithm("joint-exp")
    wide = _spec(TaskKind.QUANTILES, "joint-exp", domain=NumericDomain(0, 10**6, 1), q="0.1,0.2,0.3,0.4,0.5")
    failures = info.preconditions(wide, 10**6)
    assert len(failures) == 1 and "aq (approximate quantiles)" in failures[0].message
    assert "5 quantiles of 1000000 records" in failures[0].message
    assert info.predicted_error(wide, 10**6) == math.inf
    assert info.preconditions(_spec(TaskKind.QUANTILES, "joint-exp", q="0.5"), 100) == ()


def test_privtree_bound_is_leaf_count_plus_tree_bound():
    """PrivTree's bound (module doc): a leaf's count theta + depth * delta + lambda ln(4N/beta) over n,
    plus the count tree's bound at (1 - share) * eps and beta/2 with the spec's branching."""
    beta, n, eps, share = 0.05, 50_000, 2.0, 0.4
    spec = _spec(TaskKind.CDF, "privtree", epsilon=eps, beta=beta, tree_share=share, branching=4)
    leaves = GRID.size
    params = PrivTreeParameters.for_epsilon(share * eps)
    leaf = (
        params.theta
        + math.ceil(math.log2(leaves)) * params.delta
        + params.scale * math.log(4 * leaves / beta)
    )
    counts = cdf_error_bound(leaves, n, (1 - share) * eps, beta / 2, branching=4)
    assert adaptive.privtree_error_bound(spec, n) == pytest.approx(leaf / n + counts, rel=1e-12)


def test_dawa_bound_is_bucket_bias_plus_tree_bound():
    """DAWA's bound: the bucket bias bound at share * eps (penalty from the counts' epsilon) and beta/2
    over n, plus the count tree's bound at (1 - share) * eps and beta/2 with the spec's branching."""
    beta, n, eps, share = 0.05, 50_000, 2.0, 0.4
    spec = _spec(TaskKind.CDF, "dawa", epsilon=eps, beta=beta, partition_share=share, branching=4)
    leaves, counts_eps = GRID.size, (1 - share) * eps
    bias = bucket_bias_bound(
        leaves, share * eps, bucket_penalty(typical_buckets(leaves), counts_eps), beta / 2
    )
    counts = cdf_error_bound(leaves, n, counts_eps, beta / 2, branching=4)
    assert adaptive.dawa_error_bound(spec, n) == pytest.approx(bias / n + counts, rel=1e-12)


@pytest.mark.parametrize("name", ["privtree", "dawa"])
def test_the_bounds_of_an_empty_table_count_one_record(name):
    """With n = 0 the bound divides by one record (max(n, 1)), not by zero: the same as at n = 1, about
    twice that at n = 2 (at epsilon 10^4, where it is below its cap of 1), and 1 at epsilon 1."""
    assert get_algorithm(name).predicted_error(_spec(TaskKind.CDF, name), 0) == 1.0
    bound = get_algorithm(name).predicted_error
    large = _spec(TaskKind.CDF, name, epsilon=1e4)
    assert bound(large, 0) == bound(large, 1) < 0.5
    assert bound(large, 0) > 1.9 * bound(large, 2)


def test_joint_exp_refuses_a_categorical_column_or_unreadable_quantiles_before_a_run():
    """JointExp needs a numeric grid and readable quantiles: each is a refusal (not an error, not a run)."""
    info = get_algorithm("joint-exp")
    categorical = _spec(TaskKind.QUANTILES, "joint-exp", domain=CategoricalDomain(("a", "b")), q="0.5")
    assert info.preconditions(categorical, 100) != ()
    assert info.preconditions(_spec(TaskKind.QUANTILES, "joint-exp", q="half"), 100) != ()


SMALL = NumericDomain(0, 30, 10)
"""Four grid points: 0, 10, 20, 30."""


def _released_table(monkeypatch, wages_csv, algorithm: str, cdf: list[float], **parameters: object):
    """The task's table when the engine releases ``cdf`` over SMALL (a stand-in for its noisy run)."""
    release = SimpleNamespace(
        cdf=np.array(cdf),
        starts=np.array([0, 2]),
        bucket_tree=SimpleNamespace(shape=SimpleNamespace(branching=2)),
    )

    def engine(*args, **kwargs):
        return release
        yield  # a generator, as the engines are

    monkeypatch.setattr(adaptive, "privtree_cdf", engine)
    info = get_algorithm(algorithm)
    spec = TaskSpec(info.task, ("wage",), (SMALL,), 1.0, 0.0, algorithm, parameters=tuple(parameters.items()))
    data = InMemoryAggregator(open_dataset(wages_csv))
    return run_to_end(info.run(spec, data, SeededRandom(0))), data.count()


def test_the_histogram_is_the_released_cdfs_steps_times_n(monkeypatch, wages_csv):
    """Counts are the CDF's differences (from 0) times the row count: fractional, summing to n."""
    released, n = _released_table(monkeypatch, wages_csv, "privtree-histogram", [0.25, 0.5, 0.5, 1.0])
    assert released.columns == ("value", "count")
    assert released.column("count") == pytest.approx([0.25 * n, 0.25 * n, 0.0, 0.5 * n])
    assert released.column("value") == [0, 10, 20, 30]


def test_synthetic_records_are_drawn_from_the_released_cdf_under_the_columns_name(monkeypatch, wages_csv):
    """``rows`` records of the spec's column, all at 20 when the released CDF puts all its mass there."""
    released, _ = _released_table(monkeypatch, wages_csv, "privtree-synthetic", [0.0, 0.0, 1.0, 1.0], rows=7)
    assert released.columns == ("wage",) and released.rows == ((20,),) * 7
    assert released.notes[-1] == "7 records drawn from the released CDF (post-processing)"


def test_the_adaptive_algorithms_are_pure_and_calibrated_where_a_simulation_ranks_them():
    """Every member is pure epsilon-DP, charged epsilon alone; the CDF and quantile members (and JointExp)
    are ranked by simulation, the histogram and synthetic records by their bound."""
    for family in ENGINES:
        for suffix, calibrated in (
            ("", True),
            ("-histogram", False),
            ("-synthetic", False),
            ("-quantiles", True),
        ):
            info = get_algorithm(family + suffix)
            assert info.guarantee is Guarantee.PURE and info.calibrated is calibrated
    joint = get_algorithm("joint-exp")
    assert joint.guarantee is Guarantee.PURE and joint.calibrated
    assert joint.cost(_spec(TaskKind.QUANTILES, "joint-exp")) == PrivacyCost(0.7)


def test_the_budget_shares_stay_strictly_inside_zero_and_one():
    """The engines refuse a share of 0 or 1 (and beyond) only when they run: the parameters' ranges keep
    the user to [0.05, 0.95] before any charge."""
    for share in (adaptive.PRIVTREE_SHARE, adaptive.DAWA_SHARE):
        assert (share.minimum, share.maximum) == (0.05, 0.95)


def test_joint_exps_bound_of_an_empty_table_counts_one_record():
    """At n = 0 JointExp's rank bound is its misses over one record: n = 1000 times its bound there."""
    bound = get_algorithm("joint-exp").predicted_error
    spec = _spec(TaskKind.QUANTILES, "joint-exp", q="0.5")
    assert bound(spec, 0) == pytest.approx(1000 * bound(spec, 1000), rel=1e-12)
