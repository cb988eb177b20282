"""AIM merges rare cells after its 1-way measurements (MST's domain compression): all of a categorical
column's into one, a numeric column's runs of adjacent ones each into one (so its order stays), from the
NOISY counts only; everything measured later is over the merged cells, with the budget unchanged."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import marginal_table as mt
from dpgui.algorithms.progress import run_to_end
from tests.algorithms.test_marginal_table import _marginals
from tests.exact import gaussian_zcdp
from tests.recording import RecordingRandom

RHO = 0.05
ORDERED = [True, False, True]
"""A numeric column, a categorical one, a numeric one."""


def _rows(n: int = 4000) -> tuple[np.ndarray, list[int]]:
    """The categorical column holds 4 of its 20 cells; the first numeric column leaves its last two cells
    empty (one run), the second every odd cell (runs of one: nothing to merge)."""
    generator = np.random.default_rng(5)
    category = generator.choice([0, 1, 3, 7], n, p=[0.4, 0.3, 0.2, 0.1])
    years = np.minimum(category + generator.integers(0, 3, n), 9)  # cells 10 and 11 empty
    other = generator.integers(0, 3, n) * 2  # odd cells empty
    return np.stack([years, category, other], axis=1), [12, 20, 6]


def _run(rng: RecordingRandom) -> mt.TableRelease:
    rows, sizes = _rows()
    return run_to_end(
        mt.aim_table(sizes, _marginals(rows, sizes), len(rows), RHO, 2000, rng, ordered=ORDERED, max_rounds=4)
    )


def test_rare_cells_are_merged_and_later_measurements_are_over_the_merged_cells():
    rng = RecordingRandom(3, zero=True)  # noisy counts = true counts: cells 0, 1, 3, 7 pass 3 sigma
    release = _run(rng)
    assert release.kept_cells == (11, 5, 6)  # cells 10-11 as one; 4 categories and one rare cell
    sigma = 1 / math.sqrt(
        RHO * mt.ONE_WAY_SHARE * 20 ** (2 / 3) / (12 ** (2 / 3) + 20 ** (2 / 3) + 6 ** (2 / 3))
    )
    assert rng.requests[1].scale == pytest.approx(sigma)  # the threshold's sigma is the column's own
    assert [r.size for r in rng.requests[:3]] == [12, 20, 6]  # the 1-way marginals at the declared cells
    for measured, request in zip(release.measured[3:], rng.requests[3:], strict=True):
        cells = math.prod(release.kept_cells[j] for j in measured.clique)
        assert request.size == (cells if measured.bins is None else math.prod(measured.bins))
    assert release.measured[3:]  # AIM measured something after the 1-way marginals
    spent = math.fsum(gaussian_zcdp(math.sqrt(2), r.scale).rho for r in rng.requests)
    spent += math.fsum(s.epsilon**2 / 8 for s in release.selected)
    assert spent == pytest.approx(RHO, rel=1e-6) and release.total_cost == pytest.approx(RHO, rel=1e-6)


def test_synthetic_rows_are_spread_back_to_the_declared_cells():
    rows, _ = _rows()
    release = _run(RecordingRandom(4, zero=True))
    assert release.rows.shape == (2000, 3)
    true = np.bincount(rows[:, 1], minlength=20) / len(rows)
    synthetic = np.bincount(release.rows[:, 1], minlength=20) / len(release.rows)
    assert 0.5 * np.abs(true - synthetic).sum() < 0.03  # cells 0, 1, 3, 7, not the merged indices 0-3
    assert release.rows[:, 0].max() < 12 and release.rows[:, 2].max() < 6


def test_the_merge_reads_the_noisy_counts_not_the_true_ones():
    """Noise of +1000 on the empty cell 15 of the categorical column keeps that cell apart, and a row may
    then take it: only a DP output decides what is rare."""
    noise = [0] * 12 + [1000 if cell == 15 else 0 for cell in range(20)]
    rng = RecordingRandom(5, zero=True, noise=noise)
    release = _run(rng)
    assert release.kept_cells == (11, 6, 6)
    assert (release.rows[:, 1] == 15).any()


def test_a_numeric_column_merges_each_run_of_adjacent_rare_cells_in_place():
    compression = mt.compress_runs(np.array([50.0, 1, 2, 40, 0, -3, 0, 60, 29.9]), 10.0)
    assert compression.mapping.tolist() == [0, 1, 1, 2, 3, 3, 3, 4, 5]  # 30 = 3 sigma is the threshold
    assert compression.spread.tolist() == pytest.approx([1, 1 / 3, 2 / 3, 1, 1 / 3, 1 / 3, 1 / 3, 1, 1])
    rows = np.array([[1]] * 3000 + [[3]] * 3000)
    back = mt._decompress(rows, [compression], RecordingRandom(0))[:, 0]
    assert np.bincount(back, minlength=9).tolist() == [0, 1000, 2000, 0, 1000, 1000, 1000, 0, 0]
