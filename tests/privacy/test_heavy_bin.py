"""HeavyBin: the law the code samples (observed scale and threshold) has hockey-stick <= delta."""

import math

import numpy as np
import pytest

from dpgui.privacy.heavy_bin import HeavyBinParameters, heavy_bin
from dpgui.privacy.random import SeededRandom
from tests.exact import discrete_laplace_pmf, hockey_stick
from tests.recording import RecordingRandom, smallest_releasing_noise


def observe(params: HeavyBinParameters) -> tuple[float, int]:
    """(noise scale, integer threshold) of the code: the scale it requests, and the smallest noisy count
    it keeps (found by steering the noise of a single bin of count 1)."""
    rng = RecordingRandom(zero=True)
    heavy_bin(np.array([1, 1]), params, rng)
    [request] = rng.requests
    assert request.size == 2

    def releases(z: int) -> bool:
        return heavy_bin(np.array([1]), params, RecordingRandom(noise=[z])) is not None

    return request.scale, 1 + smallest_releasing_noise(releases)


def exact_law(counts: dict[str, int], b: float, threshold: int) -> dict[object, float]:
    """P(output) by summing over every noise vector (truncated where the tail mass is < 1e-16)."""
    labels = sorted(label for label, count in counts.items() if count > 0)
    if not labels:
        return {None: 1.0}
    reach = math.ceil(b * math.log(1e16)) + 2
    z = np.arange(-reach, reach + 1)
    pmf = discrete_laplace_pmf(z, b)
    grids = np.meshgrid(*([z] * len(labels)), indexing="ij")
    probs = np.ones_like(grids[0], dtype=np.float64)
    for axis in range(len(labels)):
        shape = [1] * len(labels)
        shape[axis] = z.size
        probs = probs * pmf.reshape(shape)
    noisy = np.stack([counts[label] + g for label, g in zip(labels, grids, strict=True)])
    masked = np.where(noisy >= threshold, noisy, -(10**9))
    winner = np.argmax(masked, axis=0)
    none = masked.max(axis=0) < threshold
    law: dict[object, float] = {None: float(probs[none].sum())}
    for i, label in enumerate(labels):
        law[label] = float(probs[(winner == i) & ~none].sum())
    return law


def neighbour_pairs(replace_one: bool, tau: int):
    """Adversarial configurations: empty vs a singleton, a new bin next to heavy ones, moves between bins."""
    heavy = tau + 2
    bases = [{}, {"a": 1}, {"a": heavy}, {"a": heavy, "b": tau - 1}, {"a": tau, "b": tau}, {"a": 2}]
    for base in bases:
        if replace_one:
            for src in base:
                for dst in ("a", "b", "c"):
                    if dst != src:
                        other = dict(base)
                        other[src] -= 1
                        other[dst] = other.get(dst, 0) + 1
                        yield base, other
        else:
            for dst in ("a", "b", "c"):
                other = dict(base)
                other[dst] = other.get(dst, 0) + 1
                yield base, other


@pytest.mark.parametrize("replace_one", [False, True])
@pytest.mark.parametrize(("epsilon", "delta"), [(1.0, 1e-3), (2.0, 1e-3)])
def test_heavy_bin_samples_an_eps_delta_dp_law(replace_one: bool, epsilon: float, delta: float) -> None:
    """The law built from the observed scale and threshold, in the chosen neighbour model, against the
    (epsilon, delta) asked for."""
    scale, threshold = observe(HeavyBinParameters(epsilon, delta, replace_one))
    for s, s2 in neighbour_pairs(replace_one, threshold):
        p, q = exact_law(s, scale, threshold), exact_law(s2, scale, threshold)
        assert hockey_stick(p, q, epsilon) <= delta + 1e-12


def test_heavy_bin_returns_the_heavy_bin_and_never_an_empty_one() -> None:
    params = HeavyBinParameters(1.0, 1e-6)
    need = params.required_count(3, 0.01)
    rng = SeededRandom(5)
    outs = [heavy_bin(np.array([1, need + 20, 2]), params, rng) for _ in range(300)]
    assert outs.count(1) >= 297
    assert heavy_bin(np.zeros(0, dtype=np.int64), params, rng) is None
    with pytest.raises(ValueError):
        heavy_bin(np.array([0, 3]), params, rng)


@pytest.mark.parametrize("replace_one", [False, True])
def test_heavy_bin_uses_the_specs_constants(replace_one: bool) -> None:
    """Spec 002 s3.3 / REVIEW-000-002 s4g: b = 1/eps (add/remove) or 2/eps (replace-one), tau = 1 +
    ceil(b ln(1 / ((1 + r) delta))), a = ceil(b ln(2m/beta)) and the required count max(tau + a, 1 + 2a).
    The exact check above passes larger constants (still private); this one fails on any other constant."""
    epsilon, delta = 0.5, 1e-6
    b = (2 if replace_one else 1) / epsilon
    tau = 1 + math.ceil(b * math.log(1 / ((1 + math.exp(-1 / b)) * delta)))
    params = HeavyBinParameters(epsilon, delta, replace_one)
    assert observe(params) == (pytest.approx(b, rel=1e-12), tau)
    a = math.ceil(b * math.log(2 * 40 / 0.05))
    assert params.noise_bound(40, 0.05) == a
    assert params.required_count(40, 0.05) == max(tau + a, 1 + 2 * a)
