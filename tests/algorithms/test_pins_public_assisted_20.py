"""Pins the public-data CDF's release and stated error to their definitions (mutation scan 20).

PAP (paper 001 Alg. 3, Thm 10; spec 001 s3.3-s4.3; REVIEW-001-003-004 s4a-s4c): noisy cell counts with
discrete Laplace(2/eps), prefix sums over the public n with F = 1 at the top, the monotone fix, and answers
inside a cell interpolated by the public sample. The stated error is the noise term (Chan-Shi-Song
Cor. 2.9) plus stride * gamma(m) plus twice DKW, each at beta/3.

Survivors this pins (non-keyword lines of public_assisted.py): the noise bound's sqrt(ln(2K/beta)) term
(it binds for few cells), slips in ``monotone_fix``, ``CellCDF.cdf``'s in-cell interpolation and
``step_points``, ``pap_cdf``'s prefix sums and histogram/tree branch, ``predicted_error`` and
``shift_diagnostic``.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms import public_assisted as module
from dpgui.algorithms.progress import run_to_end
from tests.recording import ScriptedRandom


@pytest.mark.parametrize(
    ("cells", "n", "epsilon", "beta"), [(1, 100, 1.0, 0.05), (2, 50, 0.5, 0.01), (400, 10**5, 2.0, 0.1)]
)
def test_noise_bound_is_chan_shi_song_over_k_prefixes(
    cells: int, n: int, epsilon: float, beta: float
) -> None:
    """Every prefix of <= K discrete Laplace(2/eps) draws is within b max(sqrt K, sqrt(ln(2K/beta)))
    sqrt(8 ln(2K/beta)) w.p. 1 - beta (Chan-Shi-Song Cor. 2.9, union over K prefixes); for K = 1 or 2 the
    sqrt(ln(2K/beta)) term binds."""
    log_term = math.log(2 * cells / beta)
    b = 2 / epsilon
    expected = max(b * math.sqrt(cells), b * math.sqrt(log_term)) * math.sqrt(8 * log_term) / n
    if cells <= 2:
        assert log_term > cells
    assert module.noise_bound(cells, n, epsilon, beta) == pytest.approx(expected, rel=1e-12)


def test_monotone_fix_is_the_clipped_average_of_cummax_and_reverse_cummin() -> None:
    """clip((cummax + reverse cummin)/2, 0, 1) (spec 001 s4.3 post-processing)."""
    rng = np.random.default_rng(1)
    for _ in range(20):
        raw = np.cumsum(rng.normal(0.1, 0.3, size=12))
        raw = np.concatenate([[0.0], raw / max(raw.max(), 1e-9), [1.0]]) + rng.normal(0, 0.2, size=14)
        up = [max(raw[: i + 1]) for i in range(raw.size)]
        down = [min(raw[i:]) for i in range(raw.size)]
        expected = [min(1.0, max(0.0, (u + d) / 2)) for u, d in zip(up, down, strict=True)]
        got = module.monotone_fix(raw)
        assert np.allclose(got, expected, rtol=0, atol=1e-15)
        assert np.all(np.diff(got) >= 0)


def cdf_brute(cells: module.PublicCells, boundary: np.ndarray, v: int) -> float:
    """F(v) by definition: the cell's end values interpolated by the public empirical CDF within the cell;
    a cell without public points jumps at its right end."""
    cuts = cells.cuts.tolist()
    rights = [*cuts, cells.domain_size - 1]
    j = next(i for i, r in enumerate(rights) if v <= r)
    left = cuts[j - 1] if j > 0 else -1
    inside = [p for p in cells.public.tolist() if left < p <= rights[j]]
    share = sum(1 for p in inside if p <= v) / len(inside) if inside else float(v == rights[j])
    return boundary[j] + (boundary[j + 1] - boundary[j]) * share


@pytest.mark.parametrize("max_cells", [3, 4, 100])
def test_cell_cdf_interpolates_inside_cells_by_the_public_sample(max_cells: int) -> None:
    """spec 001 s3.3 [ours]: inside a cell F follows the public sample's empirical CDF there; with
    coarsening (stride > 1) a cell holds several public values."""
    public = np.array([2, 2, 5, 7, 7, 7, 11, 12, 18], dtype=np.uint64)
    cells = module.PublicCells.from_public(public, 25, max_cells)
    boundary = np.linspace(0.0, 1.0, cells.n_cells + 1) ** 1.5
    release = module.CellCDF(cells, boundary)
    grid = np.arange(25, dtype=np.uint64)
    expected = [cdf_brute(cells, boundary, v) for v in range(25)]
    assert np.allclose(release.cdf(grid), expected, rtol=0, atol=1e-15)
    assert release.step_points().tolist() == sorted({*public.tolist(), 24})


class FixedNoise(ScriptedRandom):
    """discrete_laplace returns a preset vector; records the scale."""

    is_private = False
    description = "fixed noise"

    def __init__(self, noise: list[int]) -> None:
        self.noise, self.scales = np.array(noise, dtype=np.int64), []

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        self.scales.append(scale)
        assert size == self.noise.size
        return self.noise


def test_pap_cdf_histogram_prefix_sums_over_the_public_n() -> None:
    """Alg. 3 with the Laplace histogram: F at cell ends = prefix sums of the noisy counts over n, F = 1 at
    the top (the total is the public n), then the monotone fix; noise scale 2/eps (L1 sensitivity 2)."""
    cells = module.PublicCells.from_public(np.array([3, 6, 9], dtype=np.uint64), 12)
    values = np.array([0, 4, 5, 9, 11], dtype=np.uint64)
    counts = np.array([2, 1, 3, 2, 2])
    exact = np.array([2, 4, 2, 2])
    noise = [1, -2, 3, -1]
    rng = FixedNoise(noise)
    release = run_to_end(module.pap_cdf(values, counts, cells, 0.5, rng))
    noisy = exact + np.array(noise)
    raw = np.concatenate([[0.0], np.cumsum(noisy[:-1]) / 10, [1.0]])
    assert rng.scales == [4.0]
    assert np.allclose(release.boundary_cdf, module.monotone_fix(raw), rtol=0, atol=1e-15)


def test_pap_cdf_switches_to_the_tree_above_the_histogram_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """REVIEW-001-003-004 s4c: above HISTOGRAM_MAX_CELLS cells the tree engine gets the exact cell counts
    and n; its CDF follows F[0] = 0."""
    seen: dict[str, object] = {}

    def fake_tree(exact, n, epsilon, rng):
        seen.update(exact=np.asarray(exact).tolist(), n=n, epsilon=epsilon)
        yield from ()

        class Out:
            cdf = np.linspace(0.0, 1.0, len(exact) + 1)[1:]

        return Out()

    monkeypatch.setattr(module, "tree_cdf", fake_tree)
    public = np.arange(0, 2 * module.HISTOGRAM_MAX_CELLS, 2, dtype=np.uint64)
    cells = module.PublicCells.from_public(public, 4 * module.HISTOGRAM_MAX_CELLS)
    assert cells.n_cells == module.HISTOGRAM_MAX_CELLS + 1
    values = np.array([1, 8], dtype=np.uint64)
    release = run_to_end(module.pap_cdf(values, np.array([3, 4]), cells, 0.7, None))  # type: ignore[arg-type]
    expected = np.zeros(cells.n_cells, dtype=np.int64)
    expected[cells.cell_of(values)] = [3, 4]
    assert seen == {"exact": expected.tolist(), "n": 7, "epsilon": 0.7}
    assert release.boundary_cdf[0] == 0.0 and release.boundary_cdf.size == cells.n_cells + 1


@pytest.mark.parametrize(
    ("n", "m", "cells", "stride"), [(500, 40, 41, 1), (10**4, 3000, 1000, 3), (10**5, 10, 11, 1)]
)
def test_predicted_error_adds_the_three_terms_at_beta_over_3(n: int, m: int, cells: int, stride: int) -> None:
    """spec 001 s3.4-s3.5: noise bound + stride * gamma(m) + 2 DKW(n), each at beta/3, capped at 1."""
    eps, beta = 1.0, 0.06
    third = beta / 3
    expected = (
        module.noise_bound(cells, n, eps, third)
        + stride * (1 - (third / (2 * (m + 1))) ** (1 / m))
        + 2 * math.sqrt(math.log(2 / third) / (2 * n))
    )
    assert expected < 1
    assert module.predicted_error(n, m, cells, stride, eps, beta) == pytest.approx(expected, rel=1e-12)
    assert module.predicted_error(0, m, cells, stride, eps, beta) == 1.0
    assert module.predicted_error(3, m, cells, stride, eps, beta) == 1.0


def test_shift_diagnostic_compares_with_the_public_cdf_at_the_cell_ends() -> None:
    """spec 001 s8.1: KS distance at the cell ends, tolerance DKW(m) + DKW(n) + noise bound at beta/3,
    mass above the largest public value = the last cell's released mass; suspected iff distance > tol."""
    cells = module.PublicCells.from_public(np.array([1, 1, 4, 6], dtype=np.uint64), 10)
    boundary = np.array([0.0, 0.3, 0.5, 0.6, 1.0])
    diag = module.shift_diagnostic(module.CellCDF(cells, boundary), 200, 1.0, 0.09)
    public = np.array([0.0, 0.5, 0.75, 1.0, 1.0])
    third = 0.03
    tol = math.sqrt(math.log(2 / third) / 8) + math.sqrt(math.log(2 / third) / 400)
    tol += module.noise_bound(4, 200, 1.0, third)
    assert diag.distance == pytest.approx(np.max(np.abs(boundary - public)), abs=1e-15)
    assert diag.tolerance == pytest.approx(tol, rel=1e-12)
    assert diag.mass_above_public == pytest.approx(0.4, abs=1e-15)
    assert module.ShiftDiagnostic(0.2, 0.1, 0.0).shift_suspected
    assert not module.ShiftDiagnostic(0.05, 0.1, 0.0).shift_suspected


def test_pap_cdf_keeps_the_histogram_at_exactly_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """REVIEW-001-003-004 s4c: the histogram serves up to HISTOGRAM_MAX_CELLS cells inclusive, the same
    switch ``noise_bound`` states its error for (so the stated bound is the released mechanism's)."""

    def no_tree(*args: object) -> None:
        raise AssertionError("the tree engine must not run at the limit")

    monkeypatch.setattr(module, "tree_cdf", no_tree)
    public = np.arange(0, 2 * (module.HISTOGRAM_MAX_CELLS - 1), 2, dtype=np.uint64)
    cells = module.PublicCells.from_public(public, 4 * module.HISTOGRAM_MAX_CELLS)
    assert cells.n_cells == module.HISTOGRAM_MAX_CELLS
    rng = FixedNoise([0] * cells.n_cells)
    release = run_to_end(module.pap_cdf(np.array([1, 8], dtype=np.uint64), np.array([3, 4]), cells, 0.5, rng))
    assert rng.scales == [4.0]
    assert release.boundary_cdf[-1] == 1.0


def test_noise_bound_divides_by_the_actual_n_even_for_one_record() -> None:
    """The bound is in CDF units: the count-noise bound over n, also at n = 1 (only n = 0 is guarded);
    at eps = 100 it is below 1, so halving it would understate the stated error."""
    log_term = math.log(2 / 0.05)
    expected = 0.02 * math.sqrt(log_term) * math.sqrt(8 * log_term)
    assert expected < 1
    assert module.noise_bound(1, 1, 100.0, 0.05) == pytest.approx(expected, rel=1e-12)
    assert module.noise_bound(1, 0, 100.0, 0.05) == pytest.approx(expected, rel=1e-12)


def test_pap_cdf_prefix_sums_are_over_the_actual_n_for_one_or_no_record() -> None:
    """F at the cell ends is the noisy prefix count over n (spec 001 s3.3), n = 1 included; an empty
    private column (n = 0) still releases a finite CDF from the noise alone (only n = 0 is guarded)."""
    cells = module.PublicCells.from_public(np.array([3, 6], dtype=np.uint64), 10)
    one = run_to_end(
        module.pap_cdf(np.array([1], dtype=np.uint64), np.array([1]), cells, 1.0, FixedNoise([0, 0, 0]))
    )
    assert one.boundary_cdf.tolist() == [0.0, 1.0, 1.0, 1.0]
    empty = np.array([], dtype=np.uint64)
    none = run_to_end(module.pap_cdf(empty, np.array([], dtype=np.int64), cells, 1.0, FixedNoise([0, 1, 0])))
    assert none.boundary_cdf.tolist() == [0.0, 0.0, 1.0, 1.0]
