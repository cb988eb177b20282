"""Pins the learners' and TreeLog's 2^64-grid edges (mutation scan 19).

Survivors this pins: the IP reduction's cut cap MAX_CUTS = 2^64 written 2 << 64 or 1 << 128 (a 2^64 grid
then has 2^64 + 1 cuts, a 65-bit solver domain); TreeLog's MAX_BITS = 64 written 128 (a 65-bit domain is
then accepted, beyond the uint64 grid); the "ge" hypothesis' never-positive test cut < size written
cut <= size (at cut = size = 2^64 the comparison then builds np.uint64(2^64), which overflows); the "le"
hypothesis' test cut > 0 written cut >= 0, cut > -1 (np.uint64(-1)) or cut > 1 (cut 1 then predicts nothing);
TreeLog's bit-width chain stopping on chain[0] instead of chain[-1].
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.learners.ip_threshold import InteriorSolver, IPThresholdParameters
from dpgui.algorithms.learners.thresholds import Direction, ThresholdHypothesis
from dpgui.algorithms.treelog import TreeLogParameters, bit_chain


@pytest.mark.parametrize("solver", [InteriorSolver.EM, InteriorSolver.TREELOG])
def test_ip_reduction_caps_the_cuts_at_2_to_the_64(solver: InteriorSolver) -> None:
    """Module doc: cuts live in uint64, so on a 2^64-point grid the top cut (always positive) is left out
    of the solver: 2^64 cuts on 64 bits; a smaller grid keeps all size + 1 cuts."""
    top = IPThresholdParameters(10**6, 2**64, 1.0, 1e-6, 0.05, solver)
    assert top.cut_count == 2**64 and top.bits == 64
    small = IPThresholdParameters(10**6, 2**64 - 2, 1.0, 1e-6, 0.05, solver)
    assert small.cut_count == 2**64 - 1 and small.bits == 64


def test_treelog_takes_at_most_64_bit_domains() -> None:
    """Spec 002 s4: prefixes of uint64 grid indices, so 1..64-bit domains."""
    assert TreeLogParameters.build(1.0, 1e-6, 0.05, 64, 10**5).bits == 64
    with pytest.raises(ValueError, match=r"1\.\.64-bit"):
        TreeLogParameters.build(1.0, 1e-6, 0.05, 65, 10**5)


def test_never_positive_ge_hypothesis_on_a_2_to_the_64_grid() -> None:
    """Cut = size is the never-positive "ge" hypothesis; on the full uint64 grid it predicts 0 everywhere
    without forming the cut 2^64 as a uint64."""
    grid = np.array([0, 2**63, 2**64 - 1], dtype=np.uint64)
    never = ThresholdHypothesis(Direction.GE, 2**64, 2**64)
    assert never.never_positive and not never.predict(grid).any()
    assert ThresholdHypothesis(Direction.GE, 2**64 - 1, 2**64).predict(grid).tolist() == [False, False, True]


def test_le_hypothesis_at_cuts_0_and_1() -> None:
    """ "le" cut j labels x < j positive: cut 0 is the never-positive hypothesis, cut 1 labels only x = 0."""
    grid = np.array([0, 1, 5], dtype=np.uint64)
    never = ThresholdHypothesis(Direction.LE, 0, 10)
    assert never.never_positive and not never.predict(grid).any()
    assert ThresholdHypothesis(Direction.LE, 1, 10).predict(grid).tolist() == [True, False, False]


def test_bit_width_chain_stops_at_3_bits() -> None:
    """Spec 002 s4: L, ceil(log2(L + 1)), ... while it decreases and stays above the 3-bit base (so at most
    three databases up to 2^64)."""
    assert bit_chain(64) == (64, 7, 3)
    assert bit_chain(32) == (32, 6, 3)
    assert bit_chain(8) == (8, 4, 3)
    assert bit_chain(4) == (4, 3)
    assert bit_chain(3) == (3,)
    assert bit_chain(2) == (2,)
