"""Synthetic records: inside the grid, and distributed as the released CDF."""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.synthetic import sample_from_cdf
from dpgui.algorithms.tree_cdf import tree_cdf
from dpgui.privacy.random import SeededRandom


def test_records_lie_on_the_grid_and_their_empirical_cdf_approaches_the_released_one():
    counts = np.random.default_rng(1).integers(0, 40, size=300)
    released = run_to_end(tree_cdf(counts, int(counts.sum()), 1.0, SeededRandom(2))).cdf
    rows = 40_000
    records = sample_from_cdf(released, rows, SeededRandom(3))
    assert records.min() >= 0 and records.max() < 300 and records.size == rows
    empirical = np.cumsum(np.bincount(records, minlength=300)) / rows
    # DKW: P(sup |F_n - F| > t) <= 2 exp(-2 n t^2); t = 0.012 gives 2e-5.
    assert np.abs(empirical - released).max() < 0.012
    assert np.abs(empirical - np.roll(released, 3)).max() > 0.012  # control: a shifted CDF is detected


def test_points_of_zero_mass_are_never_drawn():
    cdf = np.array([0.0, 0.5, 0.5, 1.0])
    records = sample_from_cdf(cdf, 5000, SeededRandom(4))
    assert set(np.unique(records).tolist()) == {1, 3}


def test_a_non_monotone_or_unfinished_cdf_is_refused():
    with pytest.raises(ValueError):
        sample_from_cdf(np.array([0.5, 0.4, 1.0]), 3, SeededRandom(6))
    with pytest.raises(ValueError):
        sample_from_cdf(np.array([0.5, 0.9]), 3, SeededRandom(6))
