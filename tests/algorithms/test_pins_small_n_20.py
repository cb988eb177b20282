"""Pins TreeLog's constants and booked cost at the smallest public n, and RecConcave's base case at T = 32
(mutation scan 20).

- TreeLog (paper 002 Alg. 1; REVIEW-000-002 s4a-s4c) derives delta0 <= delta_ar/(e^{eps_ar} N (n + 2)) from
  the public n, floored at 2, and its booked add/remove delta runs the recursion (n + 1) delta0 + ... with
  the same floor. The two must use the same n: with n = 1 in the constants the booked delta exceeds the
  requested one (0.00107 > 0.001 at eps = 0.5, 64 bits), with 3 or 4 the constants stop being the
  documented ones.
- RecConcave (paper 000 Fig. 5 step 1): ranges [0, T] with T <= 32 are one exponential mechanism; at
  T = 32 the range is the base case, and the accountant declares one level.
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import recconcave
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import TreeLogParameters, bit_chain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import SeededRandom
from tests.algorithms.test_pins_treelog import expected_constants

CASES = [(1.0, 1e-6, 0.05, 16), (0.5, 1e-3, 0.1, 64), (4.0, 0.1, 0.3, 8)]


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize(("epsilon", "delta", "beta", "bits"), CASES)
def test_treelog_constants_at_the_smallest_n_use_the_floor_of_2(
    epsilon: float, delta: float, beta: float, bits: int, n: int
) -> None:
    """The constants at n = 1, 2, 3 are the recipe's at max(n, 2), the n the booked recursion uses; the
    booked replace-one cost then stays within the requested (eps, delta)."""
    depth = len(bit_chain(bits)) - 1
    p = TreeLogParameters.build(epsilon, delta, beta, bits, n, depth)
    expected = expected_constants(epsilon, delta, beta, bits, max(n, 2), depth)
    assert p.delta0 == pytest.approx(expected["delta0"], rel=1e-12)
    assert p.t == expected["t"]
    assert p.cost.epsilon <= epsilon * (1 + 1e-12)
    assert p.cost.delta <= delta


def test_recconcave_treats_a_range_of_32_as_the_base_case() -> None:
    """T = 32 is the base case: one exponential mechanism, one declared level."""
    quality = recconcave.StepFunction.dense(np.array([min(x, 32 - x) for x in range(33)]))
    params = recconcave.RecConcaveParameters(10.0, 0.5, PrivacyCost(1.0))
    accountant = recconcave.MechanismAccountant(recconcave.levels(32))
    out = run_to_end(recconcave.recconcave(quality, params, SeededRandom(3), accountant))
    assert 0 <= out <= 32
    assert accountant.used == [["exponential"]]
