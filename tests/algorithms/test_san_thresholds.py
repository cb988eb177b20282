"""SanThresholds (paper 000 Fig. 11): budget over 4c mechanisms, noise-off accuracy, big grids, MC audit."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from dpgui.algorithms import san_thresholds as module
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.san_thresholds import SanThresholdsPlan, san_thresholds
from dpgui.privacy.choosing import ChoosingParameters
from dpgui.privacy.random import SeededRandom
from tests.algorithms.test_san_points import audit_log_ratio, distinct
from tests.exact import composed_epsilon
from tests.recording import RecordingRandom


def true_cdf(values: np.ndarray, counts: np.ndarray, grid: np.ndarray) -> np.ndarray:
    cumulative = np.concatenate([[0], np.cumsum(counts)]) / counts.sum()
    return cumulative[np.searchsorted(values, grid, side="right")]


def probe_grid(values: np.ndarray, size: int) -> np.ndarray:
    """Every point where a step CDF can be wrong: the data, its neighbours and the domain ends."""
    v = [int(x) for x in values.tolist()]
    points = {0, size - 1, *v, *(x - 1 for x in v if x > 0), *(x + 1 for x in v if x < size - 1)}
    return np.array(sorted(points), dtype=np.uint64)


@pytest.mark.parametrize(
    ("epsilon", "delta", "alpha"), [(1.0, 1e-6, 0.05), (0.5, 1e-8, 0.2), (4.0, 1e-4, 1.0)]
)
def test_plan_books_4c_mechanisms_with_delta_prime_c_delta_within_the_target(epsilon, delta, alpha):
    plan = SanThresholdsPlan.for_target(epsilon, delta, alpha)
    assert plan.cap == math.ceil(77 / alpha)
    assert plan.mechanism_delta * 5 * plan.cap <= delta
    assert plan.cost.epsilon <= epsilon and plan.cost.delta <= delta
    assert plan.mechanism_epsilon >= epsilon / (4 * plan.cap)  # never worse than basic composition
    assert plan.choosing.k == 2 and plan.choosing.epsilon <= 2


def test_the_cost_books_delta_only_on_the_c_choosing_runs():
    """Laplace counts and the EM are pure: delta'' = c delta_t + delta' (not 4c delta_t + delta')."""
    plan = SanThresholdsPlan.for_target(1.0, 1e-6, 0.05)
    booked = plan.cap * plan.mechanism_delta + plan.cap * plan.mechanism_delta
    assert plan.cost.delta == pytest.approx(booked, rel=1e-9)
    assert plan.cost.delta < 0.45e-6


def test_default_plan_matches_the_spec_numbers_and_its_guarantee_needs_billions_of_records():
    """Spec 000 s5.3: c = 1540, per-mechanism eps 0.00216, delta 1.3e-10 at eps 1, delta 1e-6, alpha 0.05."""
    plan = SanThresholdsPlan.for_target(1.0, 1e-6, 0.05)
    assert plan.cap == 1540
    assert plan.mechanism_epsilon == pytest.approx(0.00216, rel=0.05)
    assert plan.mechanism_delta == pytest.approx(1.3e-10, rel=0.01)
    need = plan.min_n_for_guarantee(2**32, 0.05)
    assert 1e9 <= need <= 1e10  # B1 (the Laplace tails over c releases) dominates
    assert plan.predicted_error(need, 2**32, 0.05) == 0.05
    assert plan.predicted_error(need - 1, 2**32, 0.05) == 1.0  # "guarantee not met": only the trivial bound


@pytest.mark.parametrize(("epsilon", "delta", "alpha"), [(1.0, 1e-6, 1.0), (0.5, 1e-8, 0.5)])
def test_observed_mechanisms_compose_within_the_asked_epsilon_delta(monkeypatch, epsilon, delta, alpha):
    """Every call's noisy total and released count (sensitivity 1, recorded Laplace scales), its exponential
    mechanism over levels (recorded log-weights per unit of quality, sensitivity 1: eps = 2 x that) and its
    choosing run (at the parameters the code hands it; checked exactly in tests/privacy/test_choosing.py)
    are mechanisms; at most 4 per call and ``cap`` calls, their advanced composition must fit the asked
    (epsilon, delta)."""
    plan = SanThresholdsPlan.for_target(epsilon, delta, alpha)
    rng = RecordingRandom(3, zero=True)
    chosen: list[ChoosingParameters] = []
    level_epsilons: list[float] = []
    real_choosing, real_em = module.choosing_mechanism, module.exponential_mechanism

    def recording_choosing(scores, params, random):
        chosen.append(params)
        return real_choosing(scores, params, random)

    def recording_em(quality, eps, random):
        before = len(rng.log_weights)
        index = real_em(quality, eps, random)
        weights, quality = rng.log_weights[before], np.asarray(quality, dtype=np.float64)
        i, j = np.argmax(quality), np.argmin(quality)
        if quality[i] > quality[j]:
            level_epsilons.append(2 * (weights[i] - weights[j]) / (quality[i] - quality[j]))
        return index

    monkeypatch.setattr(module, "choosing_mechanism", recording_choosing)
    monkeypatch.setattr(module, "exponential_mechanism", recording_em)
    values, counts = distinct(np.repeat([3, 100, 4_000, 65_535], [50_000, 70_000, 40_000, 40_000]))
    run_to_end(san_thresholds(values, counts, 2**16, plan, rng))
    assert chosen and level_epsilons  # the run exercised every kind of mechanism
    mechanisms = (
        [(1 / scale, 0.0) for scale in rng.laplace_scales]
        + [(e, 0.0) for e in level_epsilons]
        + [(p.epsilon, p.delta) for p in chosen]
    )
    booked = 4 * plan.cap  # the most a run can make: cap calls of at most 4 mechanisms
    assert len(mechanisms) <= booked
    worst_epsilon = max(e for e, _ in mechanisms)
    worst_delta = max(d for _, d in mechanisms)
    slack = delta - booked * worst_delta
    assert slack > 0
    assert composed_epsilon(worst_epsilon, booked, slack) <= epsilon * (1 + 1e-9)


DATASETS = {
    "all equal": np.full(20_000, 7),
    "point masses": np.repeat([3, 100, 40_000, 65_535], [5000, 7000, 4000, 4000]),
    "uniform": np.random.default_rng(1).integers(0, 2**16, 20_000),
    "two clusters": np.concatenate(
        [
            np.random.default_rng(2).integers(100, 300, 10_000),
            np.random.default_rng(3).integers(60_000, 60_050, 10_000),
        ]
    ),
}


@pytest.mark.parametrize("name", list(DATASETS))
def test_noise_off_cdf_is_within_alpha_everywhere(name):
    """Spec 000 s10 item 7: per-mechanism eps 1e6 (choosing at its maximum 2) gives CDF error <= alpha."""
    alpha, size = 0.1, 2**16
    values, counts = distinct(DATASETS[name])
    plan = SanThresholdsPlan(
        cap=math.ceil(77 / alpha), alpha=alpha, mechanism_epsilon=1e6, mechanism_delta=1e-3
    )
    release = run_to_end(san_thresholds(values, counts, size, plan, SeededRandom(5)))
    grid = probe_grid(values, size)
    assert np.max(np.abs(release.cdf(grid) - true_cdf(values, counts, grid))) <= alpha
    assert len(release.points) <= plan.cap


def test_noise_off_works_on_a_2_to_the_64_grid():
    alpha, size = 0.1, 2**64
    rng = np.random.default_rng(6)
    data = np.concatenate(
        [rng.integers(0, 2**63, 8000, dtype=np.uint64) * np.uint64(2), np.full(4000, 2**64 - 1)]
    )
    values, counts = distinct(data.astype(np.uint64))
    plan = SanThresholdsPlan(
        cap=math.ceil(77 / alpha), alpha=alpha, mechanism_epsilon=1e6, mechanism_delta=1e-3
    )
    release = run_to_end(san_thresholds(values, counts, size, plan, SeededRandom(7)))
    grid = probe_grid(values, size)
    assert np.max(np.abs(release.cdf(grid) - true_cdf(values, counts, grid))) <= alpha
    assert max(release.points) <= 2**64 - 1


def test_private_run_gives_a_monotone_cdf_in_0_1_with_at_most_c_points():
    values, counts = distinct(np.random.default_rng(8).integers(0, 1000, 5000))
    plan = SanThresholdsPlan.for_target(1.0, 1e-6, 0.5)
    release = run_to_end(san_thresholds(values, counts, 1000, plan, SeededRandom(9)))
    cdf = release.cdf(np.arange(1000, dtype=np.uint64))
    assert len(release.points) <= plan.cap
    assert np.all(np.diff(cdf) >= 0) and cdf.min() >= 0 and cdf.max() <= 1


def test_monte_carlo_audit_holds_at_the_composed_epsilon_and_catches_a_forgotten_split():
    """Spec 000 s10 item 2 at d = 4: one record moves between two heavy points; with cap c = 2 both are
    released (one order), their two Laplace counts move in opposite directions: log-ratio about 2 > eps."""
    plan = SanThresholdsPlan(cap=2, alpha=1.0, mechanism_epsilon=1.0, mechanism_delta=1e-6)
    values = np.array([2, 12], dtype=np.uint64)
    s, s_prime = np.array([200, 200]), np.array([201, 199])
    runs = 3_000

    def outcomes(counts: np.ndarray, seed: int) -> Counter:
        rng = SeededRandom(seed)
        seen: Counter = Counter()
        for _ in range(runs):
            release = run_to_end(san_thresholds(values, counts, 16, plan, rng))
            weights = tuple(int(np.clip(w - 200, -2, 2)) for w in release.weights)
            seen[(release.points, weights)] += 1
        return seen

    measured = audit_log_ratio(outcomes(s, 20), outcomes(s_prime, 21), runs)
    assert measured <= plan.cost.epsilon
    assert measured > plan.mechanism_epsilon  # control: a ledger charging one eps would be caught
