"""SanPoints and k-POINT (paper 000 Fig. 9-10): budget split, noise scales, noise-off accuracy, MC audit."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from dpgui.algorithms import san_points as san_points_module
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.san_points import SanPointsPlan, k_point_plan, san_points
from dpgui.privacy.choosing import ChoosingParameters
from dpgui.privacy.random import SeededRandom
from tests.exact import composed_epsilon
from tests.recording import RecordingRandom


def spec_closed_form_epsilon(epsilon: float, delta: float, iterations: int) -> float:
    """Spec 000 s5.1's per-mechanism epsilon eps / sqrt(16 I ln(5/delta)); the plan never goes below it."""
    return epsilon / math.sqrt(16 * iterations * math.log(5 / delta))


def distinct(data: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    values, counts = np.unique(np.asarray(data, dtype=np.uint64), return_counts=True)
    return values, counts.astype(np.int64)


def audit_log_ratio(p: Counter, q: Counter, runs: int, min_count: int = 40) -> float:
    """Largest lower confidence bound (4 sigma) on ln(P(o)/Q(o)) over outcomes seen often enough."""
    worst = -math.inf
    for outcome in set(p) | set(q):
        a, b = p[outcome], q[outcome]
        if max(a, b) < min_count:
            continue
        hi, lo = max(a, b), min(a, b)
        hi_low = (hi - 4 * math.sqrt(hi)) / runs
        lo_high = (lo + 4 * math.sqrt(lo) + 1) / runs
        worst = max(worst, math.log(max(hi_low, 1e-300) / lo_high))
    return worst


@pytest.mark.parametrize(
    ("epsilon", "delta", "alpha"), [(1.0, 1e-6, 0.05), (0.5, 1e-5, 0.1), (3.0, 1e-3, 0.3), (1.0, 1e-6, 0.013)]
)
def test_plan_composes_2I_mechanisms_within_the_target_and_beats_the_spec_closed_form(epsilon, delta, alpha):
    plan = SanPointsPlan.for_target(epsilon, delta, alpha)
    assert plan.iterations == math.ceil(2 / alpha)
    assert plan.cost.epsilon <= epsilon and plan.cost.delta <= delta
    assert 2 * plan.iterations * plan.mechanism_delta + plan.delta_slack <= delta
    assert plan.mechanism_epsilon >= spec_closed_form_epsilon(epsilon, delta, plan.iterations)


def test_the_cost_books_delta_only_on_the_choosing_runs():
    """The I Laplace releases are pure: delta'' = I delta_t + delta' (3/5 of the request), not 2I delta_t."""
    plan = SanPointsPlan.for_target(1.0, 1e-6, 0.05)
    booked = plan.iterations * plan.mechanism_delta + plan.delta_slack
    assert plan.cost.delta == pytest.approx(booked, rel=1e-9)
    assert plan.cost.delta < 0.65e-6


def test_guarantee_bound_is_9e5_with_the_spec_split_and_the_indicator_flips_there():
    """REVIEW-000-002 s2b: the choosing step needs m >= 9.0e5 at eps 1, delta 1e-6, alpha = beta = 0.05."""
    iterations, delta = 40, 1e-6
    spec_plan = SanPointsPlan(
        iterations, spec_closed_form_epsilon(1.0, delta, 40), 2 * delta / 200, delta / 5
    )
    need = spec_plan.min_n_for_guarantee(0.05, 0.05)
    assert 8.9e5 <= need <= 9.2e5
    assert spec_plan.guarantee_met(need, 0.05, 0.05) and not spec_plan.guarantee_met(need - 1, 0.05, 0.05)
    ours = SanPointsPlan.for_target(1.0, delta, 0.05)  # the tighter composition needs fewer records
    assert ours.min_n_for_guarantee(0.05, 0.05) < need
    assert ours.predicted_error(ours.min_n_for_guarantee(0.05, 0.05), 0.05) <= 0.05
    assert ours.predicted_error(10_000, 0.05) == 1.0


def test_release_holds_at_most_I_distinct_data_values_with_frequencies_in_0_1():
    data = np.concatenate([np.full(3000, 7), np.full(2000, 2**63 + 5), np.arange(1000) * 2**40])
    values, counts = distinct(data)
    plan = k_point_plan(8.0, 1e-3, 0.5, k=1)
    release = run_to_end(san_points(values, counts, plan, SeededRandom(1)))
    assert len(release.values) <= plan.iterations == 4
    assert len(set(release.values)) == len(release.values)
    assert set(release.values) <= set(values.tolist())
    assert all(0.0 <= f <= 1.0 for f in release.frequencies)


@pytest.mark.parametrize(("epsilon", "delta", "alpha"), [(1.0, 1e-6, 0.5), (0.5, 1e-8, 0.25)])
def test_observed_mechanisms_compose_within_the_asked_epsilon_delta(monkeypatch, epsilon, delta, alpha):
    """Each iteration's choosing run (at the parameters the code hands it; tests/privacy/test_choosing.py
    checks that mechanism exactly) and each released count (sensitivity 1, at the recorded Laplace scale)
    is one mechanism; their advanced composition must fit the (epsilon, delta) asked for."""
    plan = SanPointsPlan.for_target(epsilon, delta, alpha)
    asked: list[ChoosingParameters] = []
    real = san_points_module.choosing_mechanism

    def recording_choosing(scores, params, rng):
        asked.append(params)
        return real(scores, params, rng)

    monkeypatch.setattr(san_points_module, "choosing_mechanism", recording_choosing)
    values, counts = distinct(np.repeat(np.arange(1, 11), 10**5))
    rng = RecordingRandom(2, zero=True)
    release = run_to_end(san_points(values, counts, plan, rng))
    assert len(release.values) == len(asked) == plan.iterations  # every heavy value found: all draws made
    choosing_scales = {p.noise_scale for p in asked}  # the noisy maxima (checked in test_choosing.py)
    count_requests = [r for r in rng.requests if r.kind == "laplace" and r.scale not in choosing_scales]
    assert len(count_requests) == 1  # the counts' noise is one vector, one sampler call
    (count_noise,) = count_requests
    assert count_noise.size >= len(release.values)
    mechanisms = [(p.epsilon, p.delta) for p in asked] + [(1 / count_noise.scale, 0.0)] * len(release.values)
    slack = delta - math.fsum(d for _, d in mechanisms)
    assert slack > 0
    worst = max(e for e, _ in mechanisms)
    assert composed_epsilon(worst, len(mechanisms), slack) <= epsilon * (1 + 1e-9)


def test_noise_off_releases_every_value_above_alpha_and_every_estimate_is_within_alpha():
    """Spec 000 s10 item 7: with per-mechanism eps huge, all frequencies > alpha are released."""
    alpha = 0.1
    heavy = np.repeat([10, 20, 30, 40, 2**50], [4000, 3000, 2100, 2001, 2500])
    data = np.concatenate([heavy, 10**6 + np.arange(6399)])  # singletons
    values, counts = distinct(data)
    m = int(counts.sum())
    plan = SanPointsPlan(math.ceil(2 / alpha), 1e6, 1e-3, 1e-3)
    release = run_to_end(san_points(values, counts, plan, SeededRandom(3)))
    truth = dict(zip(values.tolist(), (counts / m).tolist(), strict=True))
    assert {v for v, f in truth.items() if f > alpha} <= set(release.values)
    assert max(abs(release.frequency(v) - f) for v, f in truth.items()) <= alpha
    for v in release.values:
        assert release.frequency(v) == pytest.approx(truth[v], abs=1 / m)


def test_k_point_answers_a_set_by_summing_estimates_within_alpha():
    alpha, k = 0.3, 3
    values, counts = distinct(np.repeat([1, 2, 3, 4], [5000, 3000, 1500, 500]))
    assert k_point_plan(1.0, 1e-6, alpha, k).iterations == math.ceil(2 * k / alpha)
    plan = SanPointsPlan(math.ceil(2 * k / alpha), 1e6, 1e-3, 1e-3)  # noise off
    release = run_to_end(san_points(values, counts, plan, SeededRandom(4)))
    # the release's note tells the user to add the set's frequencies (Fig. 10)
    assert math.fsum(release.frequency(v) for v in (1, 3, 99)) == pytest.approx(0.65, abs=alpha)
    assert math.fsum(release.frequency(v) for v in (2, 4)) == pytest.approx(0.35, abs=alpha)


def test_monte_carlo_audit_holds_at_the_composed_epsilon_and_catches_a_forgotten_split():
    """Spec 000 s10 item 2 at d = 4. Two heavy values swap one record; both get released in either order.

    The composed claim (2I = 4 mechanisms at eps_t = 1) holds; a ledger that charged only eps_t (a forgotten
    budget split) is exceeded: the two Laplace releases move in opposite directions, log-ratio about 2.
    """
    plan = SanPointsPlan(iterations=2, mechanism_epsilon=1.0, mechanism_delta=1e-6, delta_slack=1e-6)
    values = np.array([3, 9], dtype=np.uint64)
    s, s_prime = np.array([150, 149]), np.array([149, 150])
    runs = 4_000

    def outcomes(counts: np.ndarray, seed: int) -> Counter:
        rng = SeededRandom(seed)
        seen: Counter = Counter()
        for _ in range(runs):
            release = run_to_end(san_points(values, counts, plan, rng))
            noisy = (round(f * 299) for f in release.frequencies)
            seen[(release.values, tuple(int(np.clip(c - 150, -2, 2)) for c in noisy))] += 1
        return seen

    measured = audit_log_ratio(outcomes(s, 10), outcomes(s_prime, 11), runs)
    assert measured <= plan.cost.epsilon
    assert measured > plan.mechanism_epsilon  # control: charging eps_t once would be caught
