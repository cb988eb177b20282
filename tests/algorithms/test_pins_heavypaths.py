"""Pins HeavyPaths' budget split to the module's and spec's constants (mutation scan 18).

The existing tests check that what HeavyPaths hands its mechanisms composes to AT MOST the asked epsilon,
so a StoppingPoint at eps/5 or a first-level HeavyBin at eps/8 passed: private, but the k, t and
n_required the parameters are built from assume eps/4 for each, so the stated utility no longer holds.
These tests check the split is spent exactly: eps/4 StoppingPoint, eps/4 for the branch (OneRandomPath
converted to replace-one, or the d_hat = 1 HeavyBin), eps/2 over the LevelUps (spec 002 s6.5; module doc).
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import heavypaths as module
from dpgui.algorithms.heavypaths import HeavyPathsParameters, heavypaths, heavypaths_min_n
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.cost import replace_one_from_add_remove
from dpgui.privacy.sparse_vector import SparseVectorParameters
from tests.algorithms.test_heavypaths import observed_epsilon
from tests.recording import RecordingRandom


def observed_stopping_point(
    monkeypatch: pytest.MonkeyPatch, params: HeavyPathsParameters
) -> SparseVectorParameters:
    """The parameters HeavyPaths hands the sparse vector of StoppingPoint (Alg. 3)."""
    seen: list[SparseVectorParameters] = []
    real = module.SparseVector

    def sparse_vector(svt_params: SparseVectorParameters, random: object) -> object:
        seen.append(svt_params)
        return real(svt_params, random)

    monkeypatch.setattr(module, "SparseVector", sparse_vector)
    data = np.repeat(np.array([3, 12], dtype=np.uint64), [params.n - params.n // 2, params.n // 2])
    values, counts = np.unique(data, return_counts=True)
    run_to_end(
        heavypaths(values, counts, params, RecordingRandom(2, zero=True), allow_below_requirement=True)
    )
    [svt] = seen
    return svt


def test_stopping_point_runs_at_a_quarter_of_epsilon_with_threshold_k_over_2(monkeypatch) -> None:
    """Alg. 3 with the module's split: AboveThreshold at eps/4, threshold c = k/2, and its accuracy
    (8/(eps/4)) ln(2M/delta_SV) is the one k was sized with (k >= 4 alpha_SV, REVIEW-000-002 s4e)."""
    n = heavypaths_min_n(3.0, 1e-2, 0.05, 4)
    params = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 4, n)
    svt = observed_stopping_point(monkeypatch, params)
    assert svt.epsilon == pytest.approx(3.0 / 4, rel=1e-12)
    assert svt.threshold == pytest.approx(params.k / 2, rel=1e-12)
    assert params.eps_svt == pytest.approx(3.0 / 4, rel=1e-12)
    alpha_sv = 8 / (3.0 / 4) * np.log(2 * params.databases / (1e-2 / 4))
    assert params.svt_accuracy == pytest.approx(alpha_sv, rel=1e-12)
    assert params.k >= 4 * alpha_sv


def test_first_level_branch_spends_exactly_the_asked_epsilon(monkeypatch) -> None:
    """d_hat = 1: StoppingPoint eps/4 + the HeavyBin over S's elements eps/4 (two counts move under
    replace-one, so twice its per-count epsilon) + the eps/2 booked for the LevelUps = eps, exactly; the
    HeavyBin's delta is the half of delta_rest the module doc gives it."""
    n = heavypaths_min_n(3.0, 1e-2, 0.05, 4)
    params = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 4, n)
    eps_svt, seen = observed_epsilon(monkeypatch, params, np.repeat([3, 12], [n - n // 2, n // 2]))
    [(heavy, heavy_delta)] = seen.heavy
    assert eps_svt == pytest.approx(3.0 / 4, rel=1e-9)
    assert 2 * heavy == pytest.approx(3.0 / 4, rel=1e-9)
    # its delta: half of the 3 delta / (4 e^{eps/4}) left after the SVT failure (REVIEW-000-002 s4f)
    assert heavy_delta == pytest.approx(3 * 1e-2 / (4 * np.exp(3.0 / 4)) / 2, rel=1e-12)
    assert params.level_ups * 2 * params.eps_level_up == pytest.approx(3.0 / 2, rel=1e-12)


def test_one_random_path_branch_spends_exactly_the_asked_epsilon(monkeypatch) -> None:
    """d_hat = 2: OneRandomPath's add/remove epsilon (path eps (B + 1), two HeavyBins, the four-leaf EM)
    is eps/8, so eps/4 after the replace-one conversion (REVIEW-000-002 s4a); with the StoppingPoint's eps/4
    and the LevelUps' eps/2 the run spends eps exactly."""
    n = heavypaths_min_n(3.0, 1e-2, 0.05, 8)
    params = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 8, n)
    eps_svt, seen = observed_epsilon(monkeypatch, params, np.random.default_rng(8).integers(0, 256, n))
    path = max(seen.step_epsilons)
    add_remove = path * (params.balanced_steps + 1) + sum(e for e, _ in seen.heavy) + max(seen.leaf_epsilons)
    assert eps_svt == pytest.approx(3.0 / 4, rel=1e-9)
    assert add_remove == pytest.approx(3.0 / 8, rel=1e-6)


def test_booked_one_random_path_cost_is_an_eighth_then_a_quarter() -> None:
    """The cost HeavyPaths books for OneRandomPath: eps_path (B + 4) = eps/8 under add/remove (path B + 1,
    two HeavyBins, the EM), 2 eps/8 = eps/4 replace-one; its delta (n + 1) d + e^{eps_path (B + 1)} 2 d fits
    half of delta_rest after the conversion (module doc; REVIEW-000-002 s4a, s4f)."""
    n = heavypaths_min_n(3.0, 1e-2, 0.05, 8)
    p = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 8, n)
    add_remove = p.one_random_path_cost
    assert add_remove.epsilon == pytest.approx(3.0 / 8, rel=1e-12)
    path = np.exp(p.eps_path * (p.balanced_steps + 1))
    assert add_remove.delta == pytest.approx((n + 1) * p.delta_path + path * 2 * p.delta_path, rel=1e-12)
    converted = replace_one_from_add_remove(add_remove)
    assert converted.epsilon == pytest.approx(3.0 / 4, rel=1e-12)
    assert converted.delta <= p.delta_rest / 2 * (1 + 1e-12)


@pytest.mark.parametrize(("epsilon", "delta", "n"), [(3.0, 1e-2, None), (0.1, 0.1, 1000)])
def test_booked_cost_composes_stopping_point_branch_and_level_ups(
    epsilon: float, delta: float, n: int | None
) -> None:
    """The replace-one cost HeavyPaths books (module doc; REVIEW-000-002 s4f): eps_SVT + the worse branch's
    eps + the LevelUps' 2 eps_LU each, which is the asked eps exactly; delta_SVT + e^{eps_SVT} (the worse
    branch's delta + the LevelUps' deltas). At eps = 0.1, delta = 0.1 OneRandomPath's delta is far below
    the first-level HeavyBin's, so booking the better branch would under-charge."""
    n = heavypaths_min_n(epsilon, delta, 0.05, 8) if n is None else n
    p = HeavyPathsParameters.build(epsilon, delta, 0.05, 8, n)
    orp = replace_one_from_add_remove(p.one_random_path_cost)
    first = p.first_level_heavy_bin
    branch_delta = max(orp.delta, first.delta) + p.level_ups * p.delta_level_up
    assert p.cost.epsilon == pytest.approx(epsilon, rel=1e-12)
    assert p.cost.delta == pytest.approx(delta / 4 + np.exp(epsilon / 4) * branch_delta, rel=1e-12)
    assert p.cost.delta <= delta * (1 + 1e-12)
