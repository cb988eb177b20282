"""Pins of dpgui/tasks/distance.py found by the t21 mutation scan: what each distance release charges, and
the budget the CDF route is noised with (pure epsilon at delta = 0, else the rho of the requested
(epsilon, delta)), recorded in its curve."""

from __future__ import annotations

import dataclasses

import pytest

import dpgui.tasks.distance as distance
from dpgui.algorithms.distance import baselines, huang_roth
from dpgui.algorithms.distance.cdf_route import PrivacyBudget
from dpgui.algorithms.distance.embeddings import IdentityEmbedding, Metric
from dpgui.data.aggregate import InMemoryAggregator
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.random import MAX_NOISE_SCALE, SeededRandom
from dpgui.tasks.registry import Guarantee, get_algorithm
from dpgui.tasks.spec import TaskKind, TaskSpec
from tests.recording import captured_call

EPSILON, DELTA = 0.7, 3e-7
RHO = zcdp_rho_for(PrivacyCost(EPSILON, DELTA))
GRIDS = (NumericDomain(0, 5000, 10), NumericDomain(0, 18, 1))
APPROXIMATE = ["cdf-route", "huang-roth-offline", "huang-roth-online", "bourgain", "gaussian-per-query"]


def release(name: str, delta: float = DELTA, **parameters: object) -> TaskSpec:
    columns = ("wage", "education")
    return TaskSpec(
        TaskKind.DISTANCE, columns, GRIDS, EPSILON, delta, name, parameters=tuple(parameters.items())
    )


def queries_file(tmp_path, count: int):
    """A public queries file of ``count`` points (wage, education)."""
    queries = tmp_path / "queries.csv"
    queries.write_text("wage,education\n" + "".join(f"{100 * (i + 1)},{3 + i}\n" for i in range(count)))
    return queries


@pytest.mark.parametrize("name", APPROXIMATE)
def test_each_zcdp_release_charges_exactly_the_requested_epsilon_and_delta(name: str) -> None:
    assert get_algorithm(name).cost(release(name)) == PrivacyCost(EPSILON, DELTA)


def test_the_laplace_baseline_charges_exactly_the_requested_epsilon() -> None:
    assert get_algorithm("laplace-per-query").cost(release("laplace-per-query")) == PrivacyCost(EPSILON)
    assert get_algorithm("laplace-per-query").guarantee is Guarantee.PURE


@pytest.mark.parametrize("name", ["cdf-route", "huang-roth-offline", "huang-roth-online", "bourgain"])
def test_the_recorded_rho_is_the_one_of_the_requested_epsilon_and_delta(name: str) -> None:
    assert get_algorithm(name).curve(release(name)).rho == RHO


@pytest.mark.parametrize(
    ("delta", "budget"), [(0.0, PrivacyBudget(EPSILON)), (DELTA, PrivacyBudget(EPSILON, RHO))]
)
def test_the_cdf_route_is_noised_with_the_requested_budget(delta, budget, wages_csv, monkeypatch) -> None:
    data = InMemoryAggregator(open_dataset(wages_csv))
    run = lambda: get_algorithm("cdf-route").run(release("cdf-route", delta), data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, distance, "cdf_route", run)
    assert args[3] == budget


def test_the_certified_error_is_computed_at_the_requested_beta(monkeypatch) -> None:
    spec = release("cdf-route", beta=0.02)
    args, _ = captured_call(
        monkeypatch,
        distance,
        "certified_max_error",
        lambda: get_algorithm("cdf-route").predicted_error(spec, 2000),
    )
    assert args[3:] == (PrivacyBudget(EPSILON, RHO), 0.02)


def test_the_predicted_error_through_an_embedding_is_computed_at_the_requested_beta(monkeypatch) -> None:
    spec = release("cdf-route", beta=0.02, metric="l2", dimension=4, query_count=7)
    args, _ = captured_call(
        monkeypatch,
        distance,
        "predicted_max_error",
        lambda: get_algorithm("cdf-route").predicted_error(spec, 2000),
    )
    assert args[3:] == (PrivacyBudget(EPSILON, RHO), 7, 0.02)


def test_a_column_of_exactly_support_points_is_supported_on_its_own_grid() -> None:
    """education has 19 grid points: with 19 support points its support is its normalised grid,
    with 18 the bin centres."""
    exact, centres = (
        distance._supports(release("cdf-route", support=b), IdentityEmbedding(2))[1] for b in (19, 18)
    )
    assert exact.tolist() == [i / 18 for i in range(19)]
    assert centres.tolist() == [(i + 0.5) / 18 for i in range(18)]


@pytest.mark.parametrize("metric", ["l1", "l2"])
def test_the_cdf_route_accepts_l1_and_l2(metric: str) -> None:
    assert get_algorithm("cdf-route").preconditions(release("cdf-route", metric=metric), 2000) == ()


def test_huang_roth_offline_refuses_l2() -> None:
    (failure,) = get_algorithm("huang-roth-offline").preconditions(
        release("huang-roth-offline", metric="l2"), 2000
    )
    assert "l1 only" in failure.message
    categorical = dataclasses.replace(
        release("huang-roth-offline"), domains=(GRIDS[0], CategoricalDomain(("x",)))
    )
    (failure,) = get_algorithm("huang-roth-offline").preconditions(categorical, 2000)
    assert "numeric" in failure.message  # and no claim about the (l1) metric


def test_a_noise_scale_of_exactly_the_64_bit_bound_is_allowed() -> None:
    assert distance._noise_scale_failures(MAX_NOISE_SCALE, "x") == []
    (failure,) = distance._noise_scale_failures(MAX_NOISE_SCALE * 1.01, "x")
    assert failure.parameter


def test_huang_roth_offline_refuses_noise_above_the_bound_of_its_requested_calibration(monkeypatch) -> None:
    """The 64-bit bound is out of reach at realistic parameters: lowered to the largest scale the request
    draws, that request is allowed and a bound just below it refuses."""
    calibration = huang_roth.calibrate(2000, 2, EPSILON, DELTA, 0.05, online=False)
    largest = huang_roth.noise_scales(calibration, 2000).largest()
    info, spec = get_algorithm("huang-roth-offline"), release("huang-roth-offline")
    monkeypatch.setattr(distance, "MAX_NOISE_SCALE", largest)
    assert info.preconditions(spec, 2000) == ()
    monkeypatch.setattr(distance, "MAX_NOISE_SCALE", largest * 0.999)
    (failure,) = info.preconditions(spec, 2000)
    assert failure.parameter


@pytest.mark.parametrize(("delta", "refused"), [(0.0, True), (DELTA, False)])
def test_the_gaussian_baseline_is_refused_exactly_without_delta(
    delta: float, refused: bool, tmp_path
) -> None:
    queries = queries_file(tmp_path, 1)
    spec = release("gaussian-per-query", delta, queries=str(queries))
    failures = get_algorithm("gaussian-per-query").preconditions(spec, 2000)
    assert [f.message for f in failures] == (["the Gaussian baseline needs delta > 0"] if refused else [])


@pytest.mark.parametrize("delta", [0.0, DELTA])
def test_the_laplace_baseline_refuses_noise_above_the_bound(delta: float, tmp_path, monkeypatch) -> None:
    queries = queries_file(tmp_path, 1)
    spec = release("laplace-per-query", delta, queries=str(queries))
    scale = baselines.per_query_noise(Metric.L1, 2, 1, epsilon=EPSILON, rho=None).scale
    info = get_algorithm("laplace-per-query")
    monkeypatch.setattr(distance, "MAX_NOISE_SCALE", scale)
    assert info.preconditions(spec, 2000) == ()
    monkeypatch.setattr(distance, "MAX_NOISE_SCALE", scale * 0.999)
    (failure,) = info.preconditions(spec, 2000)
    assert failure.parameter


def test_huang_roth_offline_runs_at_the_calibration_of_the_requested_budget(wages_csv, monkeypatch) -> None:
    spec = release("huang-roth-offline", beta=0.02)
    data = InMemoryAggregator(open_dataset(wages_csv))
    run = lambda: get_algorithm("huang-roth-offline").run(spec, data, SeededRandom(0))  # noqa: E731
    args, _ = captured_call(monkeypatch, huang_roth, "offline_release", run)
    assert args[1] == huang_roth.calibrate(2001, 2, EPSILON, DELTA, 0.02, online=False)


def test_huang_roth_offline_predicts_the_alpha_of_the_requested_calibration() -> None:
    spec = release("huang-roth-offline", beta=0.02)
    expected = huang_roth.calibrate(2000, 2, EPSILON, DELTA, 0.02, online=False).alpha
    assert get_algorithm("huang-roth-offline").predicted_error(spec, 2000) == expected


def test_the_laplace_baseline_records_and_predicts_the_noise_of_the_requested_epsilon() -> None:
    noise = baselines.per_query_noise(Metric.L1, 2, 7, epsilon=EPSILON, rho=None)
    info = get_algorithm("laplace-per-query")
    for delta in (0.0, DELTA):  # Laplace noise whatever delta is
        spec = release("laplace-per-query", delta, query_count=7, beta=0.02)
        (rounds,) = info.curve(spec).noise
        assert (rounds.scale, rounds.count) == (noise.scale, 7)
        assert info.predicted_error(spec, 2000) == baselines.predicted_max_error(noise, 2000, 7, 0.02)


def test_huang_roth_online_predicts_the_alpha_of_the_requested_calibration(tmp_path) -> None:
    queries = queries_file(tmp_path, 3)
    spec = release("huang-roth-online", beta=0.02, queries=str(queries))
    expected = huang_roth.calibrate(2000, 2, EPSILON, DELTA, 0.02, online=True, k_max=3).alpha
    assert get_algorithm("huang-roth-online").predicted_error(spec, 2000) == expected
    l2 = release("huang-roth-online", queries=str(queries), metric="l2")
    (failure,) = get_algorithm("huang-roth-online").preconditions(l2, 2000)
    assert "l1 only" in failure.message


def test_huang_roth_online_refuses_noise_above_the_bound_of_its_requested_calibration(
    tmp_path, monkeypatch
) -> None:
    queries = queries_file(tmp_path, 3)
    calibration = huang_roth.calibrate(2000, 2, EPSILON, DELTA, 0.05, online=True, k_max=3)
    largest = huang_roth.noise_scales(calibration, 2000).largest()
    info, spec = get_algorithm("huang-roth-online"), release("huang-roth-online", queries=str(queries))
    monkeypatch.setattr(distance, "MAX_NOISE_SCALE", largest)
    assert info.preconditions(spec, 2000) == ()
    monkeypatch.setattr(distance, "MAX_NOISE_SCALE", largest * 0.999)
    (failure,) = info.preconditions(spec, 2000)
    assert failure.parameter


def test_huang_roth_online_answers_with_the_requested_calibration_and_delta(
    tmp_path, wages_csv, monkeypatch
) -> None:
    queries = queries_file(tmp_path, 3)
    spec = release("huang-roth-online", beta=0.02, queries=str(queries))
    data = InMemoryAggregator(open_dataset(wages_csv))
    run = lambda: get_algorithm("huang-roth-online").run(spec, data, SeededRandom(0))  # noqa: E731
    args, kwargs = captured_call(monkeypatch, huang_roth, "online_answers", run)
    assert args[2] == huang_roth.calibrate(2001, 2, EPSILON, DELTA, 0.02, online=True, k_max=3)
    assert kwargs == {"delta": DELTA}


def test_the_gaussian_baseline_predicts_the_error_of_its_gaussian_noise() -> None:
    spec = release("gaussian-per-query", query_count=7, beta=0.02)
    noise = baselines.per_query_noise(Metric.L1, 2, 7, epsilon=EPSILON, rho=RHO)
    expected = baselines.predicted_max_error(noise, 2000, 7, 0.02)
    assert get_algorithm("gaussian-per-query").predicted_error(spec, 2000) == expected
