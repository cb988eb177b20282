"""Public-data-assisted CDF release (PAP): public points cut the domain into cells, private counts are noised.

Bassily, Cheu, Moran, Nikolov, Ullman, Wu (paper 001), Algorithm 3 (A_PAP) and Thm 10, in the efficient
1-D form of spec 001 s3.3 (confirmed equal to Algorithm 3 by REVIEW-001-003-004 s4a), with the inner
mechanism of spec 001 s4.3 (REVIEW s4b): the Laplace histogram over the cells, or above
HISTOGRAM_MAX_CELLS cells the tree engine (dpgui/algorithms/tree_cdf.py) over the cells, whose prefix error
grows polylogarithmically instead of like sqrt(K) (REVIEW s4c: the two cross near K = 1,500).

Cells. The distinct public grid values u_1 < ... < u_M (optionally coarsened to every r-th value counted
from the top, r = ceil(M / (max_cells - 1)), a function of the public sample and a public setting only)
are the cuts; the cells are C_0 = [0, u_1], C_j = (u_j, u_{j+1}], C_K-1 = (u_last, size - 1]. A private
value x falls in cell searchsorted(cuts, x, 'left'), so a tie x = u_j counts in P(x <= u_j).

Privacy (proof of Thm 10). For every fixed public sample the map x -> cell is fixed, so replacing one
private record moves one unit between two cells: the cell-count vector has L1 sensitivity 2 and discrete
Laplace noise of scale 2/eps per cell is pure eps-DP (n public); the tree engine is pure eps-DP on any
fixed partition into leaves (its own docstring). Everything after the noise (the prefix sums, pinning
F = 1 at the top of the domain because the total is the public n, the monotone fix, the answers inside
cells, the shift diagnostic) is post-processing of DP outputs and of public data.

Answers inside a cell. F(t) for t inside a cell interpolates between the cell's end values by the public
sample's empirical CDF within the cell. Without coarsening a cell's only public points sit at its right
end, so this is exactly the paper's answer F_{proj_le(t)} (the cell's mass placed at its right end, the
answer Thm 10 certifies); with coarsening it recovers the finer public shape, which is what the cover
argument assumes about the private distribution. A cell without public points (the top cell) puts its
mass at its right end.

Utility (spec 001 s3.4-s3.5, s4.3, with beta split in three). If the private data is drawn like the
public sample, every open gap between public points has mass <= gamma(m) = 1 - (beta/(6(m+1)))^(1/m)
(union over the m+1 uniform spacings); a coarsened cell spans <= r gaps; the private empirical CDF is
within sqrt(ln(6/beta)/(2n)) of the distribution (DKW); for the histogram every prefix of <= K discrete
Laplace(2/eps) draws is within b max(sqrt K, sqrt(ln(6K/beta))) sqrt(8 ln(6K/beta)) (Chan-Shi-Song
Cor. 2.9, union over K prefixes); for the tree, ``cdf_error_bound`` of the tree engine. The max CDF
error is at most the noise term plus r gamma(m) plus twice the DKW term, with probability >= 1 - beta;
the monotone fix never increases it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.algorithms.tree_cdf import cdf_error_bound, tree_cdf
from dpgui.privacy.random import PrivateRandom

DEFAULT_MAX_CELLS = 4096
HISTOGRAM_MAX_CELLS = 1500


def noise_scale(epsilon: float) -> float:
    """Discrete Laplace scale per cell: L1 sensitivity 2 (replace-one) over epsilon."""
    return 2 / epsilon


@dataclass(frozen=True)
class PublicCells:
    """Cells cut at public grid values (public data only)."""

    cuts: np.ndarray
    public: np.ndarray
    domain_size: int
    stride: int

    @classmethod
    def from_public(
        cls, public_grid: np.ndarray, domain_size: int, max_cells: int = DEFAULT_MAX_CELLS
    ) -> PublicCells:
        """Cuts at the distinct public values, every ``stride``-th from the top when there are too many."""
        if max_cells < 2:
            raise ValueError("max_cells must be >= 2")
        public = np.sort(np.asarray(public_grid, dtype=np.uint64))
        if public.size == 0:
            raise ValueError("the public sample has no values in this column: load a public sample")
        distinct = np.unique(public)
        stride = max(1, math.ceil(distinct.size / (max_cells - 1)))
        cuts = distinct[::-1][::stride][::-1].copy()
        return cls(cuts, public, domain_size, stride)

    @property
    def n_cells(self) -> int:
        return self.cuts.size + 1

    @property
    def m(self) -> int:
        """The public sample size."""
        return int(self.public.size)

    def cell_of(self, grid: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.cuts, np.asarray(grid, dtype=np.uint64), side="left")

    def cell_counts(self, values: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """Private counts per cell: the private data's only way into the release."""
        cells = self.cell_of(values)
        return np.bincount(cells, weights=np.asarray(counts), minlength=self.n_cells).astype(np.int64)

    def public_share(self) -> np.ndarray:
        """Fraction of the public sample in each cell."""
        return np.bincount(self.cell_of(self.public), minlength=self.n_cells) / max(self.m, 1)


@dataclass(frozen=True)
class CellCDF:
    """The released CDF at the cell ends (F[0] = 0, F[j + 1] = P(x <= right end of cell j)) and its cells."""

    cells: PublicCells
    boundary_cdf: np.ndarray

    def cdf(self, grid: np.ndarray) -> np.ndarray:
        """F at each grid index: monotone in [0, 1], interpolated inside cells by the public sample."""
        grid = np.asarray(grid, dtype=np.uint64)
        cells, public, cuts = self.cells, self.cells.public, self.cells.cuts
        j = cells.cell_of(grid)
        rights = np.append(cuts, np.uint64(cells.domain_size - 1))
        start = np.zeros(j.size, dtype=np.int64)
        inner = j > 0
        start[inner] = np.searchsorted(public, cuts[j[inner] - 1], side="right")
        in_cell = np.searchsorted(public, rights[j], side="right") - start
        below = np.searchsorted(public, grid, side="right") - start
        share = np.where(in_cell > 0, below / np.maximum(in_cell, 1), (grid == rights[j]).astype(np.float64))
        low, high = self.boundary_cdf[j], self.boundary_cdf[j + 1]
        return low + (high - low) * share

    def step_points(self) -> np.ndarray:
        """The grid indices where F can change: public points and the top of the domain."""
        top = np.array([self.cells.domain_size - 1], dtype=np.uint64)
        return np.unique(np.concatenate([self.cells.public, top]))

    def cell_masses(self) -> np.ndarray:
        return np.diff(self.boundary_cdf)


@dataclass(frozen=True)
class ShiftDiagnostic:
    """KS distance between the released CDF and the public empirical CDF at the cell ends, its tolerance
    if both came from one distribution, and the released mass above the largest public value (spec 001
    s8.1: under a shift the private mass piles up there). Post-processing of DP output and public data."""

    distance: float
    tolerance: float
    mass_above_public: float

    @property
    def shift_suspected(self) -> bool:
        return self.distance > self.tolerance


def monotone_fix(boundary: np.ndarray) -> np.ndarray:
    """clip((cummax + reverse cummin) / 2, 0, 1): never increases the sup error to a monotone truth."""
    up = np.maximum.accumulate(boundary)
    down = np.minimum.accumulate(boundary[::-1])[::-1]
    return np.clip((up + down) / 2, 0.0, 1.0)


def noise_bound(n_cells: int, n: int, epsilon: float, beta: float) -> float:
    """CDF-unit bound on the noise of every released prefix, w.p. >= 1 - beta.

    Histogram: Chan-Shi-Song Cor. 2.9 on sums of <= K discrete Laplace(2/eps) draws, union over K
    prefixes. Tree: the tree engine's own bound.
    """
    if n_cells > HISTOGRAM_MAX_CELLS:
        return cdf_error_bound(n_cells, n, epsilon, beta)
    log_term = math.log(2 * n_cells / beta)
    b = noise_scale(epsilon)
    return max(b * math.sqrt(n_cells), b * math.sqrt(log_term)) * math.sqrt(8 * log_term) / max(n, 1)


def cover_gap(m: int, beta: float) -> float:
    """gamma(m) = 1 - (beta / (2 (m + 1)))^(1/m): the largest gap mass between m public points at beta."""
    return 1.0 - (beta / (2 * (m + 1))) ** (1 / m) if m > 0 else 1.0


def dkw(n: int, beta: float) -> float:
    return math.sqrt(math.log(2 / beta) / (2 * max(n, 1)))


def predicted_error(n: int, m: int, n_cells: int, stride: int, epsilon: float, beta: float) -> float:
    """Max CDF error (fraction of n) at beta when the private data is drawn like the public sample."""
    if n <= 0:
        return 1.0
    third = beta / 3
    total = noise_bound(n_cells, n, epsilon, third) + stride * cover_gap(m, third) + 2 * dkw(n, third)
    return min(1.0, total)


def shift_diagnostic(release: CellCDF, n: int, epsilon: float, beta: float) -> ShiftDiagnostic:
    """Compare the released cell CDF with the public one (DP output and public data only)."""
    cells = release.cells
    public_boundary = np.concatenate([[0.0], np.cumsum(cells.public_share())])
    third = beta / 3
    tolerance = dkw(cells.m, third) + dkw(n, third) + noise_bound(cells.n_cells, n, epsilon, third)
    return ShiftDiagnostic(
        distance=float(np.max(np.abs(release.boundary_cdf - public_boundary))),
        tolerance=tolerance,
        mass_above_public=float(release.cell_masses()[-1]),
    )


def pap_cdf(
    values: np.ndarray, counts: np.ndarray, cells: PublicCells, epsilon: float, rng: PrivateRandom
) -> AlgorithmRun[CellCDF]:
    """Release the CDF of private data (sorted distinct grid values, counts summing to the public n)."""
    yield Progress(0.2, f"counting {cells.n_cells} cells cut at the public sample")
    exact = cells.cell_counts(values, counts)
    n = int(exact.sum())
    if cells.n_cells > HISTOGRAM_MAX_CELLS:
        tree = yield from tree_cdf(exact, n, epsilon, rng)
        boundary = np.concatenate([[0.0], tree.cdf])
    else:
        noisy = exact + rng.discrete_laplace(noise_scale(epsilon), exact.size)  # L1 sensitivity 2
        yield Progress(0.7, "post-processing the noisy cell counts")
        boundary = monotone_fix(np.concatenate([[0.0], np.cumsum(noisy[:-1]) / max(n, 1), [1.0]]))
    release = CellCDF(cells, boundary)
    yield Progress(1.0, "released", release)
    return release
