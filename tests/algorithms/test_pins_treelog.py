"""Pins TreeLog's public constants to the formulas of the module doc, spec 002 s5 and REVIEW-000-002 s4
(mutation scan 18: the add/remove target delta/(e^{eps/2}) or delta/(2 + e^{eps/2}) survived).

The existing tests check that the cost TreeLog charges (computed from delta0 by the recursion bound) fits
the asked (eps, delta); that stays true with the wrong target, so the mutant passed. The target must be the
one whose group-privacy conversion gives back exactly (eps, delta) (REVIEW-000-002 s4a); delta/e^{eps/2}
converts to (1 + e^{eps/2}) delta / e^{eps/2} > delta. Here every constant is recomputed from its formula.
"""

from __future__ import annotations

import math

import pytest

from dpgui.algorithms.treelog import TreeLogParameters, bit_chain
from dpgui.privacy.heavy_bin import HeavyBinParameters


def expected_constants(epsilon: float, delta: float, beta: float, bits: int, n: int, depth: int) -> dict:
    """The module doc's constants: the add/remove target (eps/2, delta/(1 + e^{eps/2})); beta split over the
    2N + 1 mechanisms; eps0 = eps_ar / (N (B + 3) + 1); delta0 = min(delta_ar / (e^{eps_ar} N (n + 2)),
    eps0 / (4 e^{eps0} n)); g = ln(1/delta0)/eps0; t = ceil(max(2g, HeavyBin's count - 1 + the four-leaf EM
    error)); B = floor(1 + log2((n - g)/(t - g))), iterated to a fixed point; required = 3 t N + 2 (HeavyBin
    count + base EM error)."""
    eps_ar = epsilon / 2
    delta_ar = delta / (1 + math.exp(eps_ar))
    beta1 = beta / (2 * depth + 1)
    steps = 1
    while True:
        eps0 = eps_ar / (depth * (steps + 3) + 1)
        delta0 = min(delta_ar / (math.exp(eps_ar) * depth * (n + 2)), eps0 / (4 * math.exp(eps0) * n))
        g = math.log(1 / delta0) / eps0
        heavy = HeavyBinParameters(eps0, delta0).required_count(n, beta1)
        t = math.ceil(max(2 * g, heavy - 1 + (2 / eps0) * math.log(4 / beta1)))
        needed = max(1, math.floor(1 + math.log2(max(n - g, t - g) / (t - g))))
        if needed <= steps:
            break
        steps = needed
    base_bits = bit_chain(bits)[depth]
    base_em = (2 / eps0) * (base_bits * math.log(2) + math.log(1 / beta1))
    return {
        "eps0": eps0,
        "delta0": delta0,
        "t": t,
        "balanced_steps": steps,
        "required": 3 * t * depth + 2 * (heavy + base_em),
    }


@pytest.mark.parametrize(
    ("epsilon", "delta", "beta", "bits", "n", "depth"),
    [
        (1.0, 1e-6, 0.05, 32, 5000, 1),
        (2.0, 1e-3, 0.1, 8, 3000, 1),
        (1.0, 1e-6, 0.05, 64, 20_000, 2),
        (1.0, 1e-6, 0.05, 32, 100, 1),
        (1.0, 0.5, 0.05, 8, 1000, 1),  # delta0 = eps0 / (4 e^eps0 n), its second term
    ],
)
def test_constants_are_the_formulas(
    epsilon: float, delta: float, beta: float, bits: int, n: int, depth: int
) -> None:
    p = TreeLogParameters.build(epsilon, delta, beta, bits, n, depth)
    expected = expected_constants(epsilon, delta, beta, bits, n, depth)
    assert p.eps0 == pytest.approx(expected["eps0"], rel=1e-12)
    assert p.delta0 == pytest.approx(expected["delta0"], rel=1e-12)
    assert p.t == expected["t"]
    assert p.balanced_steps == expected["balanced_steps"]
    assert p.required == pytest.approx(expected["required"], rel=1e-12)


def test_add_remove_delta_target_converts_back_to_at_most_delta() -> None:
    """The replace-one cost of the add/remove target itself: 2 eps_ar = eps and (1 + e^{eps_ar}) delta_ar =
    delta, so the budget is the asked one before any recursion slack (REVIEW-000-002 s4a)."""
    p = TreeLogParameters.build(1.0, 1e-6, 0.05, 32, 5000, 1)
    eps_ar, delta_ar = 0.5, 1e-6 / (1 + math.exp(0.5))
    assert p.delta0 == pytest.approx(
        min(delta_ar / (math.exp(eps_ar) * 5002), p.eps0 / (4 * math.exp(p.eps0) * 5000))
    )
    assert p.eps0 * (p.balanced_steps + 3 + 1) == pytest.approx(eps_ar, rel=1e-12)
