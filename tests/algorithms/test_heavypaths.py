"""HeavyPaths (paper 002 s4): public parameters with the REVIEW-000-002 s4 corrections, the
ConstructPaths neighbour property (Lemma 4.3), the d_hat = 1 branch, utility at n_required, refusal."""

import collections
import dataclasses
import math

import numpy as np
import pytest

from dpgui.algorithms import heavypaths as module
from dpgui.algorithms.heavypaths import (
    HeavyPathsParameters,
    construct_paths,
    heavy_path,
    heavypaths,
    heavypaths_min_n,
    max_multiplicity,
)
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import InsufficientData, bit_chain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from tests.algorithms.test_treelog import (
    Observed,
    audit_violation,
    binomial_quantile,
    empirical_law,
    families,
    record_mechanisms,
)
from tests.recording import RecordingRandom


def test_parameters_are_public_fit_the_budget_and_meet_the_review_corrections() -> None:
    p = HeavyPathsParameters.build(1.0, 1e-6, 0.05, 32, 500_000)
    assert p == HeavyPathsParameters.build(1.0, 1e-6, 0.05, 32, 500_000)
    assert p.cost.epsilon <= 1.0 * (1 + 1e-12) and p.cost.delta <= 1e-6 * (1 + 1e-12)
    assert p.t >= 2 * p.k  # margin t - 2k + 3 >= 3 (REVIEW s4d)
    assert p.svt_accuracy <= p.k / 4  # lambda >= 34 (REVIEW s4e)
    assert p.delta_svt == pytest.approx(1e-6 / 4)  # the SVT failure is charged to delta
    assert p.delta_path <= p.eps_path / (4 * math.exp(p.eps_path) * p.n)
    assert p.n_required == heavypaths_min_n(1.0, 1e-6, 0.05, 32) <= 500_000


def test_heavy_path_takes_the_heavier_child_and_breaks_ties_left() -> None:
    points = np.array([0, 1, 2, 3, 4, 5, 6, 6, 7], dtype=np.uint64)  # 3 bits; left 4, right 5
    assert heavy_path(points, 3, 1) == (3, 6)
    tied = np.array([0, 1, 6, 7], dtype=np.uint64)
    assert heavy_path(tied, 3, 1) == (3, 0)  # ties at the root and at level 2 go left


def test_construct_paths_neighbours_before_d_star_and_multiplicities_move_by_one() -> None:
    gen = np.random.Generator(np.random.PCG64(11))
    k, bits = 4, 16
    t = 2 * k
    chain = bit_chain(bits)
    checked = 0
    for trial in range(300):
        spread = 2 ** int(gen.integers(4, 17))
        s = np.sort(gen.integers(0, spread, 150).astype(np.uint64))
        s2 = s.copy()
        s2[gen.integers(0, 150)] = np.uint64(gen.integers(0, spread))
        s2.sort()
        a, b = construct_paths(s, chain, t), construct_paths(s2, chain, t)
        f = [max_multiplicity(db) for db in a]
        d_star = next((d for d, fd in enumerate(f, 1) if fd >= k), len(f))
        for d in range(1, d_star + 1):
            assert abs(f[d - 1] - max_multiplicity(b[d - 1])) <= 1, trial
            if d < d_star:
                x, y = collections.Counter(a[d - 1].tolist()), collections.Counter(b[d - 1].tolist())
                assert sum((x - y).values()) <= 1 and sum((y - x).values()) <= 1, trial
                checked += 1
    assert checked > 100


def test_all_equal_data_stops_at_d_1_and_releases_the_value() -> None:
    n = heavypaths_min_n(1.0, 1e-6, 0.05, 16)
    params = HeavyPathsParameters.build(1.0, 1e-6, 0.05, 16, n)
    rng = SeededRandom(12)
    data = (np.array([4321], np.uint64), np.array([n]))
    outs = [run_to_end(heavypaths(*data, params, rng)).index for _ in range(10)]
    assert outs == [4321] * 10


def test_output_is_interior_at_n_required_on_hard_families() -> None:
    eps, delta, beta, bits = 1.0, 1e-6, 0.05, 16
    n = heavypaths_min_n(eps, delta, beta, bits)
    params = HeavyPathsParameters.build(eps, delta, beta, bits, n)
    rng = SeededRandom(13)
    runs = 30
    allowed = binomial_quantile(runs, beta, 0.999)
    for name, data in families(n, bits, np.random.Generator(np.random.PCG64(14))).items():
        if name == "all equal":
            continue  # the d_hat = 1 branch has its own test
        values, counts = np.unique(data, return_counts=True)
        failures = 0
        for _ in range(runs):
            out = run_to_end(heavypaths(values, counts, params, rng)).index
            failures += out is None or not int(values[0]) <= out <= int(values[-1])
        assert failures <= allowed, name


def test_refuses_below_n_required_before_reading_the_data() -> None:
    params = HeavyPathsParameters.build(1.0, 1e-6, 0.05, 32, 50_000)
    with pytest.raises(InsufficientData) as caught:
        next(heavypaths(None, None, params, SeededRandom(0)))  # type: ignore[arg-type]
    assert caught.value.min_n == params.n_required > 50_000


def heavypaths_audit(params: HeavyPathsParameters, claim: PrivacyCost, seed: int, runs: int) -> float:
    """Audit on a 4-bit domain: two equal heavy values (StoppingPoint stops at d = 1, HeavyBin over the
    elements decides) against one record moved between them, checked against the claimed cost."""
    rng = SeededRandom(seed)

    def run(values, counts):
        return run_to_end(heavypaths(values, counts, params, rng)).index

    half = params.n // 2  # S: 3 wins ties (the first label); S': 12 is ahead
    s = [3] * (params.n - half) + [12] * half
    s2 = [3] * (params.n - half - 1) + [12] * (half + 1)
    p, q = empirical_law(run, s, runs), empirical_law(run, s2, runs)
    return audit_violation(p, q, claim.epsilon, claim.delta, runs)


def test_monte_carlo_audit_on_a_4_bit_domain() -> None:
    n = heavypaths_min_n(3.0, 1e-2, 0.05, 4)
    params = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 4, n)
    assert heavypaths_audit(params, params.cost, 30, 500) <= 0


def test_control_monte_carlo_audit_flags_an_unsplit_budget() -> None:
    n = heavypaths_min_n(3.0, 1e-2, 0.05, 4)
    params = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 4, n)
    unsplit = dataclasses.replace(params, epsilon=params.epsilon * 100)  # every share far above its split
    assert heavypaths_audit(unsplit, params.cost, 31, 500) > 0


def observed_epsilon(monkeypatch, params: HeavyPathsParameters, data: np.ndarray) -> tuple[float, Observed]:
    """Run HeavyPaths with noise 0 and return (the StoppingPoint's epsilon as handed to the sparse vector,
    whose law tests/privacy/test_sparse_vector.py observes; what its other mechanisms sampled)."""
    rng = RecordingRandom(5, zero=True)
    seen = record_mechanisms(monkeypatch, rng, module)
    svt: list[float] = []
    real_svt = module.SparseVector

    def sparse_vector(svt_params, random):
        svt.append(svt_params.epsilon)
        return real_svt(svt_params, random)

    monkeypatch.setattr(module, "SparseVector", sparse_vector)
    values, counts = np.unique(data, return_counts=True)
    run_to_end(heavypaths(values.astype(np.uint64), counts, params, rng, allow_below_requirement=True))
    [eps_svt] = svt
    return eps_svt, seen


def test_observed_first_level_branch_composes_within_the_asked_epsilon(monkeypatch) -> None:
    """d_hat = 1 (a value heavier than k/2): StoppingPoint + HeavyBin over S's elements (replace-one), plus
    the LevelUps the budget books whatever the branch (REVIEW-000-002 s4f)."""
    n = heavypaths_min_n(3.0, 1e-2, 0.05, 4)
    params = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 4, n)
    eps_svt, seen = observed_epsilon(monkeypatch, params, np.repeat([3, 12], [n - n // 2, n // 2]))
    [(heavy, _)] = seen.heavy  # two element counts move under replace-one: sensitivity 2
    assert eps_svt + 2 * heavy + params.level_ups * 2 * params.eps_level_up <= 3.0 * (1 + 1e-9)


def test_observed_one_random_path_branch_composes_within_the_asked_epsilon(monkeypatch) -> None:
    """d_hat = 2 (uniform data on 8 bits): StoppingPoint, then OneRandomPath under add/remove (path
    eps (B + 1), HeavyBin over levels, HeavyBin over nodes, four-leaf EM) doubled to replace-one (REVIEW
    s4a), plus the booked LevelUps."""
    n = heavypaths_min_n(3.0, 1e-2, 0.05, 8)
    params = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 8, n)
    eps_svt, seen = observed_epsilon(monkeypatch, params, np.random.default_rng(8).integers(0, 256, n))
    assert seen.step_epsilons and len(seen.heavy) == 2 and seen.leaf_epsilons
    path = max(seen.step_epsilons)
    add_remove = path * (params.balanced_steps + 1) + sum(e for e, _ in seen.heavy) + max(seen.leaf_epsilons)
    total = eps_svt + 2 * add_remove + params.level_ups * 2 * params.eps_level_up
    assert total <= 3.0 * (1 + 1e-9)
