"""Pins the cost TreeLog books to the ledger (mutation scan 19).

The existing tests check that the booked replace-one cost is at most the asked (eps, delta), so a booked
epsilon of eps0/(N (B + 3) + 1), eps0 (N (B + 2) + 1) or eps0 (N (B + 3)), a path factor e^{eps0 (B + 2)} or
e^{eps0 B}, or min(n, 2) weak-path records instead of max(n, 2) survived: each books less than TreeLog
spends, or a different delta, and still fits the target. Here the booked cost is recomputed.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import treelog as module
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import TreeLogParameters, TreeLogStep, bit_chain, treelog
from dpgui.privacy.random import SeededRandom


@pytest.mark.parametrize(
    ("epsilon", "delta", "beta", "bits", "n", "depth"),
    [
        (1.0, 1e-6, 0.05, 32, 5000, 1),
        (1.0, 1e-6, 0.05, 64, 20_000, 2),
        (2.0, 1e-3, 0.1, 8, 1, 1),  # one record: the weak-path count uses n = 2
    ],
)
def test_booked_cost_is_the_recursion(
    epsilon: float, delta: float, beta: float, bits: int, n: int, depth: int
) -> None:
    """REVIEW-000-002 s4c and the module doc: add/remove eps0 (N (B + 3) + 1) = eps/2; delta by the
    recursion delta_level = (n + 1) delta0 + e^{eps0 (B + 1)} (delta_inner + delta0) over the N levels
    (n taken as at least 2); the ledger is charged its replace-one conversion (2 eps, (1 + e^eps) delta)."""
    p = TreeLogParameters.build(epsilon, delta, beta, bits, n, depth)
    steps, eps0, delta0 = p.balanced_steps, p.eps0, p.delta0
    add_remove = p.add_remove_cost
    assert add_remove.epsilon == pytest.approx(eps0 * (depth * (steps + 3) + 1), rel=1e-12)
    assert add_remove.epsilon == pytest.approx(epsilon / 2, rel=1e-12)
    level = 0.0
    for _ in range(depth):
        level = (max(n, 2) + 1) * delta0 + math.exp(eps0 * (steps + 1)) * (level + delta0)
    assert add_remove.delta == pytest.approx(level, rel=1e-12)
    assert p.cost.epsilon == pytest.approx(epsilon, rel=1e-12)
    assert p.cost.delta == pytest.approx((1 + math.exp(epsilon / 2)) * level, rel=1e-12)
    assert p.cost.delta <= delta * (1 + 1e-12)


@pytest.mark.parametrize(("bits", "n", "depth"), [(8, 50, 1), (8, 3000, 1), (32, 20_000, 2)])
def test_base_exponential_mechanism_ranges_over_the_levels_domain(
    monkeypatch: pytest.MonkeyPatch, bits: int, n: int, depth: int
) -> None:
    """Spec 002 s5.2 (paper 002 Alg. 1 base case): the exponential mechanism at the bottom of the recursion
    chooses among the 2^{bits} values of that level's domain (the full L-bit domain when the public size
    leaves no room for another level), never beyond it; the progress reports each level's public size."""
    seen: list[tuple[int, float]] = []
    real = module.em_interior_point

    def em(values, counts, domain_size, epsilon, rng):
        seen.append((domain_size, epsilon))
        return real(values, counts, domain_size, epsilon, rng)

    monkeypatch.setattr(module, "em_interior_point", em)
    params = TreeLogParameters.build(1.0, 1e-6, 0.05, bits, n, depth)
    values = np.arange(0, n, dtype=np.uint64) % np.uint64(1 << min(bits, 16))
    points, counts = np.unique(values, return_counts=True)
    steps: list[TreeLogStep] = []
    run = treelog(points, counts, params, SeededRandom(3), allow_below_requirement=True)
    run_to_end(run, lambda p: steps.append(p.partial) if isinstance(p.partial, TreeLogStep) else None)
    [(domain_size, epsilon)] = seen
    chain = bit_chain(bits)
    levels_run = 0 if n <= 3 * params.t else depth
    assert domain_size == 1 << chain[levels_run]
    assert epsilon == params.eps0
    # each level trims t from both ends and keeps |S| - 3t fall-off points (spec 002 s5.2): public sizes
    assert [(s.level, s.bits, s.size) for s in steps] == [
        (level, chain[level], n - 3 * params.t * level) for level in range(levels_run + 1)
    ]
