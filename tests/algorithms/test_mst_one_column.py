"""MST on a one-column table spends all of rho on that column's 1-way marginal. With no pair to choose or
measure it spent the 1-way third only: the ledger charged the whole epsilon for a third of it, and the
release's budget shares summed to 1/3 (fuzz: ``release table`` on a one-column DOMAINS.json)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import marginal_table as mt
from dpgui.algorithms.progress import run_to_end
from dpgui.privacy.random import SeededRandom


class SigmaRandom(SeededRandom):
    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.sigmas: list[float] = []

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        self.sigmas.append(sigma)
        return super().discrete_gaussian(sigma, size)


def test_one_column_mst_measures_its_marginal_with_the_whole_rho():
    values = np.random.default_rng(0).integers(0, 10, 400)
    counts = np.bincount(values, minlength=10)
    rng, rho = SigmaRandom(1), 0.3
    release = run_to_end(mt.mst_table([10], lambda cliques: [counts for _ in cliques], 400, rho, 400, rng))
    assert rng.sigmas == [pytest.approx(1 / math.sqrt(rho))]
    assert release.total_cost == pytest.approx(rho, rel=1e-9)
    assert release.rows.shape == (400, 1)
