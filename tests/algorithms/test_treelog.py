"""TreeLog (paper 002 Alg. 1): privacy invariants of spec 002 s10 items 7-10, 13, the path accounting of
Claim 3.5 checked exactly (with a forgotten-budget-split control), the recorded epsilons of every mechanism
composed against the asked budget, utility at n_required, refusal."""

import collections
import dataclasses
import math

import numpy as np
import pytest

from dpgui.algorithms import treelog as module
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import (
    InsufficientData,
    TreeLogParameters,
    bit_length_u64,
    fall_off_levels,
    next_database,
    node_weight,
    sample_path,
    step_log_weights,
    treelog,
    treelog_min_n,
)
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from tests.exact import hockey_stick
from tests.recording import RecordingRandom


def right_step_probability(w_left: int, w_right: int, eps0: float) -> float:
    """P(step right) under the step's log-weights (the law ``gumbel_max`` samples)."""
    weights = step_log_weights(w_left, w_right, eps0)
    return float(np.exp(weights[1] - np.logaddexp(weights[0], weights[1])))


def path_law(points: np.ndarray, bits: int, t: int, eps0: float) -> dict[tuple[int, int], float]:
    """The exact law of :func:`sample_path` by enumerating the tree (small domains only)."""
    law: dict[tuple[int, int], float] = {}

    def walk(level: int, prefix: int, weight: int, prob: float) -> None:
        if level == bits or weight <= t:
            law[(level, prefix)] = law.get((level, prefix), 0.0) + prob
            return
        w0 = node_weight(points, bits, level + 1, 2 * prefix)
        p1 = right_step_probability(w0, weight - w0, eps0)
        if p1 < 1:
            walk(level + 1, 2 * prefix, w0, prob * (1 - p1))
        if p1 > 0:
            walk(level + 1, 2 * prefix + 1, weight - w0, prob * p1)

    walk(0, 0, int(points.size), 1.0)
    return law


def by_prefix(law_big: dict, law_small: dict) -> dict:
    """Group the paths of S' by the path of S that is their prefix (None: no prefix, a weak path)."""
    out: dict = {}
    for (level, prefix), prob in law_big.items():
        key = next(((l0, p0) for l0, p0 in law_small if l0 <= level and prefix >> (level - l0) == p0), None)
        out[key] = out.get(key, 0.0) + prob
    return out


def worst_path_violation(sample_eps: float) -> float:
    """max over random add-one pairs of HS(paths) / ((n + 1) delta0) at the charged eps0 (B + 1)."""
    n, bits, eps0 = 200, 6, 0.5
    delta0 = eps0 / (4 * math.exp(eps0) * n)
    g = math.log(1 / delta0) / eps0
    t = math.ceil(2 * g)
    steps = math.floor(1 + math.log2((n - g) / (t - g)))
    gen = np.random.Generator(np.random.PCG64(1))
    worst = 0.0
    for trial in range(30):
        top = 64 if trial % 2 else 6
        s = np.sort(gen.integers(0, top, n).astype(np.uint64) + np.uint64(trial % 3))
        s2 = np.sort(np.append(s, np.uint64(gen.integers(0, 64))))
        a, b = path_law(s, bits, t, sample_eps), path_law(s2, bits, t, sample_eps)
        worst = max(worst, hockey_stick(a, by_prefix(b, a), eps0 * (steps + 1)) / ((n + 1) * delta0))
    return worst


def test_path_sampling_meets_its_charge_eps0_times_b_plus_1_exactly() -> None:
    assert worst_path_violation(0.5) <= 1.0


def test_control_path_sampled_with_the_unsplit_budget_breaks_the_charge() -> None:
    assert worst_path_violation(4.0) > 1.0  # eps_ar = eps0 (N (B + 3) + 1) = 4 used per step


def test_trimming_maps_neighbours_to_neighbours() -> None:
    gen = np.random.Generator(np.random.PCG64(2))
    for _ in range(200):
        s = gen.integers(0, 50, 30)
        s2 = s.copy()
        s2[gen.integers(0, 30)] = gen.integers(0, 50)
        a, b = collections.Counter(np.sort(s)[5:25]), collections.Counter(np.sort(s2)[5:25])
        assert sum(((a - b) + (b - a)).values()) <= 2


def test_d_construction_differs_by_one_element_for_a_fixed_path() -> None:
    gen = np.random.Generator(np.random.PCG64(3))
    bits, t = 8, 4
    for _ in range(300):
        s = np.sort(gen.integers(0, 256, 60).astype(np.uint64))
        s2 = np.sort(np.append(s, np.uint64(gen.integers(0, 256))))
        level, prefix = int(gen.integers(0, bits + 1)), 0
        prefix = int(gen.integers(0, 1 << level))
        d = next_database(s[t:-t], bits, level, prefix, s.size - 3 * t)
        d2 = next_database(s2[t:-t], bits, level, prefix, s2.size - 3 * t)
        a, b = collections.Counter(d.tolist()), collections.Counter(d2.tolist())
        assert not (a - b) and sum((b - a).values()) == 1


def test_adding_a_point_raises_exactly_one_node_weight_per_level_by_one() -> None:
    gen = np.random.Generator(np.random.PCG64(4))
    bits = 5
    s = np.sort(gen.integers(0, 32, 40).astype(np.uint64))
    s2 = np.sort(np.append(s, np.uint64(17)))
    for level in range(bits + 1):
        diffs = [node_weight(s2, bits, level, p) - node_weight(s, bits, level, p) for p in range(1 << level)]
        assert sorted(diffs)[-1] == 1 and sum(diffs) == 1


def test_bit_length_and_fall_off_levels_are_exact_at_powers_of_two() -> None:
    z = np.array([0, 1, 2, 3, 2**31, 2**32 - 1, 2**32, 2**63, 2**64 - 1], dtype=np.uint64)
    assert bit_length_u64(z).tolist() == [int(v).bit_length() for v in z.tolist()]
    points = np.array([2**63 - 1, 2**63, 2**64 - 1], dtype=np.uint64)
    assert fall_off_levels(points, 64, 64, 2**63).tolist() == [0, 64, 1]
    assert fall_off_levels(points, 64, 0, 0).tolist() == [0, 0, 0]


def test_step_probability_is_the_softmax_survives_overflow_and_never_picks_an_empty_child() -> None:
    for w0, w1, eps in [(3, 5, 0.7), (10, 2, 0.1), (7, 7, 1.0)]:
        expected = math.exp(eps * w1) / (math.exp(eps * w0) + math.exp(eps * w1))
        assert right_step_probability(w0, w1, eps) == pytest.approx(expected, rel=1e-12)
    assert right_step_probability(10**6, 10**6 - 3, 1.0) == pytest.approx(math.exp(-3) / (1 + math.exp(-3)))
    assert 0.0 <= right_step_probability(2 * 10**6, 10**6, 1.0) < 1e-300
    assert right_step_probability(0, 10**6, 1.0) == 1.0 and right_step_probability(10**6, 0, 1e-9) == 0.0
    rng = SeededRandom(6)
    heavy_right = np.array([1] * 3 + [3] * 5, dtype=np.uint64)  # 1-bit domain: w0 = 3, w1 = 5
    steps = [sample_path(heavy_right, 2, 0, 0.3, rng)[1] >> 1 for _ in range(4000)]
    p1 = right_step_probability(3, 5, 0.3)
    assert abs(np.mean(steps) - p1) < 4 * math.sqrt(p1 * (1 - p1) / 4000)
    only_right = np.full(50, 3, dtype=np.uint64)
    assert all(sample_path(only_right, 2, 0, 1e-6, rng) == (2, 3) for _ in range(200))


def test_parameters_are_a_pure_function_of_public_inputs_and_fit_the_budget() -> None:
    a = TreeLogParameters.build(1.0, 1e-6, 0.05, 32, 5000)
    assert a == TreeLogParameters.build(1.0, 1e-6, 0.05, 32, 5000)
    assert a.cost.epsilon <= 1.0 * (1 + 1e-12) and a.cost.delta <= 1e-6 * (1 + 1e-12)
    assert a.t >= 2 * math.log(1 / a.delta0) / a.eps0
    assert a.delta0 <= a.eps0 / (4 * math.exp(a.eps0) * a.n)
    assert a.n_required == treelog_min_n(1.0, 1e-6, 0.05, 32, a.depth) < 5000


def test_refuses_below_n_required_before_reading_the_data() -> None:
    params = TreeLogParameters.build(1.0, 1e-6, 0.05, 32, 1900)
    with pytest.raises(InsufficientData) as caught:
        next(treelog(None, None, params, SeededRandom(0)))  # type: ignore[arg-type]
    assert caught.value.min_n == params.n_required > 1900
    assert "needs n >=" in str(caught.value)


def binomial_quantile(trials: int, p: float, level: float) -> int:
    """The smallest k with P(Bin(trials, p) <= k) >= level."""
    total = 0.0
    for k in range(trials + 1):
        total += math.comb(trials, k) * p**k * (1 - p) ** (trials - k)
        if total >= level:
            return k
    return trials


def families(n: int, bits: int, gen: np.random.Generator) -> dict[str, np.ndarray]:
    top = 2**bits
    half = 2 ** (bits - 1)
    alt = np.arange(n) % 2 == 0
    return {
        "uniform": gen.integers(0, top, n, dtype=np.uint64),
        "all equal": np.full(n, 12345, dtype=np.uint64),
        "adjacent across 2^(L-1)": np.where(alt, half - 1, half).astype(np.uint64),
        "extremes": np.where(alt, 0, top - 1).astype(np.uint64),
        "tight cluster": (np.uint64(2 ** (bits - 3)) + gen.integers(0, 4, n).astype(np.uint64)),
    }


def test_output_is_interior_at_n_required_on_hard_families() -> None:
    eps, delta, beta, bits = 1.0, 1e-6, 0.05, 32
    n = treelog_min_n(eps, delta, beta, bits)
    params = TreeLogParameters.build(eps, delta, beta, bits, n)
    rng = SeededRandom(7)
    runs = 200
    allowed = binomial_quantile(runs, beta, 0.999)
    for name, data in families(n, bits, np.random.Generator(np.random.PCG64(8))).items():
        values, counts = np.unique(data, return_counts=True)
        failures = 0
        for _ in range(runs):
            out = run_to_end(treelog(values, counts, params, rng)).index
            failures += out is None or not int(values[0]) <= out <= int(values[-1])
        assert failures <= allowed, name


def test_all_equal_data_returns_that_value() -> None:
    n = treelog_min_n(1.0, 1e-6, 0.05, 20)
    params = TreeLogParameters.build(1.0, 1e-6, 0.05, 20, n)
    rng = SeededRandom(9)
    outs = [
        run_to_end(treelog(np.array([777], np.uint64), np.array([n]), params, rng)).index for _ in range(50)
    ]
    assert outs.count(777) >= 48


def test_forced_below_the_requirement_it_degrades_to_a_domain_value_or_bottom() -> None:
    params = TreeLogParameters.build(1.0, 1e-6, 0.05, 16, 2000)
    rng = SeededRandom(10)
    for n in (0, 1, 50, 2000):
        data = np.random.Generator(np.random.PCG64(n)).integers(0, 2**16, n).astype(np.uint64)
        values, counts = np.unique(data, return_counts=True)
        out = run_to_end(treelog(values, counts, params, rng, allow_below_requirement=True)).index
        assert out is None or 0 <= out < 2**16


def empirical_law(run, data: list[int], runs: int) -> dict[object, float]:
    """Output frequencies of ``run(values, counts)`` over ``runs`` draws."""
    values, counts = np.unique(np.array(data, dtype=np.uint64), return_counts=True)
    tally = collections.Counter(run(values, counts) for _ in range(runs))
    return {o: c / runs for o, c in tally.items()}


def audit_violation(p: dict, q: dict, epsilon: float, delta: float, runs: int) -> float:
    """max over outputs and directions of P_low(o) - e^eps Q_high(o) - delta, with 4-sigma binomial
    bounds (plus 16/runs for rare outputs); > 0 means the claim (eps, delta) is violated."""
    factor = math.exp(epsilon)

    def low(x: float) -> float:
        return x - 4 * math.sqrt(x * (1 - x) / runs) - 1 / runs

    def high(x: float) -> float:
        return x + 4 * math.sqrt(x * (1 - x) / runs) + 16 / runs

    return max(
        low(a.get(o, 0.0)) - factor * high(b.get(o, 0.0)) - delta
        for a, b in ((p, q), (q, p))
        for o in set(a) | set(b)
    )


def treelog_audit(params: TreeLogParameters, claim: PrivacyCost, seed: int, runs: int) -> float:
    """Audit on a 4-bit domain: 400 records at 7 and 400 at 8 (an exact inner-left/inner-right tie) against
    one record moved from 8 to 7, checked against the claimed replace-one cost."""
    rng = SeededRandom(seed)

    def run(values, counts):
        return run_to_end(treelog(values, counts, params, rng, allow_below_requirement=True)).index

    s, s2 = [7] * 400 + [8] * 400, [7] * 401 + [8] * 399
    p, q = empirical_law(run, s, runs), empirical_law(run, s2, runs)
    return audit_violation(p, q, claim.epsilon, claim.delta, runs)


def test_monte_carlo_audit_on_a_4_bit_domain_with_a_large_per_step_epsilon() -> None:
    params = TreeLogParameters.build(3.0, 1e-2, 0.05, 4, 800)  # eps0 = 0.19 per mechanism, t = 196
    assert params.eps0 > 0.15 and params.n > 3 * params.t and params.cost.epsilon <= 3.0 * (1 + 1e-12)
    assert treelog_audit(params, params.cost, 20, 1200) <= 0


def test_control_monte_carlo_audit_flags_a_per_step_epsilon_far_above_the_split() -> None:
    params = TreeLogParameters.build(3.0, 1e-2, 0.05, 4, 800)
    unsplit = dataclasses.replace(params, eps0=params.eps0 * 1000)  # every step far above its share
    assert treelog_audit(unsplit, params.cost, 21, 1200) > 0


@dataclasses.dataclass
class Observed:
    """What one TreeLog run handed its mechanisms, as the code computed it."""

    step_epsilons: list[float] = dataclasses.field(default_factory=list)
    heavy: list[tuple[float, float]] = dataclasses.field(default_factory=list)  # (1 / scale, delta)
    leaf_epsilons: list[float] = dataclasses.field(default_factory=list)
    base_epsilons: list[float] = dataclasses.field(default_factory=list)


def record_mechanisms(monkeypatch: pytest.MonkeyPatch, rng: RecordingRandom, *modules) -> Observed:
    """Record, as ``rng`` runs TreeLog's mechanisms: each path step's epsilon from the probability the code
    computes (logit / weight difference); HeavyBin's epsilon per unit of sensitivity from the noise scale it
    requests (the caller's neighbour model fixes the sensitivity: 1 per bin under add/remove); the four-leaf
    EM's from its log-weights per unit of score (sensitivity 1: eps = 2 x that); the epsilon the base EM is
    called with (its law is observed in its own tests). ``modules`` also import heavy_bin (HeavyPaths)."""
    seen = Observed()
    real_step, real_heavy, real_em, real_base = (
        module.step_log_weights,
        module.heavy_bin,
        module.exponential_mechanism,
        module.em_interior_point,
    )

    def step(w_left: int, w_right: int, eps0: float) -> np.ndarray:
        weights = real_step(w_left, w_right, eps0)
        if np.isfinite(weights).all() and w_left != w_right:
            seen.step_epsilons.append(float(weights[1] - weights[0]) / (w_right - w_left))
        return weights

    def heavy(counts, heavy_params, random):
        before = len(rng.requests)
        out = real_heavy(counts, heavy_params, random)
        seen.heavy += [(1 / r.scale, heavy_params.delta) for r in rng.requests[before:]]
        return out

    def leaves(scores, epsilon, random):
        before = len(rng.log_weights)
        out = real_em(scores, epsilon, random)
        weights, scores = rng.log_weights[before], np.asarray(scores, dtype=np.float64)
        i, j = int(np.argmax(scores)), int(np.argmin(scores))
        if scores[i] > scores[j]:
            seen.leaf_epsilons.append(2 * (weights[i] - weights[j]) / (scores[i] - scores[j]))
        return out

    def base(values, counts, domain_size, epsilon, random):
        seen.base_epsilons.append(epsilon)
        return real_base(values, counts, domain_size, epsilon, random)

    monkeypatch.setattr(module, "step_log_weights", step)
    monkeypatch.setattr(module, "exponential_mechanism", leaves)
    monkeypatch.setattr(module, "em_interior_point", base)
    for target in (module, *modules):
        monkeypatch.setattr(target, "heavy_bin", heavy)
    return seen


@pytest.mark.parametrize(("epsilon", "delta", "bits", "n"), [(3.0, 1e-2, 4, 800), (2.0, 1e-3, 8, 3000)])
def test_observed_mechanisms_compose_within_the_asked_epsilon_delta(monkeypatch, epsilon, delta, bits, n):
    """REVIEW-000-002 s4a-s4c: per level the path costs eps0 (B + 1) with delta (n + 1) delta0 (t >= 2g,
    delta0 <= eps0 / (4 e^eps0 n)), HeavyBin (eps0, delta0), the four-leaf EM eps0, the base EM eps0; the
    add/remove total (eps_ar, delta_ar) doubles to replace-one as (2 eps_ar, (1 + e^eps_ar) delta_ar). Every
    eps0 and delta0 here is the one the code used, and the total must fit the asked (epsilon, delta)."""
    params = TreeLogParameters.build(epsilon, delta, 0.05, bits, n)
    rng = RecordingRandom(7, zero=True)  # noise 0: HeavyBin releases the heaviest node
    seen = record_mechanisms(monkeypatch, rng)
    values, counts = np.unique(np.random.default_rng(bits).integers(0, 2**bits, n), return_counts=True)
    run_to_end(treelog(values.astype(np.uint64), counts, params, rng, allow_below_requirement=True))
    assert seen.step_epsilons and seen.heavy and seen.leaf_epsilons and seen.base_epsilons
    assert len(seen.heavy) == len(seen.leaf_epsilons) == params.depth  # one of each per tree level
    path = max(seen.step_epsilons)
    heavy, delta0 = max(e for e, _ in seen.heavy), max(d for _, d in seen.heavy)
    g = math.log(1 / delta0) / path
    assert params.t >= 2 * g and delta0 <= path / (4 * math.exp(path) * n)
    steps = math.floor(1 + math.log2((n - g) / (params.t - g)))
    assert params.balanced_steps >= steps
    per_level = path * (params.balanced_steps + 1) + heavy + max(seen.leaf_epsilons)
    eps_ar = params.depth * per_level + max(seen.base_epsilons)
    delta_ar = 0.0
    for _ in range(params.depth):
        delta_ar = (n + 1) * delta0 + math.exp(path * (params.balanced_steps + 1)) * (delta_ar + delta0)
    assert 2 * eps_ar <= epsilon * (1 + 1e-9)
    assert (1 + math.exp(eps_ar)) * delta_ar <= delta * (1 + 1e-9)
