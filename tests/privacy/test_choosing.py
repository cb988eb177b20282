"""The m-free choosing mechanism (REVIEW-000-002 s2b): the law the code samples has hockey-stick <= delta."""

import math
from dataclasses import dataclass

import numpy as np
import pytest

from dpgui.privacy.choosing import ChoosingParameters, choosing_mechanism
from dpgui.privacy.random import SeededRandom, discrete_laplace_tail
from tests.exact import hockey_stick
from tests.recording import RecordingRandom, smallest_releasing_noise

Groups = dict[str, tuple[int, int]]  # name -> (identical members, score of each)


@dataclass(frozen=True)
class ObservedChoosing:
    """What one run of the code reveals: the noise scale it requests, the integer threshold its release
    decision uses, and the log-weight per unit of score it hands to Gumbel-max."""

    scale: float
    threshold: int
    exponent: float


def observe(params: ChoosingParameters) -> ObservedChoosing:
    scores = np.array([1, 2, 5, 9])
    rng = RecordingRandom(noise=[10**9])  # a huge noisy maximum: never bottom, so the selection runs
    choosing_mechanism(scores, params, rng)
    [scale] = rng.laplace_scales
    [log_weights] = rng.log_weights
    exponent = float(log_weights[1] - log_weights[0])
    np.testing.assert_allclose(log_weights - log_weights[0], exponent * (scores - 1), rtol=1e-12)

    def releases(z: int) -> bool:
        return choosing_mechanism(np.array([1]), params, RecordingRandom(noise=[z])) is not None

    return ObservedChoosing(scale, 1 + smallest_releasing_noise(releases), exponent)


def bottom_probability(best: int, threshold: int, scale: float) -> float:
    """P(best + Z < threshold) for the discrete Laplace Z."""
    k = threshold - best  # output needs Z >= k
    return 1 - discrete_laplace_tail(k, scale) if k >= 0 else discrete_laplace_tail(1 - k, scale)


def choosing_law(groups: Groups, seen: ObservedChoosing) -> dict[object, float]:
    """Exact output law, per member of each group of identically scored solutions."""
    positive = {name: (members, score) for name, (members, score) in groups.items() if members and score > 0}
    if not positive:
        return {None: 1.0}
    best = max(score for _, score in positive.values())
    p_bottom = bottom_probability(best, seen.threshold, seen.scale)
    log_w = {name: seen.exponent * score for name, (_, score) in positive.items()}
    top = max(log_w.values())
    z = math.fsum(members * math.exp(log_w[name] - top) for name, (members, _) in positive.items())
    law: dict[object, float] = {None: p_bottom}
    for name in positive:
        law[name] = (1 - p_bottom) * math.exp(log_w[name] - top) / z
    return law


def divergence(s: Groups, t: Groups, seen: ObservedChoosing, epsilon: float) -> float:
    """Hockey-stick divergence; groups with many identical members count each member."""
    p, q = choosing_law(s, seen), choosing_law(t, seen)
    expanded_p, expanded_q = {None: p[None]}, {None: q[None]}
    for name in set(s) | set(t):
        members = max(s.get(name, (0, 0))[0], t.get(name, (0, 0))[0])
        # Scale one representative by the member count: the divergence terms are identical per member.
        expanded_p[name] = members * p.get(name, 0.0)
        expanded_q[name] = members * q.get(name, 0.0)
    return hockey_stick(expanded_p, expanded_q, epsilon)


def neighbour_pairs(heavy: int, singles: int, k: int):
    """Replace-one moves on a database with one heavy value, one second value and many singletons; and,
    for a quality of growth k, a removed record that lowers k solutions while the added one raises another
    (the move where the selection's normaliser falls most while the maximum rises)."""
    if heavy > 0:
        rival = {"f": (1, heavy), "g": (k, heavy)}
        yield rival, {"f": (1, heavy + 1), "g": (k, heavy - 1)}
    second = max(heavy - 1, 0)
    base = {"a": (1, heavy), "b": (1, second), "s": (singles, 1)}
    yield base | {"u": (1, 1), "v": (1, 0)}, base | {"u": (1, 0), "v": (1, 1)}  # singleton moves
    if heavy > 0:
        yield base, base | {"a": (1, heavy - 1), "b": (1, second + 1)}  # heavy -> second
        yield base | {"v": (1, 0)}, base | {"a": (1, heavy - 1), "v": (1, 1)}  # heavy -> new value
    yield base | {"u": (1, 1)}, base | {"a": (1, heavy + 1), "u": (1, 0)}  # singleton -> heavy


def worst_case(seen: ObservedChoosing, epsilon: float, k: int) -> float:
    worst = 0.0
    for heavy in range(0, 2 * seen.threshold + 9):
        for singles in (0, 1, 10, 1000, 10**6):
            for s, t in neighbour_pairs(heavy, singles, k):
                worst = max(worst, divergence(s, t, seen, epsilon))
    return worst


@pytest.mark.parametrize("epsilon", [0.1, 0.5, 1.0, 2.0])
@pytest.mark.parametrize("delta", [1e-3, 1e-6])
@pytest.mark.parametrize("k", [1, 8])
def test_choosing_mechanism_samples_an_eps_delta_dp_law_for_every_m(epsilon: float, delta: float, k: int):
    """The law built from the observed scale, threshold and exponent, on replace-one neighbours of every
    size, against the (epsilon, delta) asked for."""
    assert worst_case(observe(ChoosingParameters(epsilon, delta, k=k)), epsilon, k) <= delta


def test_epsilon_above_two_is_refused():
    with pytest.raises(ValueError, match="0 < ε <= 2"):
        ChoosingParameters(2.5, 1e-6, 1)


def test_output_is_in_g_or_bottom_and_matches_the_law():
    params = ChoosingParameters(1.0, 1e-3, k=1)
    scores = np.array([int(params.threshold) + 5, 3, 1])
    rng = SeededRandom(31)
    trials = 20_000
    draws = [choosing_mechanism(scores, params, rng) for _ in range(trials)]
    law = choosing_law({str(i): (1, int(s)) for i, s in enumerate(scores)}, observe(params))
    for outcome, expected in [(None, law[None]), (0, law["0"]), (1, law["1"])]:
        hits = sum(d == outcome for d in draws)
        assert abs(hits - trials * expected) < 4 * math.sqrt(trials * expected * (1 - expected)) + 2


def test_empty_g_gives_bottom():
    params = ChoosingParameters(1.0, 1e-6, k=1)
    assert choosing_mechanism(np.array([], dtype=np.int64), params, SeededRandom(1)) is None


def test_heavy_solution_is_found_above_the_utility_threshold():
    params = ChoosingParameters(1.0, 1e-6, k=1)
    beta = 0.05
    heavy = math.ceil(params.min_opt_for_output(beta))
    rng = SeededRandom(32)
    scores = np.array([heavy] + [1] * 500)
    trials = 1000
    good = sum(choosing_mechanism(scores, params, rng) == 0 for _ in range(trials))
    assert good >= trials * (1 - beta) - 3 * math.sqrt(trials * beta)


@pytest.mark.parametrize(("epsilon", "delta", "k"), [(1.0, 1e-6, 1), (0.5, 1e-3, 8)])
def test_choosing_mechanism_uses_the_reviews_constants(epsilon: float, delta: float, k: int):
    """REVIEW-000-002 s2b: noise Lap(4/eps), tau = (8/eps) ln(4k / (eps delta')) with the discrete tail's
    delta' = delta (1 + r) / 2, selection weights exp(eps q / 4); utility (4/eps) ln(2km/beta) and
    tau + (4/eps) ln(1/beta). The exact check above passes larger constants (more noise stays private);
    this one fails on any constant that is not the review's, either way."""
    params = ChoosingParameters(epsilon, delta, k)
    r = math.exp(-epsilon / 4)
    tau = (8 / epsilon) * math.log(4 * k / (epsilon * delta * (1 + r) / 2))
    seen = observe(params)
    assert seen.scale == pytest.approx(4 / epsilon, rel=1e-12)
    assert seen.threshold == math.ceil(tau)
    assert seen.exponent == pytest.approx(epsilon / 4, rel=1e-9)
    assert params.utility_error(m=1000, beta=0.05) == pytest.approx(
        4 / epsilon * math.log(2 * k * 1000 / 0.05)
    )
    assert params.min_opt_for_output(0.05) == pytest.approx(tau + 4 / epsilon * math.log(1 / 0.05))
