"""HeavyBin's threshold at many (epsilon, delta): an appearing bin is released with probability <= delta.

Mutation scan h25a: computing the threshold with r = exp(-1/(2b)) instead of exp(-1/b) lowers it by one at
about a third of the (epsilon, delta) of the grid below (e.g. eps 0.7, delta 1e-6: released w.p. 1.12 delta),
yet left the exact checks at (1, 1e-3), (2, 1e-3) and the constants pin at (0.5, 1e-6) unchanged. The worst
neighbouring pair for delta is the empty data set against one record (the bin goes from absent to count 1:
released iff 1 + Z >= tau), so its exact release probability, from the observed scale and threshold, is
checked here at each point; and the threshold is the smallest that keeps it (module doc).
"""

from __future__ import annotations

import pytest

from dpgui.privacy.heavy_bin import HeavyBinParameters
from tests.exact import hockey_stick
from tests.privacy.test_heavy_bin import exact_law, observe
from tests.recording import at_least

GRID = [
    (eps, delta, replace_one)
    for eps in (0.2, 0.3, 0.7, 1.5, 3.0)
    for delta in (1e-2, 1e-3, 1e-6, 1e-9)
    for replace_one in (False, True)
]


@pytest.mark.parametrize(("epsilon", "delta", "replace_one"), GRID)
def test_an_appearing_bin_is_released_with_probability_at_most_delta(
    epsilon: float, delta: float, replace_one: bool
) -> None:
    scale, threshold = observe(HeavyBinParameters(epsilon, delta, replace_one))
    released = at_least(threshold - 1, scale)  # P(1 + Z >= tau)
    assert released <= delta * (1 + 1e-12)
    # the same from the exact law of the pair (empty, one record) in the chosen neighbour model
    assert hockey_stick(exact_law({}, scale, threshold), exact_law({"a": 1}, scale, threshold), epsilon) <= (
        delta * (1 + 1e-12)
    )
    if threshold > 1:  # and one lower would not be private: the threshold is the smallest that is
        assert at_least(threshold - 2, scale) > delta
