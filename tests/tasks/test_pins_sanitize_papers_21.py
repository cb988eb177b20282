"""Pins of dpgui/tasks/sanitize_papers.py found by the t21 mutation scan: the SanThresholds and SanPoints
plans are built at the requested (epsilon, delta, alpha), their curves record discrete Laplace counts at
the plan's scale, the nominal price of a refused delta = 0 request, and where a CDF table stops listing
every grid point."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import dpgui.tasks.sanitize_papers as sanitize_papers
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.san_points import k_point_plan
from dpgui.algorithms.san_thresholds import SanThresholdsPlan
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.public import PublicSample
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.curve import DpSteps, NoiseKind, NoiseRounds
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.registry import get_algorithm
from dpgui.tasks.sanitize import STEP_ROWS_ABOVE
from dpgui.tasks.sanitize_papers import _cdf_table
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import captured_call

EPSILON, DELTA, ALPHA = 0.7, 3e-7, 0.4


def sanitizer(name: str, delta: float = DELTA, domain: NumericDomain | None = None, **parameters) -> TaskSpec:
    kind = TaskKind.CDF if name in ("san-thresholds", "pap") else TaskKind.HISTOGRAM
    parameters = {"alpha": ALPHA, **parameters}
    grid = domain or NumericDomain(0, 5000, 10)
    return TaskSpec(kind, ("wage",), (grid,), EPSILON, delta, name, parameters=tuple(parameters.items()))


def test_san_thresholds_charges_and_records_the_plan_of_the_requested_budget() -> None:
    plan = SanThresholdsPlan.for_target(EPSILON, DELTA, ALPHA)
    info = get_algorithm("san-thresholds")
    assert info.cost(sanitizer("san-thresholds")) == plan.cost
    curve = info.curve(sanitizer("san-thresholds"))
    assert curve.noise == (
        NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 1 / plan.mechanism_epsilon, 1, 2 * plan.cap),
    )
    choosing = DpSteps(PrivacyCost(plan.choosing.epsilon, plan.choosing.delta), plan.cap)
    assert curve.steps == (DpSteps(PrivacyCost(plan.mechanism_epsilon), plan.cap), choosing)


@pytest.mark.parametrize(("name", "k"), [("san-points", 1), ("k-point", 3)])
def test_san_points_charges_and_records_the_plan_of_the_requested_budget(name: str, k: int) -> None:
    plan = k_point_plan(EPSILON, DELTA, ALPHA, k)
    spec = sanitizer(name, k=k)
    info = get_algorithm(name)
    assert info.cost(spec) == plan.cost
    curve = info.curve(spec)
    assert curve.noise == (
        NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 1 / plan.mechanism_epsilon, 1, plan.iterations),
    )
    choosing = DpSteps(PrivacyCost(plan.choosing.epsilon, plan.choosing.delta), plan.iterations)
    assert curve.steps == (choosing,)
    assert info.predicted_error(sanitizer(name, k=k, beta=0.02), 10**7) == plan.predicted_error(10**7, 0.02)


@pytest.mark.parametrize("name", ["san-thresholds", "san-points", "k-point"])
def test_a_delta_zero_request_is_priced_at_its_epsilon_and_has_no_curve(name: str) -> None:
    info = get_algorithm(name)
    assert info.cost(sanitizer(name, delta=0.0)) == PrivacyCost(EPSILON)
    assert info.curve(sanitizer(name, delta=0.0)) is None
    assert info.predicted_error(sanitizer(name, delta=0.0), 10**7) == 1.0


def test_a_grid_of_exactly_step_rows_above_points_lists_every_grid_point() -> None:
    spec = sanitizer("san-thresholds", domain=NumericDomain(0, STEP_ROWS_ABOVE - 1, 1))
    table = _cdf_table(spec, lambda grid: np.zeros(grid.size), np.array([0, 7]), ())
    assert len(table.rows) == STEP_ROWS_ABOVE and table.notes == ()
    wider = sanitizer("san-thresholds", domain=NumericDomain(0, STEP_ROWS_ABOVE, 1))
    assert len(_cdf_table(wider, lambda grid: np.zeros(grid.size), np.array([0, 7]), ()).rows) == 2


def test_san_thresholds_certifies_alpha_once_n_meets_its_sufficient_condition() -> None:
    spec = sanitizer("san-thresholds")
    need = SanThresholdsPlan.for_target(EPSILON, DELTA, ALPHA).min_n_for_guarantee(spec.domain.size, 0.05)
    info = get_algorithm("san-thresholds")
    assert info.predicted_error(spec, need) == ALPHA
    assert info.predicted_error(spec, need - 1) == 1.0
    assert info.predicted_error(sanitizer("san-thresholds", delta=0.0), need) == 1.0  # refused: trivial


def test_san_thresholds_states_the_n_its_guarantee_needs_at_the_requested_beta(wages_csv) -> None:
    spec = sanitizer("san-thresholds", beta=0.02)
    need = SanThresholdsPlan.for_target(EPSILON, DELTA, ALPHA).min_n_for_guarantee(spec.domain.size, 0.02)
    table = run_to_end(
        get_algorithm("san-thresholds").run(
            spec, InMemoryAggregator(open_dataset(wages_csv)), SeededRandom(0)
        )
    )
    assert any(f"needs n >= {need:,};" in note for note in table.notes)


def pap(tmp_path, wages: str, **parameters: object) -> TaskSpec:
    path = tmp_path / "public.csv"
    path.write_text(f"wage,other\n{wages},1\n")
    return dataclasses.replace(sanitizer("pap", delta=0.0, **parameters), public=PublicSample.from_file(path))


def test_pap_charges_exactly_the_requested_epsilon(tmp_path) -> None:
    assert get_algorithm("pap").cost(pap(tmp_path, "100")) == PrivacyCost(EPSILON)


@pytest.mark.parametrize(("wages", "refused"), [("100", False), ("", True)])
def test_pap_runs_on_a_public_sample_of_a_single_value_and_refuses_an_empty_one(tmp_path, wages, refused):
    assert bool(get_algorithm("pap").preconditions(pap(tmp_path, wages), 2000)) is refused


def test_pap_refuses_a_categorical_column(tmp_path) -> None:
    categorical = dataclasses.replace(pap(tmp_path, "100"), domains=(CategoricalDomain(("a",)),))
    (failure,) = get_algorithm("pap").preconditions(categorical, 2000)
    assert "numeric domain" in failure.message


def test_pap_predicts_its_error_at_the_requested_epsilon_and_beta(tmp_path, monkeypatch) -> None:
    spec = pap(tmp_path, "100", beta=0.02)
    predicted = lambda: get_algorithm("pap").predicted_error(spec, 2000)  # noqa: E731
    args, _ = captured_call(monkeypatch, sanitize_papers, "predicted_error", predicted)
    assert args[0] == 2000 and args[4:] == (EPSILON, 0.02)


@pytest.mark.parametrize("callee", ["pap_cdf", "shift_diagnostic"])
def test_pap_releases_and_diagnoses_at_the_requested_epsilon_and_beta(
    callee, tmp_path, wages_csv, monkeypatch
):
    spec = pap(tmp_path, "100\n900\n2500", beta=0.02)
    data = InMemoryAggregator(open_dataset(wages_csv))
    run = lambda: get_algorithm("pap").run(spec, data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, sanitize_papers, callee, run)
    assert args[3] == EPSILON if callee == "pap_cdf" else args[1:] == (2001, EPSILON, 0.02)


def test_k_point_states_the_n_its_guarantee_needs_at_alpha_over_k(wages_csv) -> None:
    spec = sanitizer("k-point", k=3, beta=0.02)
    need = k_point_plan(EPSILON, DELTA, ALPHA, 3).min_n_for_guarantee(ALPHA / 3, 0.02)
    data = InMemoryAggregator(open_dataset(wages_csv))
    table = run_to_end(get_algorithm("k-point").run(spec, data, SeededRandom(0)))
    assert any(f"needs n >= {need:,};" in note for note in table.notes)
