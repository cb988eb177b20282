"""Pins of dpgui/tasks/interior.py found by the t21 mutation scan: what each algorithm charges, the grid
widths TreeLog accepts, and the parameters the runs hand to their algorithms."""

from __future__ import annotations

import math

import pytest

import dpgui.tasks.interior as interior_module
from dpgui.algorithms.heavypaths import HeavyPathsParameters, heavypaths_min_n
from dpgui.algorithms.learners.ip_threshold import InteriorSolver, IPThresholdParameters
from dpgui.algorithms.rectangles import BoxParameters
from dpgui.algorithms.treelog import MAX_BITS, TreeLogParameters, treelog_min_n
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.interior import _interior_table
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import captured_call

EPSILON, DELTA = 0.7, 3e-7


def labelled(name: str, epsilon: float = EPSILON, delta: float = DELTA, columns: int = 1) -> TaskSpec:
    kind = TaskKind.RECTANGLE if name == "quantile-box" else TaskKind.THRESHOLD
    names = ("a", "b")[:columns]
    grid = (NumericDomain(0, 99, 1),) * columns
    return TaskSpec(kind, names, grid, epsilon, delta, algorithm=name, label="t")


def interior(bits: int, name: str = "treelog") -> TaskSpec:
    grid = NumericDomain(0, 2**bits - 1, 1)
    return TaskSpec(TaskKind.INTERIOR_POINT, ("x",), grid, EPSILON, DELTA, algorithm=name)


@pytest.mark.parametrize(
    ("name", "cost"),
    [
        ("ip-reduction-em", PrivacyCost(EPSILON)),
        ("quantile-box", PrivacyCost(EPSILON)),
        ("ip-reduction-treelog", PrivacyCost(EPSILON, DELTA)),
    ],
)
def test_each_learner_charges_exactly_the_requested_budget(name: str, cost: PrivacyCost) -> None:
    assert get_algorithm(name).cost(labelled(name, columns=2 if name == "quantile-box" else 1)) == cost


@pytest.mark.parametrize("name", ["treelog", "heavypaths"])
def test_the_interior_engines_charge_the_requested_epsilon_and_delta(name: str) -> None:
    assert get_algorithm(name).cost(interior(16, name)) == PrivacyCost(EPSILON, DELTA)


def test_treelog_accepts_a_grid_of_exactly_max_bits_bits() -> None:
    spec = interior(MAX_BITS)
    assert get_algorithm("treelog").predicted_error(spec, 10**9) == treelog_min_n(
        EPSILON, DELTA, 0.05, MAX_BITS
    )
    assert not get_algorithm("treelog").preconditions(spec, 10**12)


@pytest.mark.parametrize("index", [(2**4) - 1, 2**4, 2**4 + 5])
def test_an_index_on_a_padded_leaf_is_released_as_the_grid_top(index: int) -> None:
    spec = TaskSpec(
        TaskKind.INTERIOR_POINT, ("x",), NumericDomain(0, 30, 2), EPSILON, DELTA, algorithm="treelog"
    )
    assert spec.domain.size == 2**4
    ((_, _, value),) = _interior_table(spec, index, "TreeLog").rows
    assert value == 30


@pytest.mark.parametrize(
    ("name", "engine", "parameters"),
    [("treelog", "treelog", TreeLogParameters), ("heavypaths", "heavypaths", HeavyPathsParameters)],
)
def test_the_interior_engines_run_at_the_requested_epsilon_delta_and_beta(
    name, engine, parameters, wages_csv, monkeypatch
) -> None:
    spec = TaskSpec(
        TaskKind.INTERIOR_POINT, ("wage",), NumericDomain(0, 2**16 - 1, 1), EPSILON, DELTA, algorithm=name,
        parameters=(("beta", 0.02),),
    )  # fmt: skip
    data = InMemoryAggregator(open_dataset(wages_csv))
    run = lambda: get_algorithm(name).run(spec, data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, interior_module, engine, run)
    assert args[2] == parameters.build(EPSILON, DELTA, 0.02, 16, 2001)


def test_heavypaths_refuses_below_the_n_required_at_the_requested_budget() -> None:
    need = HeavyPathsParameters.build(EPSILON, DELTA, 0.05, 16, 10).n_required
    info = get_algorithm("heavypaths")
    (failure,) = info.preconditions(interior(16, "heavypaths"), need - 1)
    assert failure.min_n == need
    assert info.preconditions(interior(16, "heavypaths"), need) == ()
    assert info.predicted_error(interior(16, "heavypaths"), 10) == heavypaths_min_n(EPSILON, DELTA, 0.05, 16)


@pytest.mark.parametrize(
    ("name", "solver"),
    [("ip-reduction-em", InteriorSolver.EM), ("ip-reduction-treelog", InteriorSolver.TREELOG)],
)
def test_the_reduction_predicts_its_error_at_the_requested_budget(name: str, solver: InteriorSolver) -> None:
    expected = IPThresholdParameters(10**6, 100, EPSILON, DELTA, 0.05, solver).error_rate
    assert get_algorithm(name).predicted_error(labelled(name), 10**6) == expected < 1


def test_only_the_treelog_reduction_predicts_nothing_without_delta() -> None:
    assert (
        get_algorithm("ip-reduction-treelog").predicted_error(
            labelled("ip-reduction-treelog", delta=0.0), 10**6
        )
        == math.inf
    )
    assert get_algorithm("ip-reduction-em").predicted_error(labelled("ip-reduction-em", delta=0.0), 10**6) < 1


def test_the_quantile_box_predicts_and_runs_at_the_requested_epsilon_and_beta(tmp_path, monkeypatch) -> None:
    spec = TaskSpec(
        TaskKind.RECTANGLE, ("a", "b"), (NumericDomain(0, 99, 1),) * 2, EPSILON, algorithm="quantile-box",
        label="t", parameters=(("beta", 0.02),),
    )  # fmt: skip
    expected = BoxParameters(4000, (100, 100), EPSILON, 0.02)
    assert get_algorithm("quantile-box").predicted_error(spec, 4000) == expected.error_rate
    assert BoxParameters(10, (100, 100), EPSILON, 0.02).error_rate == 1  # guarantees nothing: refused
    (failure,) = get_algorithm("quantile-box").preconditions(spec, 10)
    assert failure.min_n > 10 and (failure.min_n // 10).bit_count() == 1  # n doubled until it guarantees
    path = tmp_path / "box.csv"
    path.write_text("a,b,t\n" + "".join(f"{i % 100},{i % 37},{i % 2}\n" for i in range(4000)))
    data = InMemoryAggregator(open_dataset(path))
    run = lambda: get_algorithm("quantile-box").run(spec, data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, interior_module, "quantile_box", run)
    assert args[1] == expected
