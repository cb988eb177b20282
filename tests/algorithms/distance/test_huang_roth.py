"""Huang-Roth online and offline l1: sensitivities, halting at the cap, huge-epsilon accuracy, calibration."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from dpgui.algorithms.distance import huang_roth as hr
from dpgui.algorithms.distance.cdf_route import DistanceStructure
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.cost import zcdp_epsilon
from dpgui.privacy.random import SeededRandom
from dpgui.privacy.sparse_vector import SparseVector
from tests.recording import RecordingRandom


def brute_force(points: np.ndarray, queries: np.ndarray) -> np.ndarray:
    return np.abs(points[None, :, :] - queries[:, None, :]).sum(axis=2).mean(axis=1)


def test_oracle_matches_brute_force_with_ties():
    g = np.random.default_rng(1)
    data = g.choice(np.linspace(0, 1, 5), (30, 2))
    oracle = hr.SortedOracle(data)
    v = hr.snap(np.concatenate([g.random(20), np.linspace(0, 1, 5)]))
    u = hr.snap(data)
    for j in range(2):
        assert np.array_equal(oracle.value_sums(j, v), np.abs(u[:, j][:, None] - v[None, :]).sum(axis=0))
        slopes = (u[:, j][:, None] < v).sum(axis=0) - (u[:, j][:, None] > v).sum(axis=0)
        assert np.array_equal(oracle.slope_counts(j, v), slopes)


def test_value_slope_and_test_sensitivities_by_brute_force_over_replace_one():
    """value sum <= R (G: 1/n), slope count <= 2 (2/n, attained: 1 would be wrong), online test F <= W/n."""
    g = np.random.default_rng(2)
    n, dims = 12, 3
    v = hr.snap(np.linspace(0, 1, 101))
    worst_value = worst_slope = worst_f = 0.0
    for _ in range(300):
        a = g.random((n, dims))
        b = a.copy()
        b[g.integers(n)] = g.choice([0.0, 1.0], dims) if g.random() < 0.5 else g.random(dims)
        oa, ob = hr.SortedOracle(a), hr.SortedOracle(b)
        fa = sum(oa.value_sums(j, v) for j in range(dims)) / (n * hr.RESOLUTION)
        fb = sum(ob.value_sums(j, v) for j in range(dims)) / (n * hr.RESOLUTION)
        worst_f = max(worst_f, float(np.abs(fa - fb).max()))
        for j in range(dims):
            worst_value = max(worst_value, float(np.abs(oa.value_sums(j, v) - ob.value_sums(j, v)).max()))
            worst_slope = max(worst_slope, float(np.abs(oa.slope_counts(j, v) - ob.slope_counts(j, v)).max()))
    assert worst_value <= hr.RESOLUTION
    assert worst_slope == 2
    assert worst_f <= dims / n + 1e-12
    assert worst_f > 1 / n  # control: the paper's 1/n would be wrong


def test_calibration_depends_on_public_inputs_only_and_shrinks_with_n():
    a = hr.calibrate(10_000, 10, 1.0, 1e-6, 0.05, online=True, k_max=1000)
    assert a == hr.calibrate(10_000, 10, 1.0, 1e-6, 0.05, online=True, k_max=1000)
    assert hr.calibrate(10**6, 10, 1.0, 1e-6, 0.05, online=True).alpha < a.alpha
    assert hr.calibrate(10_000, 10, 1.0, 1e-6, 0.05, online=True, k_max=10**6).alpha > a.alpha
    assert a.trivial  # spec s6: at n = 1e4, l = 10 the paper's method is worse than trivial
    off = hr.calibrate(10_000, 10, 1.0, 0.0, 0.05, online=False)
    assert hr.requirement(off, 10_000, 1) <= 1.0


def test_online_session_halts_at_its_update_cap_and_stops_reading_the_data():
    g = np.random.default_rng(3)
    data = g.random((40, 2))
    cal = hr.calibrate(40, 2, 1e9, 0.0, 0.05, online=True)
    cal = dataclasses.replace(cal, cap=3, threshold=-1.0)  # fires on every query
    oracle = hr.SortedOracle(data)
    session = hr.OnlineSession(oracle, cal, SeededRandom(0), 0.0)
    fired = [session.answer(q).updated for q in g.random((10, 2))]
    assert fired == [True] * 3 + [False] * 7
    assert session.halted and session.updates == 3
    calls = oracle.calls
    for q in g.random((20, 2)):
        assert session.answer(q).halted
    assert oracle.calls == calls  # frozen after the cap


def test_online_answers_within_alpha_at_huge_epsilon():
    g = np.random.default_rng(4)
    data = g.random((20, 2))
    cal = hr.calibrate(20, 2, 1e9, 0.0, 0.05, online=True)
    session = hr.OnlineSession(hr.SortedOracle(data), cal, SeededRandom(1), 0.0)
    queries = g.random((300, 2)) * 1.4 - 0.2
    answers = np.array([session.answer(q).answer for q in queries])
    assert np.max(np.abs(answers - brute_force(data, queries))) <= cal.alpha
    assert session.updates <= cal.cap


def test_offline_structure_within_alpha_at_huge_epsilon_and_round_trips(tmp_path):
    g = np.random.default_rng(5)
    data = g.random((15, 2))
    cal = hr.calibrate(15, 2, 1e9, 0.0, 0.05, online=False)
    learners, fires = run_to_end(hr.offline_release(data, cal, SeededRandom(2)))
    assert 0 < fires <= cal.cap
    s = hr.learners_structure(learners, ("a", "b"), np.zeros(2), np.ones(2), {"alpha": cal.alpha})
    queries = g.random((500, 2)) * 1.4 - 0.2
    assert np.max(np.abs(s.answer(queries) - brute_force(data, queries))) <= cal.alpha
    assert np.array_equal(
        DistanceStructure.from_json(json.loads(s.to_bytes())).answer(queries), s.answer(queries)
    )


def test_tangent_learner_envelope_is_exact_and_slopes_are_clipped():
    learner = hr.TangentLearner()
    learner.add_tangent(0.2, 0.5, -3.0)
    learner.add_tangent(0.8, 0.4, 0.7)
    assert min(learner.slopes) == -1.0
    knots, values = learner.envelope()
    v = np.linspace(0, 1, 1001)
    assert np.max(np.abs(np.interp(v, knots, values) - learner(v))) < 1e-12


@pytest.mark.parametrize("delta", [0.0, 1e-6])
def test_session_cost_is_charged_up_front_and_metered_per_instance(delta):
    cal = hr.calibrate(1000, 2, 1.0, delta, 0.05, online=True)
    session = hr.OnlineSession(hr.SortedOracle(np.full((1000, 2), 0.5)), cal, SeededRandom(0), delta)
    assert session.cost_so_far().epsilon <= session.cost.epsilon <= 1.0 + 1e-9


def test_online_answers_halt_at_the_cap_and_match_the_session_on_a_seeded_rng():
    g = np.random.default_rng(6)
    data, queries = g.random((50, 2)), g.random((12, 2)) * 1.2 - 0.1
    cal = dataclasses.replace(hr.calibrate(50, 2, 1e9, 0.0, 0.05, online=True), cap=4, threshold=-1.0)
    run = hr.online_answers(data, queries, cal, SeededRandom(7))
    progress = []
    while True:
        try:
            progress.append(next(run))
        except StopIteration as stop:
            answers = stop.value
            break
    assert [p.partial for p in progress] == list(answers) and len(answers) == 12
    assert [a.updated for a in answers] == [True] * 4 + [False] * 8
    assert all(a.halted for a in answers[3:]) and not answers[2].halted
    assert [a.updates_used for a in answers] == [1, 2, 3, 4] + [4] * 8
    assert progress[-1].fraction == 1.0
    session = hr.OnlineSession(hr.SortedOracle(data), cal, SeededRandom(7), 0.0)
    assert [session.answer(q).answer for q in queries] == [a.answer for a in answers]


def test_online_partials_carry_only_the_released_answer_and_the_public_query():
    g = np.random.default_rng(8)
    data, queries = g.random((200, 2)), g.random((30, 2))
    cal = hr.calibrate(200, 2, 50.0, 0.0, 0.05, online=True)
    answers = run_to_end(hr.online_answers(data, (q for q in queries), cal, SeededRandom(9)))
    names = {f.name for f in dataclasses.fields(hr.OnlineAnswer)}
    assert names == {"index", "query", "answer", "updated", "updates_used", "halted", "cap"}
    assert {a.cap for a in answers} == {cal.cap}
    assert [a.index for a in answers] == list(range(30))
    assert all(np.array_equal(a.query, q) for a, q in zip(answers, queries, strict=True))
    truth = brute_force(data, queries)
    released = np.array([a.answer for a in answers])
    assert not np.any(np.isclose(released, truth, rtol=0, atol=1e-9))  # control: no exact private value


def _recorders(monkeypatch) -> tuple[list, list[list]]:
    """Record every sparse vector the mechanism opens (its params and the values it is handed) and the
    noise requests made inside each noisy tangent (value, then slope)."""
    vectors: list = []
    updates: list[list] = []
    real_tangent = hr._noisy_tangent

    class RecordingSparseVector(SparseVector):
        def __init__(self, params, rng) -> None:
            super().__init__(params, rng)
            self.values: list[float] = []
            vectors.append(self)

        def is_above(self, value: float) -> bool:
            self.values.append(value)
            return super().is_above(value)

    def recording_tangent(oracle, j, v_grid, calibration, rng):
        before = len(rng.requests)
        out = real_tangent(oracle, j, v_grid, calibration, rng)
        updates.append(rng.requests[before:])
        return out

    monkeypatch.setattr(hr, "SparseVector", RecordingSparseVector)
    monkeypatch.setattr(hr, "_noisy_tangent", recording_tangent)
    return vectors, updates


def _corner_neighbours(n: int, dims: int) -> tuple[np.ndarray, np.ndarray]:
    """D and D': one record moved from the corner 0 to the corner 1 (every sensitivity is attained)."""
    first = np.random.default_rng(7).random((n, dims))
    first[0] = 0.0
    second = first.copy()
    second[0] = 1.0
    return first, second


def _instance_loss(params, query_sensitivity: float) -> float:
    """AboveThreshold's loss at the scales the code draws for these params (probed: a 'below' answer), for
    queries of the observed sensitivity: one threshold shift and one query shift of twice it."""
    probe = RecordingRandom(zero=True)
    SparseVector(params, probe).is_above(-1e18)
    threshold_scale, query_scale = probe.laplace_scales
    return query_sensitivity * (1 / threshold_scale + 2 / query_scale)


def _update_loss(first: np.ndarray, second: np.ndarray, updates: list[list], gaussian: bool) -> list[float]:
    """Per coordinate: one noisy tangent's loss (pure eps, or zCDP rho) at the recorded scales, with the value
    and slope sensitivities measured on (D, D') over a grid of update points."""
    assert updates and all(len(u) == 2 for u in updates)
    assert len({tuple(u) for u in updates}) == 1  # the same scales for every coordinate and run
    (kind, value_scale, _), (_, slope_scale, _) = updates[0]
    assert kind == ("gaussian" if gaussian else "laplace")
    grid = hr.snap(np.linspace(0, 1, 257))
    a, b = hr.SortedOracle(first), hr.SortedOracle(second)
    losses = []
    for j in range(first.shape[1]):
        value = float(np.abs(a.value_sums(j, grid) - b.value_sums(j, grid)).max())
        slope = float(np.abs(a.slope_counts(j, grid) - b.slope_counts(j, grid)).max())
        if gaussian:
            losses.append(value**2 / (2 * value_scale**2) + slope**2 / (2 * slope_scale**2))
        else:
            losses.append(value / value_scale + slope / slope_scale)
    return losses


def _observed_online_loss(monkeypatch, epsilon: float, delta: float) -> tuple[float, float, hr.OnlineSession]:
    """Run an online session on corner neighbours and return (pure loss per instance, rho per instance, the
    session on D), built from what the code does: the sparse vector's scales and the sensitivity of the
    values it is handed, and the update noise recorded inside the noisy tangent."""
    n, dims = 40, 2
    first, second = _corner_neighbours(n, dims)
    cal = hr.calibrate(n, dims, epsilon, delta, 0.05, online=True, k_max=50)
    vectors, updates = _recorders(monkeypatch)
    sessions = []
    for points in (first, second):
        # Zero noise except a huge first query noise: the corner query fires, so an update is drawn.
        rng = RecordingRandom(zero=True, noise=[0, 10**9])
        session = hr.OnlineSession(hr.SortedOracle(points), cal, rng, delta)
        session.answer(np.zeros(dims))
        sessions.append(session)
    svt_d, svt_d2 = vectors
    query_sensitivity = abs(svt_d.values[0] - svt_d2.values[0])  # same query, same (empty) hypothesis
    instance = _instance_loss(svt_d.params, query_sensitivity)
    update = sum(_update_loss(first, second, updates, delta > 0))  # every coordinate is updated
    if delta > 0:
        return instance, instance**2 / 2 + update, sessions[0]
    return instance + update, 0.0, sessions[0]


@pytest.mark.parametrize("epsilon", [1.0, 4.0])
def test_offline_release_is_eps_dp_at_the_asked_epsilon_from_observed_sensitivities_and_scales(
    monkeypatch, epsilon
):
    """Per coordinate, at most its sparse vector's cap of instances, each with one one-coordinate update;
    the sum over coordinates at the observed sensitivities and scales must fit the asked epsilon and be at
    most what the calibration charges."""
    n, dims = 40, 2
    first, second = _corner_neighbours(n, dims)
    cal = hr.calibrate(n, dims, epsilon, 0.0, 0.05, online=False)
    vectors, updates = _recorders(monkeypatch)
    for points in (first, second):
        run_to_end(hr.offline_release(points, cal, RecordingRandom(zero=True, noise=[0, 10**9])))
    assert len(vectors) == 2 * dims
    update = _update_loss(first, second, updates, False)
    total = 0.0
    for j in range(dims):
        svt_d, svt_d2 = vectors[j], vectors[dims + j]
        query_sensitivity = abs(svt_d.values[0] - svt_d2.values[0])  # grid point 0, empty hypothesis
        per_instance = _instance_loss(svt_d.params, query_sensitivity) + update[j]
        total += svt_d.params.max_above * per_instance
    assert total <= epsilon * (1 + 1e-9)
    assert hr.spent(cal, n, False, 0.0).epsilon >= total * (1 - 1e-9)


@pytest.mark.parametrize("epsilon", [1.0, 4.0])
def test_online_session_is_eps_dp_at_the_asked_epsilon_from_observed_sensitivities_and_scales(
    monkeypatch, epsilon
):
    """Each of the at most M instances (the sparse vector's cap) costs its AboveThreshold loss at the
    observed query sensitivity plus one update (value and slope noise at the recorded scales, sensitivities
    measured on a record moved corner to corner); M times that must fit the asked epsilon, and the session
    must charge at least that."""
    per_instance, _, session = _observed_online_loss(monkeypatch, epsilon, 0.0)
    total = session._svt.params.max_above * per_instance
    assert total <= epsilon * (1 + 1e-9)
    assert session.cost.epsilon >= total * (1 - 1e-9)


@pytest.mark.parametrize(("epsilon", "delta"), [(1.0, 1e-6), (4.0, 1e-9)])
def test_online_zcdp_session_fits_the_asked_budget_from_observed_sensitivities_and_sigmas(
    monkeypatch, epsilon, delta
):
    """zCDP mode: the pure sparse vector instance is (eps_A^2 / 2)-zCDP, each Gaussian update
    sum Delta^2 / (2 sigma^2) at the recorded sigmas; the total rho over M instances converts to
    (zcdp_epsilon(rho, delta), delta) (Canonne-Kamath-Steinke 2020 Cor. 13), which must fit the asked
    budget and be at most what the session charges."""
    _, per_instance_rho, session = _observed_online_loss(monkeypatch, epsilon, delta)
    rho = session._svt.params.max_above * per_instance_rho
    converted = zcdp_epsilon(rho, delta)
    assert converted <= epsilon * (1 + 1e-9)
    assert session.cost.epsilon >= converted * (1 - 1e-9) and session.cost.delta <= delta
