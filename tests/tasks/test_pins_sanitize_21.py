"""Pins of dpgui/tasks/sanitize.py found by the t21 mutation scan: what each sanitizer charges and the
largest grid the tree and the histogram accept."""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

import dpgui.tasks.sanitize as sanitize
from dpgui.algorithms.approximate_quantiles import aq_rank_error, em_each_rank_error
from dpgui.algorithms.tie_breaking import refined_size
from dpgui.algorithms.tree_cdf import MAX_TREE_LEAVES, TreeNoise, cdf_error_bound
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import Guarantee, get_algorithm
from dpgui.tasks.sanitize import STEP_ROWS_ABOVE, _cdf_table
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import captured_call

EPSILON, DELTA = 0.7, 3e-7
KINDS = {
    "tree-laplace": TaskKind.CDF,
    "tree-gaussian": TaskKind.CDF,
    "aq": TaskKind.QUANTILES,
    "em-each": TaskKind.QUANTILES,
    "tree-cdf": TaskKind.QUANTILES,
    "geometric": TaskKind.HISTOGRAM,
    "tree-synthetic": TaskKind.SYNTHETIC,
}


def sanitizer(name: str, points: int = 501, delta: float = DELTA, **parameters: object) -> TaskSpec:
    grid = NumericDomain(0, points - 1, 1) if points > 1 else NumericDomain(0, 1, 2)  # one point: 0
    return TaskSpec(
        KINDS[name], ("wage",), (grid,), EPSILON, delta, name, parameters=tuple(parameters.items())
    )


@pytest.mark.parametrize("name", sorted(KINDS))
def test_each_sanitizer_charges_exactly_the_requested_budget(name: str) -> None:
    expected = PrivacyCost(EPSILON, DELTA) if name == "tree-gaussian" else PrivacyCost(EPSILON)
    assert get_algorithm(name).cost(sanitizer(name)) == expected
    assert get_algorithm(name).guarantee is (
        Guarantee.APPROXIMATE if name == "tree-gaussian" else Guarantee.PURE
    )


@pytest.mark.parametrize("name", ["tree-laplace", "tree-gaussian", "tree-cdf", "tree-synthetic", "geometric"])
def test_a_grid_of_exactly_max_tree_leaves_points_is_accepted_and_one_more_refused(name: str) -> None:
    info = get_algorithm(name)
    assert info.preconditions(sanitizer(name, MAX_TREE_LEAVES), 1000) == ()
    (failure,) = info.preconditions(sanitizer(name, MAX_TREE_LEAVES + 1), 1000)
    assert "2^26" in failure.message
    assert info.predicted_error(sanitizer(name, MAX_TREE_LEAVES + 1), 1000) == math.inf


def test_the_gaussian_tree_predicts_no_error_bound_without_delta() -> None:
    info = get_algorithm("tree-gaussian")
    assert info.predicted_error(sanitizer("tree-gaussian", delta=0.0), 1000) == math.inf
    assert info.predicted_error(sanitizer("tree-gaussian"), 1000) < 1


@pytest.mark.parametrize("name", ["tree-laplace", "tree-gaussian", "tree-cdf", "tree-synthetic"])
def test_a_one_point_grid_draws_no_noise_and_records_no_curve(name: str) -> None:
    info = get_algorithm(name)
    assert info.curve(sanitizer(name, 1)) is None
    assert info.curve(sanitizer(name, 2)) is not None


@pytest.mark.parametrize("name", ["tree-laplace", "tree-gaussian", "tree-synthetic", "tree-cdf"])
def test_the_tree_predicts_its_error_at_the_requested_budget_and_beta(name: str) -> None:
    gaussian = name == "tree-gaussian"
    noise, rho = (
        (TreeNoise.GAUSSIAN, zcdp_rho_for(PrivacyCost(EPSILON, DELTA)))
        if gaussian
        else (TreeNoise.LAPLACE, None)
    )
    expected = cdf_error_bound(501, 2000, EPSILON, 0.02, noise=noise, rho=rho, branching=None)
    assert get_algorithm(name).predicted_error(sanitizer(name, beta=0.02), 2000) == expected


def test_a_cdf_of_exactly_step_rows_above_points_lists_every_grid_point() -> None:
    spec = sanitizer("tree-laplace", STEP_ROWS_ABOVE)
    table = _cdf_table(spec, SimpleNamespace(cdf=np.zeros(STEP_ROWS_ABOVE)), ())
    assert len(table.rows) == STEP_ROWS_ABOVE and table.notes == ()


def test_auto_ranks_the_cdf_and_quantile_sanitizers_by_their_simulated_error() -> None:
    calibrated = {name for name in KINDS if get_algorithm(name).calibrated}
    assert calibrated == {"tree-laplace", "tree-gaussian", "aq", "em-each", "tree-cdf"}


@pytest.mark.parametrize(
    ("name", "callee", "grid"),
    [("aq", "approximate_quantiles", refined_size(501)), ("em-each", "em_each_quantiles", 501)],
)
def test_the_quantile_sanitizers_run_at_the_requested_epsilon(
    name, callee, grid, wages_csv, monkeypatch
) -> None:
    """AQ runs on the grid of tie_breaking (ties broken by a jitter), EM-each on the declared one."""
    spec = sanitizer(name, q="0.1,0.5")
    data = InMemoryAggregator(open_dataset(wages_csv))
    run = lambda: get_algorithm(name).run(spec, data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, sanitize, callee, run)
    assert args[2:5] == (grid, (0.1, 0.5), EPSILON)


def test_the_quantile_sanitizers_predict_their_error_at_the_requested_epsilon_and_beta() -> None:
    qs = (0.1, 0.5)
    aq = get_algorithm("aq").predicted_error(sanitizer("aq", q="0.1,0.5", beta=0.02), 2000)
    assert aq == aq_rank_error(refined_size(501), qs, EPSILON, 0.02) / 2000
    for n in (0, 1):  # a rank error over at least one record
        assert get_algorithm("aq").predicted_error(sanitizer("aq", q="0.1,0.5", beta=0.02), n) == aq * 2000
    each = get_algorithm("em-each").predicted_error(sanitizer("em-each", q="0.1,0.5", beta=0.02), 2000)
    assert each == em_each_rank_error(501, 2, EPSILON, 0.02) / 2000


def test_the_histogram_states_its_bound_at_the_requested_epsilon_and_beta(wages_csv, monkeypatch) -> None:
    spec = sanitizer("geometric", beta=0.02)
    data = InMemoryAggregator(open_dataset(wages_csv))
    run = lambda: get_algorithm("geometric").run(spec, data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, sanitize, "histogram_error_bound", run)
    assert args == (501, EPSILON, 0.02)
