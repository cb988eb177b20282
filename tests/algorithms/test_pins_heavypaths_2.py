"""Pins every constant HeavyPathsParameters.build derives, against a recomputation from the module doc
(mutation scan 19).

The scan-18 pins check the budget the run spends and books. The utility side of build (beta split,
the OneRandomPath fixed point, the requirements k, t and n_required) and the deltas it hands the
mechanisms were not compared with anything: beta/(M + 2), beta/(M + 3), beta/(M + 5), beta/(M + 8), beta
(M + 4), and delta_rest = 2 delta/(4 e^{eps/4}) all survived. The reference below restates the module
doc's recipe (spec 002 s6 with REVIEW-000-002 s4a, s4d-s4f) term by term.

A steered StoppingPoint then takes each branch to pin what the run does with these constants: the
database sizes |S_d| - 3t (guarded at 0), the LevelUp's level min(y, L_d), and the statistic the sparse
vector is asked about (the largest multiplicity, 0 for an empty database).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import heavypaths as module
from dpgui.algorithms.heavypaths import HeavyPathsParameters, heavypaths, heavypaths_min_n
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import bit_chain
from dpgui.privacy.heavy_bin import HeavyBinParameters
from tests.recording import RecordingRandom


def reference(epsilon: float, delta: float, beta: float, bits: int, n: int) -> dict[str, float]:
    """The constants of one HeavyPaths run, from the module doc:

    * M databases (the bit chain), at most max(1, M - 2) LevelUps; beta/(M + 4) per utility event.
    * delta: delta/4 to the SVT failure; delta_rest = 3 delta/(4 e^{eps/4}), half to OneRandomPath (its
      add/remove delta' = (delta_rest/2)/(1 + e^{eps'}), eps' = eps/8) and half over the LevelUps.
    * eps: eps/4 StoppingPoint, eps' = eps/8 add/remove OneRandomPath split over B + 4 mechanisms, eps/4
      over the LevelUps' HeavyBins (replace-one, so 2 eps_LU each: eps/2 in all).
    * OneRandomPath's per-mechanism delta min(delta'/((n + 1) + 2 e^{eps_o (B + 1)}), eps_o/(4 e^{eps_o} n)),
      B the balanced-step count, a fixed point from B = 1 (REVIEW s4c).
    * k >= 4 alpha_SV (alpha_SV = (8/(eps/4)) ln(2M/delta_SV), REVIEW s4e) and >= 4x the HeavyBin
      requirements; t >= 2k (REVIEW s4d), >= 2(levels + g), and the LevelUp's HeavyBin + EM need.
    * n_required = max(10t + 3t(M - 2)^+ + 1, 3t(M - 1) + k 2^{last chain bits}).
    """
    chain = bit_chain(bits)
    m = len(chain)
    n_pub = max(n, 2)
    level_ups = max(1, m - 2)
    beta1 = beta / (m + 4)
    delta_svt = delta / 4
    delta_rest = 3 * delta / (4 * math.exp(epsilon / 4))
    eps_prime = epsilon / 8
    delta_prime = delta_rest / 2 / (1 + math.exp(eps_prime))
    eps_level_up = epsilon / 4 / level_ups
    delta_level_up = delta_rest / 2 / level_ups
    level_up = HeavyBinParameters(eps_level_up, delta_level_up, replace_one=True)
    em4_level_up = 2 / eps_level_up * math.log(4 / beta1)
    svt_alpha = 8 / (epsilon / 4) * math.log(2 * m / delta_svt)
    first = HeavyBinParameters(epsilon / 4, delta_rest / 2, replace_one=True).required_count(n_pub, beta1)
    steps = 1
    while True:
        eps_path = eps_prime / (steps + 4)
        delta_path = min(
            delta_prime / (n_pub + 1 + 2 * math.exp(eps_path * (steps + 1))),
            eps_path / (4 * math.exp(eps_path) * n_pub),
        )
        g = math.log(1 / delta_path) / eps_path
        heavy = HeavyBinParameters(eps_path, delta_path)
        levels = max(
            heavy.required_count(bits + 1, beta1) + 2 * heavy.noise_bound(bits + 1, beta1),
            heavy.required_count(n_pub, beta1),
        )
        k = math.ceil(max(4 * svt_alpha, 4 * levels, 4 * first))
        em4 = 2 / eps_path * math.log(4 / beta1)
        need_level_up = level_up.required_count(n_pub, beta1) - 1 + max(em4, em4_level_up)
        t = math.ceil(max(2 * k, 2 * (levels + g), need_level_up))
        needed = max(1, math.floor(1 + math.log2(max(n_pub - g, t - g) / (t - g))))
        if needed <= steps:
            break
        steps = needed
    required = max(10 * t + 3 * t * max(m - 2, 0) + 1, 3 * t * (m - 1) + k * 2 ** chain[-1])
    return dict(
        k=k, t=t, balanced_steps=steps, eps_path=eps_path, delta_path=delta_path, eps_level_up=eps_level_up,
        delta_level_up=delta_level_up, delta_svt=delta_svt, required=required,
    )  # fmt: skip


CASES = [
    (1.0, 1e-6, 0.05, 32, 10**5),
    (3.0, 1e-2, 0.05, 4, 50),  # M = 2: one LevelUp slot booked
    (0.5, 1e-4, 0.2, 64, 10**9),  # large n: several balanced steps
    (2.0, 1e-3, 0.01, 8, 1),  # n below 2: the public count is taken as 2
    (1.0, 1e-10, 0.5, 4, 1),  # the SVT margin 4 alpha_SV comes within 2x of the HeavyBin term
    (0.05, 1e-3, 0.01, 4, 10**8),  # delta_path's second term eps_o/(4 e^{eps_o} n) binds
    (0.5, 0.1, 0.3, 64, 10**5),  # g = ln(1/delta_path)/eps_o decides the balanced-step count B
    (0.05, 1e-6, 0.01, 8, 10**8),
    (10.0, 1e-12, 0.01, 4, 1),  # large eps: a slip in alpha_SV's 8/(eps/4) reaches k
    (0.05, 0.9, 0.01, 4, 1),  # large delta: the first-level HeavyBin's delta_rest/2 must stay below 1
]


@pytest.mark.parametrize(("epsilon", "delta", "beta", "bits", "n"), CASES)
def test_build_derives_the_module_docs_constants(
    epsilon: float, delta: float, beta: float, bits: int, n: int
) -> None:
    """Every derived field of build equals the module doc's recipe (see :func:`reference`)."""
    params = HeavyPathsParameters.build(epsilon, delta, beta, bits, n)
    expected = reference(epsilon, delta, beta, bits, n)
    for name, value in expected.items():
        assert getattr(params, name) == pytest.approx(value, rel=1e-12), name
    assert params.delta_rest == pytest.approx(3 * delta / (4 * math.exp(epsilon / 4)), rel=1e-12)


@pytest.mark.parametrize(("epsilon", "delta", "bits"), [(1.0, 1e-6, 32), (3.0, 1e-2, 4)])
def test_min_n_is_the_least_fixed_point_of_the_requirement(epsilon: float, delta: float, bits: int) -> None:
    """heavypaths_min_n: the n from which build's requirement is met (iterated from 16, spec 002 s6)."""
    n = heavypaths_min_n(epsilon, delta, 0.05, bits)
    assert math.ceil(reference(epsilon, delta, 0.05, bits, n)["required"]) <= n
    assert math.ceil(reference(epsilon, delta, 0.05, bits, n - 1)["required"]) > n - 1


class StopAt:
    """A StoppingPoint stand-in answering "above" first at database ``d`` (the branch taken is then
    d_hat = d; what follows is post-processing of that answer and the mechanisms' own draws)."""

    def __init__(self, d: int) -> None:
        self.d, self.asked = d, 0
        self.values: list[float] = []

    def __call__(self, params: object, rng: object) -> StopAt:
        return self

    def is_above(self, value: float) -> bool:
        self.values.append(value)
        self.asked += 1
        return self.asked == self.d


def steered_run(
    monkeypatch: pytest.MonkeyPatch, stop: int, n: int
) -> tuple[list, list, HeavyPathsParameters]:
    """Run HeavyPaths on 8-bit data (M = 3) with d_hat = ``stop``, recording next_database and lift calls."""
    databases: list[tuple[int, int, int]] = []
    lifts: list[tuple[int, int, int | None]] = []
    real_next, real_lift = module.next_database, module.lift

    def next_database(trimmed, bits, path_length, path, size):
        out = real_next(trimmed, bits, path_length, path, size)
        databases.append((trimmed.size, size, out.size))
        return out

    def lift(points, trimmed, bits, level, heavy, epsilon, rng):
        out = real_lift(points, trimmed, bits, level, heavy, epsilon, rng)
        lifts.append((bits, level, out))
        return out

    stopper = StopAt(stop)
    monkeypatch.setattr(module, "SparseVector", stopper)
    monkeypatch.setattr(module, "next_database", next_database)
    monkeypatch.setattr(module, "lift", lift)
    params = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 8, n)
    values, counts = np.unique(np.random.default_rng(8).integers(0, 256, n), return_counts=True)
    rng = RecordingRandom(5, zero=True)
    run_to_end(heavypaths(values.astype(np.uint64), counts, params, rng, allow_below_requirement=True))
    return databases, lifts, params, stopper, counts


@pytest.mark.parametrize(("stop", "small"), [(2, False), (3, False), (2, True)])
def test_each_database_keeps_size_minus_3t_fall_off_levels(monkeypatch, stop: int, small: bool) -> None:
    """ConstructPaths and OneRandomPath (spec 002 s6.1, s6.3): S_{d+1} (and OneRandomPath's D) is the
    |S_d| - 3t smallest fall-off levels of the trimmed S_d (|trimmed| = |S_d| - 2t), none when
    |S_d| <= 3t; the LevelUp lifts at level min(y, L_d) of the level y found one database down."""
    n = 1000 if small else heavypaths_min_n(3.0, 1e-2, 0.05, 8)  # small: |S_1| < 2t, S_2 = S_3 = {}
    databases, lifts, params, _, _ = steered_run(monkeypatch, stop, n)
    t = params.t
    if small:
        assert 2 * t > 1000 and all(trimmed == 0 for trimmed, _, _ in databases)
    assert databases and all(size == max(trimmed - t, 0) for trimmed, size, _ in databases)
    assert all(out == min(size, trimmed) for trimmed, size, out in databases)
    if stop == 3:
        (_, _, y), (bits, level, _) = lifts
        assert y is not None and y < bits  # the case where min(y, bits) and max(y, bits) differ
        assert level == min(y, bits)


@pytest.mark.parametrize("small", [False, True])
def test_stopping_point_asks_about_each_databases_largest_multiplicity(monkeypatch, small: bool) -> None:
    """Alg. 3 (spec 002 s6.2): f_d = the largest multiplicity in S_d (sensitivity 1), 0 for an empty S_d."""
    n = 1000 if small else heavypaths_min_n(3.0, 1e-2, 0.05, 8)
    _, _, _, stopper, counts = steered_run(monkeypatch, 3, n)
    assert stopper.values[0] == counts.max()
    if small:
        assert stopper.values[1:] == [0, 0]
    else:
        assert all(value > 0 for value in stopper.values)
