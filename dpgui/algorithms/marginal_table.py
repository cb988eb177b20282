"""Synthetic tables from noisy marginals: AIM, MST and independent marginals (spec 005).

All three select marginals, measure them with noise, fit a model to the measurements and sample rows
from it (spec 005 s1); everything after the measurements is post-processing.

* AIM: McKenna, Mullins, Sheldon, Miklau, "AIM: An Adaptive and Iterative Mechanism for Differentially
  Private Synthetic Data", PVLDB 15(11) 2022, Algorithm 1 (s4: selection score, model-size filter,
  budget annealing).
* MST: McKenna, Miklau, Sheldon, "Winning the NIST Contest", JPC 11(3) 2021, s4 (1-way marginals, a
  maximum spanning tree of pairs chosen by the exponential mechanism, 2-way measurements).
* Independent marginals: every 1-way marginal with discrete Laplace noise, projected to the simplex,
  columns drawn independently (the baseline).

Privacy under replace-one with n public (spec 005 s2). A record sits in one cell of every marginal, so
replacing it moves one count down and one up: L1 = 2, L2 = sqrt(2) per marginal (the papers analyse
add/remove, L2 = 1).

* A discrete Gaussian measurement with sigma costs rho = 2 / (2 sigma^2) = 1 / sigma^2, i.e.
  sigma = 1 / sqrt(rho) (Canonne-Kamath-Steinke 2020 Thm 4; the papers' 1 / sqrt(2 rho)).
* The exponential mechanism at eps is eps^2 / 8-zCDP (bounded range; Cesar-Rogers 2021), eps = sqrt(8 rho).
  AIM's score w_r (||M_r(D) - M_r(p)||_1 - sqrt(2/pi) sigma n_r) moves by 2 w_r; MST's edge score
  ||M_r(D) - M_r(p)||_1 moves by 2. Both use these sensitivities (the papers': w_r and 1).
* Independent: each 1-way count vector moves by L1 = 2; discrete Laplace with scale 2 d / eps on each of
  the d marginals is eps/d-DP per column, eps-DP in total by basic composition.
"""

from __future__ import annotations

import enum
import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from dpgui.algorithms.pgm import (
    Clique,
    GraphicalModel,
    NoisyMarginal,
    coarsen,
    conditional_cdfs,
    stratified_draw,
)
from dpgui.algorithms.progress import FINISH_NOW, AlgorithmRun, Progress
from dpgui.privacy.cancellable import cancel_checkpoint
from dpgui.privacy.exponential import exponential_mechanism
from dpgui.privacy.random import PrivateRandom

L1_SENSITIVITY = 2
"""Replace-one moves one record between two cells of every marginal."""

L2_SQUARED = 2
"""The squared L2 sensitivity of a marginal under replace-one."""

MAX_MODEL_MB = 80.0
"""AIM's default bound on the graphical model's size (the paper's 80 MB)."""

ROUNDS_PER_COLUMN = 16
"""AIM's T = 16 d nominal rounds (the paper's choice); annealing usually ends far earlier."""

MEASURE_SHARE = 0.9
"""AIM's alpha: the share of each round's budget spent measuring (the rest selects)."""

FIT_ITERS = 500
"""Mirror-descent iterations per refit (warm-started), after every round and once more at the end. AIM's
selection scores the model as fitted, so an underfitted model makes it re-measure a marginal it has (and,
the change looking small, anneal too early): at 150 iterations AIM ran 5-11 rounds and its 2-way error at
epsilon 3 was 0.036; at 500, 17 rounds and 0.025; at 300, 7-11 rounds and 0.0332 at epsilon 1 against
0.0296 (benchmarks/synthetic_table.md; mbi's own AIM uses 1000). The final estimate is one refit: four
(2,000 iterations, the earlier choice) changed the demo's 2-way TV by at most 0.0001 (0.0296 / 0.0297 at
epsilon 1, 0.0190 / 0.0191 at epsilon 3; 3 seeds each) and the messy table's by 0.0004 at epsilon 1, and
took about 45 s of a 180 s run at epsilon 3."""

BATCH_MODEL_MB = 1.0
"""A last round cut short measures one marginal per column only while the model is at most this large.
The picks' model is larger, and its final fit, sampling and marginals (JAX compiles per structure) cost
more with its size: on the demo at epsilon 10 with a 60 s limit the run took 180 s with a batch from an
8 MB model to at most 16 MB, 95 s with one pick, 77 s with these bounds (1 MB, at most 4 MB)."""

BATCH_MAX_MB = 4.0
"""The model a last round's picks may build, so the final fit stays quick (a bound relative to the model
before the picks, at most double it, kept an early cut's picks off the fine pairs it needs).

Between the picks a candidate's size is its size with the model before the round plus what the picks so far
added (one junction tree per candidate a round, public arithmetic either way): recomputing every
candidate's junction tree after each pick took 94 s of a 30 s time limit on a 30-column table (30 picks
over 465 candidates, 7 ms each; a fuzz run)."""

MST_FIT_ITERS = 2000
"""MST's one fit of all its measurements, cold-started (four times a warm-started refit)."""

COARSE_FROM_TV = 0.1
"""A coarsened candidate is offered only while the same marginal at its declared cells would carry at least
this expected noise TV at the round's sigma (``coarse_offered``). Coarse measurements help where the budget
cannot afford the cells; offered at every round, at epsilon 3 AIM measured most pairs at both resolutions
and its refits took minutes. With this rule, on the demo table: 2-way TV 0.031 at epsilon 1 (0.037 without
coarse candidates) and 0.020 at epsilon 3 (0.025) (benchmarks/synthetic_table.md)."""

ONE_WAY_SHARE = 0.25
"""AIM's share of rho for the initial 1-way measurements (the paper: one round's of T = 16 d)."""

RARE_SIGMAS = 3.0
"""A cell whose noisy 1-way count is below this many standard deviations of its noise is rare (MST's
domain compression, McKenna et al. 2021 s4): merged with its column's other rare cells for everything
measured after the 1-way marginals. MST merges them on every column. AIM merges them on a categorical
column, where many categories otherwise make every pair with them too large to measure, and merges each
run of adjacent rare cells on a numeric column, so that its order, which the coarse candidates use, stays
(the empty tails and gaps of a declared grid)."""


FITTING = "fitting the model"
"""What a cancel during a model fit says it stopped (the run's randomness carries the cancel into the fit:
``cancel_checkpoint``, ``GraphicalModel.fit``)."""


Marginals = Callable[[Sequence[Clique]], list[np.ndarray]]
"""The true marginals over the given cliques (one aggregator pass); the only door to the private data."""


def gaussian_sigma(rho: float) -> float:
    """Standard deviation of a marginal's discrete Gaussian at rho-zCDP under replace-one: 1 / sqrt(rho)."""
    return math.sqrt(L2_SQUARED / (2 * rho))


def selection_epsilon(rho: float) -> float:
    """The exponential mechanism's epsilon whose bounded-range zCDP cost (eps^2 / 8) is rho."""
    return math.sqrt(8 * rho)


Bins = tuple[int, ...] | None
"""Groups per axis of a coarsened marginal (``pgm.coarsen``); None: the declared cells."""


@dataclass(frozen=True)
class Measured:
    """One published measurement: its clique (coarsened to ``bins``), noise scale and share of the budget."""

    clique: Clique
    noise: str
    scale: float
    cost: float
    """rho (zCDP mechanisms) or epsilon (pure ones) spent on this measurement."""
    bins: Bins = None

    @property
    def stddev(self) -> float:
        """The noise's standard deviation per cell (a discrete Laplace of scale b: about sqrt(2) b)."""
        return self.scale if self.noise == "discrete Gaussian" else math.sqrt(2) * self.scale


@dataclass(frozen=True)
class Selected:
    """One exponential-mechanism choice (AIM round or MST edge) and its cost."""

    clique: Clique
    epsilon: float
    cost: float
    bins: Bins = None

    @property
    def free(self) -> bool:
        """Whether the choice had a single candidate, so no mechanism ran and it cost nothing (``_aim_pick``,
        ``mst_edge_rho``)."""
        return self.epsilon == 0


@dataclass(frozen=True)
class AimRound:
    """One AIM round for the live view: the marginal chosen (DP), its noise sigma (public) and the refitted
    model's total-variation distance from that NOISY measurement (post-processing; never the true data)."""

    round: int
    clique: Clique
    bins: Bins
    sigma: float
    fit: float
    name: str = ""
    """The marginal's column names (filled in by the task, which knows them)."""


class Accounting(enum.Enum):
    """How a table release's costs add up: rho of zCDP, or epsilon of pure DP."""

    ZCDP = "rho"
    PURE = "ε"


@dataclass(frozen=True)
class TableRelease:
    """A synthetic table (cell indices) with what was measured to make it (all DP or public)."""

    rows: np.ndarray
    measured: tuple[Measured, ...]
    selected: tuple[Selected, ...]
    fit: tuple[float, ...]
    """Per measurement (in ``measured`` order): total-variation distance between the synthetic table's
    and the NOISY marginal."""
    accounting: Accounting
    time_limited: bool = False
    """Whether AIM's time limit, not its budget or round cap, made its last round the last."""
    finished_on_request: bool = False
    """Whether the custodian's request (``progress.FINISH_NOW``) made AIM's last round the last."""
    last_picks: int = 1
    """How many marginals AIM's last round measured: more than one when it was cut short (``final_picks``)."""
    kept_cells: tuple[int, ...] = ()
    """The cells per column that were measured and modelled after the 1-way measurements, once rare cells
    were merged (``compress``, ``compress_runs``); empty for independent marginals."""

    @property
    def last_round(self) -> int:
        """The number of AIM's last round (its picks count as one round)."""
        return len(self.selected) - self.last_picks + 1

    @property
    def total_cost(self) -> float:
        return math.fsum(m.cost for m in self.measured) + math.fsum(s.cost for s in self.selected)

    @property
    def spent_by_noise(self) -> float:
        """What the noise actually drawn pays for, recomputed from each measurement's scale and each
        selection's epsilon rather than read from the recorded shares: rho = L2^2 / (2 sigma^2) per discrete
        Gaussian and eps^2 / 8 per exponential-mechanism choice (bounded range), or epsilon = L1 / b per
        discrete Laplace of scale b (``Accounting.PURE``)."""
        if self.accounting is Accounting.PURE:
            return math.fsum(L1_SENSITIVITY / m.scale for m in self.measured)
        return math.fsum(L2_SQUARED / (2 * m.scale**2) for m in self.measured) + math.fsum(
            s.epsilon**2 / 8 for s in self.selected
        )

    def check_spent_within(self, charged: float) -> None:
        """Raise :class:`OverspendError` if the noise drawn pays for more than ``charged`` (the rho or
        epsilon the ledger booked), so a table whose noise is too small is never shown or exported."""
        if (spent := self.spent_by_noise) > charged * (1 + 1e-9):
            unit = self.accounting.value
            raise OverspendError(
                f"the synthetic table's noise pays for {unit} = {spent:.6g}, more than the {charged:.6g} the "
                "ledger charged: nothing is released and the charge stays. This is a bug in dpgui: please "
                "report it."
            )


class OverspendError(RuntimeError):
    """A release whose noise pays for more privacy loss than was charged (a bug, never a result)."""


def workload(k_columns: int, way: int) -> list[Clique]:
    """All ``way``-way marginals of ``k_columns`` columns (fewer columns: the one k-way marginal)."""
    return list(itertools.combinations(range(k_columns), min(way, k_columns)))


def downward_closure(cliques: Sequence[Clique]) -> list[Clique]:
    """Every non-empty subset of every clique, sorted by size then position."""
    closed = {sub for c in cliques for r in range(1, len(c) + 1) for sub in itertools.combinations(c, r)}
    return sorted(closed, key=lambda c: (len(c), c))


def cells(sizes: Sequence[int], clique: Clique) -> int:
    return math.prod(int(sizes[i]) for i in clique)


def _tv_fit(
    rows: np.ndarray, sizes: Sequence[int], measurements: Sequence[NoisyMarginal]
) -> tuple[float, ...]:
    """Total-variation distance of the synthetic rows' marginals from the noisy ones (clipped at 0)."""
    fits = []
    for m in measurements:
        shape = tuple(sizes[i] for i in m.clique)
        flat = np.ravel_multi_index(tuple(rows[:, i] for i in m.clique), shape)
        synthetic = np.bincount(flat, minlength=math.prod(shape)).reshape(shape)
        synthetic = (synthetic if m.bins is None else coarsen(synthetic, m.bins)).ravel()
        synthetic = synthetic / max(rows.shape[0], 1)
        noisy = np.maximum(np.asarray(m.values, np.float64).ravel(), 0)
        noisy = noisy / noisy.sum() if noisy.sum() > 0 else np.full(noisy.size, 1 / noisy.size)
        fits.append(0.5 * float(np.abs(synthetic - noisy).sum()))
    return tuple(fits)


def _measure_gaussian(
    true: np.ndarray, clique: Clique, rho: float, rng: PrivateRandom, bins: Bins = None
) -> tuple[NoisyMarginal, Measured]:
    """``true`` (already coarsened to ``bins``) plus discrete Gaussian noise: L2 sensitivity sqrt(2) at
    any coarsening, since a record still leaves one cell and joins one."""
    sigma = gaussian_sigma(rho)
    noisy = true + rng.discrete_gaussian(sigma, true.size).reshape(true.shape)
    return NoisyMarginal(clique, noisy.astype(np.float64), sigma, bins=bins), Measured(
        clique, "discrete Gaussian", sigma, rho, bins
    )


# --- independent marginals ----------------------------------------------------------------------------


def project_to_simplex(values: np.ndarray, total: float) -> np.ndarray:
    """The Euclidean projection of ``values`` onto {x >= 0, sum x = total} (Duchi et al. 2008)."""
    v = np.asarray(values, dtype=np.float64).ravel()
    u = np.sort(v)[::-1]
    cumulative = np.cumsum(u) - total
    index = np.arange(1, v.size + 1)
    rho = np.flatnonzero(u - cumulative / index > 0)[-1]
    theta = cumulative[rho] / (rho + 1)
    return np.maximum(v - theta, 0).reshape(np.shape(values))


def independent_table(
    sizes: Sequence[int], marginals: Marginals, n: int, epsilon: float, rows: int, rng: PrivateRandom
) -> AlgorithmRun[TableRelease]:
    """Pure eps-DP: each of the d 1-way marginals with discrete Laplace of scale 2 d / eps."""
    d = len(sizes)
    scale = L1_SENSITIVITY * d / epsilon
    yield Progress(0.1, "counting the 1-way marginals")
    true = marginals([(j,) for j in range(d)])
    out = np.zeros((rows, d), dtype=np.int64)
    measured, noisy = [], []
    for j, counts in enumerate(true):
        values = counts + rng.discrete_laplace(scale, counts.size)
        record = Measured((j,), "discrete Laplace", scale, epsilon / d)
        noisy.append(NoisyMarginal((j,), values.astype(np.float64), record.stddev))
        measured.append(record)
        cdf = conditional_cdfs(project_to_simplex(values, float(n))[None, :])
        out[:, j] = stratified_draw(cdf, np.zeros(rows, dtype=np.intp), rng)
        yield Progress(0.1 + 0.9 * (j + 1) / d, f"column {j + 1} of {d} measured and drawn")
    return TableRelease(out, tuple(measured), (), _tv_fit(out, sizes, noisy), Accounting.PURE)


# --- MST ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Compression:
    """A column's cells once its rare ones (noisy 1-way count below RARE_SIGMAS sigma) are merged: MST's
    domain compression (McKenna et al. 2021, s4), every rare cell into one (``compress``), or, keeping a
    numeric column's order, each run of adjacent rare cells into one (``compress_runs``). Post-processing
    of the 1-way measurement."""

    mapping: np.ndarray
    """Compressed index of every original cell."""
    size: int
    spread: np.ndarray
    """Per original cell, its share of its compressed cell when a row is spread back: the clipped noisy
    counts normalised within the group, or uniform where they are all 0."""

    @property
    def merges(self) -> bool:
        """Whether any cell moved (MST's one rare cell, even alone, goes last)."""
        return not np.array_equal(self.mapping, np.arange(self.mapping.size))

    def group_sizes(self) -> np.ndarray:
        return np.bincount(self.mapping, minlength=self.size)


def _no_compression(size: int) -> Compression:
    return Compression(np.arange(size), size, np.ones(size))


def _merged(noisy: np.ndarray, mapping: np.ndarray) -> Compression:
    size = int(mapping.max()) + 1
    clipped = np.maximum(noisy, 0).astype(np.float64)
    totals = np.bincount(mapping, clipped, size)[mapping]
    members = np.bincount(mapping, minlength=size)[mapping]
    spread = np.where(totals > 0, clipped / np.where(totals > 0, totals, 1), 1 / members)
    return Compression(mapping, size, spread)


def nearly_constant(noisy: np.ndarray, sigma: float) -> bool:
    """Whether a column's noisy 1-way counts leave at most one cell beyond the rare threshold: every
    marginal with it is then its other columns' marginal, already measured, so AIM offers none (an audit's
    table spent rounds, and its time limit, on pairs with a column holding one value). A function of the
    DP measurement, so public."""
    return int(np.count_nonzero(noisy >= RARE_SIGMAS * sigma)) <= 1


def compress(noisy: np.ndarray, sigma: float) -> Compression:
    """MST's compression: the kept cells in order, then one rare cell holding every rare one."""
    keep = noisy >= RARE_SIGMAS * sigma
    if keep.all():
        return _no_compression(noisy.size)
    mapping = np.full(noisy.size, int(keep.sum()))
    mapping[keep] = np.arange(int(keep.sum()))
    return _merged(noisy, mapping)


def compress_runs(noisy: np.ndarray, sigma: float) -> Compression:
    """Each maximal run of adjacent rare cells merged into one, in place: the cells keep their order."""
    rare = noisy < RARE_SIGMAS * sigma
    starts = np.ones(noisy.size, dtype=bool)
    starts[1:] = ~(rare[1:] & rare[:-1])
    mapping = np.cumsum(starts) - 1
    return _merged(noisy, mapping)


def _compressed_one_way(noisy: NoisyMarginal, compression: Compression) -> NoisyMarginal:
    """A 1-way measurement over its column's compressed cells: a cell merging k cells adds up their noise
    (standard deviation sqrt(k) sigma), so it is weighted 1 / sqrt(k) in the fit."""
    if not compression.merges:
        return noisy
    values = np.bincount(compression.mapping, noisy.values, compression.size)
    weights = 1 / np.sqrt(compression.group_sizes())
    return NoisyMarginal(noisy.clique, values, noisy.stddev, weights)


def _compressed(counts: np.ndarray, clique: Clique, compressions: Sequence[Compression]) -> np.ndarray:
    """A marginal's counts over the compressed cells (merged cells added up)."""
    out = counts
    for axis, j in enumerate(clique):
        c = compressions[j]
        if not c.merges:
            continue
        moved = np.moveaxis(out, axis, 0)
        summed = np.zeros((c.size, *moved.shape[1:]), dtype=np.float64)
        np.add.at(summed, c.mapping, moved)
        out = np.moveaxis(summed, 0, axis)
    return out


def _decompress(rows: np.ndarray, compressions: Sequence[Compression], rng: PrivateRandom) -> np.ndarray:
    """Original cells of compressed rows: a cell that merged nothing is itself, a merged one is drawn from
    its members by ``spread``."""
    out = np.empty_like(rows)
    for j, c in enumerate(compressions):
        if not c.merges:
            out[:, j] = rows[:, j]
            continue
        order = np.argsort(c.mapping, kind="stable")
        first = order[np.searchsorted(c.mapping[order], np.arange(c.size))]  # each cell's first member
        out[:, j] = first[rows[:, j]]
        for group in np.flatnonzero(c.group_sizes() > 1):
            members = np.flatnonzero(c.mapping == group)
            inside = np.flatnonzero(rows[:, j] == group)
            cdf = conditional_cdfs(c.spread[members][None, :])
            out[inside, j] = members[stratified_draw(cdf, np.zeros(inside.size, np.intp), rng)]
    return out


def mst_one_way_rho(rho: float, d: int) -> float:
    """rho of each of MST's d 1-way measurements: a third of rho split over them; half of rho when two
    columns leave one pair, chosen for free (``mst_edge_rho``); all of rho when one column leaves no pair
    to choose or measure (the rest would go unspent)."""
    return rho if d == 1 else rho / 2 / d if d == 2 else rho / 3 / d


def mst_edge_rho(rho: float, d: int) -> tuple[float, float]:
    """rho of each of MST's d - 1 tree edges: its exponential-mechanism choice and its measurement, a third
    of rho each split over the edges (McKenna et al. 2021, s3). Two columns have one pair, the tree's only
    edge whatever the data: choosing it reveals nothing, so no mechanism runs and half of rho measures it."""
    if d == 2:
        return 0.0, rho / 2
    return rho / 3 / (d - 1), rho / 3 / (d - 1)


def mst_table(
    sizes: Sequence[int], marginals: Marginals, n: int, rho: float, rows: int, rng: PrivateRandom
) -> AlgorithmRun[TableRelease]:
    """rho-zCDP MST: rho/3 on the 1-way marginals, rho/3 choosing d - 1 tree edges, rho/3 measuring them
    (two columns: rho/2 on each side, the one edge chosen for free; ``mst_edge_rho``).

    After the 1-way measurements each column's domain is compressed (``compress``); the tree is chosen,
    measured and modelled on the compressed cells, and drawn rows are spread back over the original ones.
    """
    d = len(sizes)
    checkpoint = cancel_checkpoint(rng, FITTING)
    ones = [(j,) for j in range(d)]
    pairs = list(itertools.combinations(range(d), 2))
    yield Progress(0.05, "counting the 1- and 2-way marginals")
    true = dict(zip(ones + pairs, marginals(ones + pairs), strict=True))
    measurements, measured, compressions = [], [], []
    for clique in ones:
        noisy, record = _measure_gaussian(true[clique], clique, mst_one_way_rho(rho, d), rng)
        compressions.append(compress(noisy.values, noisy.stddev))
        measurements.append(_compressed_one_way(noisy, compressions[-1]))
        measured.append(record)
    small = [c.size for c in compressions]
    model = GraphicalModel(small).fit(measurements, n, FIT_ITERS, checkpoint)
    yield Progress(0.3, "1-way marginals measured, domains compressed")
    selected: list[Selected] = []
    if d > 1:
        pick_rho, edge_rho = mst_edge_rho(rho, d)
        eps = selection_epsilon(pick_rho)
        component = list(range(d))

        def root(i: int) -> int:
            while component[i] != i:
                i = component[i]
            return i

        packed = {p: _compressed(true[p], p, compressions) for p in pairs}
        scores = {p: float(np.abs(packed[p] - model.marginal(p)).sum()) for p in pairs}
        for _ in range(d - 1):
            candidates = [p for p in pairs if root(p[0]) != root(p[1])]
            choice = (
                candidates[0]
                if pick_rho == 0  # two columns: the only pair (mst_edge_rho)
                else candidates[
                    exponential_mechanism(
                        np.array([scores[p] for p in candidates]), eps, rng, sensitivity=L1_SENSITIVITY
                    )
                ]
            )
            component[root(choice[0])] = root(choice[1])
            selected.append(Selected(choice, eps, pick_rho))
        for s in selected:
            noisy, record = _measure_gaussian(packed[s.clique], s.clique, edge_rho, rng)
            measurements.append(noisy)
            measured.append(record)
        yield Progress(0.6, "spanning tree chosen and measured; fitting the model")
        model = model.fit(measurements, n, MST_FIT_ITERS, checkpoint)
    table = model.sample(rows, rng)
    fit = _tv_fit(table, small, [NoisyMarginal(m.clique, m.values, m.stddev) for m in measurements])
    yield Progress(1.0, "rows drawn")
    rows_out = _decompress(table, compressions, rng)
    return TableRelease(
        rows_out, tuple(measured), tuple(selected), fit, Accounting.ZCDP, kept_cells=tuple(small)
    )


# --- AIM ---------------------------------------------------------------------------------------------


def aim_weights(candidates: Sequence[Clique], workload_cliques: Sequence[Clique]) -> np.ndarray:
    """AIM's w_r = sum over workload queries s of |r ∩ s| (public)."""
    return np.array([sum(len(set(r) & set(s)) for s in workload_cliques) for r in candidates], float)


def aim_scores(errors: np.ndarray, weights: np.ndarray, sigma: float, cell_counts: np.ndarray) -> np.ndarray:
    """w_r (||M_r(D) - M_r(p)||_1 - sqrt(2/pi) sigma n_r): the expected improvement of measuring r."""
    return weights * (errors - math.sqrt(2 / math.pi) * sigma * cell_counts)


def one_way_budgets(sizes: Sequence[int], rho: float, share: float) -> list[float]:
    """rho of each column's 1-way measurement: ``share`` of rho split in proportion to cells^(2/3), the
    split that minimises the summed expected L1 noise sum_j sqrt(2/pi) n_j / sqrt(rho_j)."""
    parts = np.array([float(s) ** (2 / 3) for s in sizes])
    return list(share * rho * parts / parts.sum())


def coarse_candidates(
    cliques: Sequence[Clique], sizes: Sequence[int], ordered: Sequence[bool], levels: Sequence[int]
) -> list[tuple[Clique, Bins]]:
    """Each clique at its declared cells and, for every multi-column clique and level b, the same clique
    with each ordered column of more than b cells merged to b adjacent groups (public: from the domain)."""
    out: list[tuple[Clique, Bins]] = []
    for clique in cliques:
        out.append((clique, None))
        full = tuple(int(sizes[i]) for i in clique)
        for b in levels if len(clique) > 1 else ():
            bins = tuple(b if ordered[i] and sizes[i] > b else int(sizes[i]) for i in clique)
            if bins != full and (clique, bins) not in out:
                out.append((clique, bins))
    return out


def coarse_offered(sigma: float, full_cells: np.ndarray | float, n: int) -> np.ndarray | bool:
    """Whether a coarsened candidate is offered: its marginal at the declared cells would carry an expected
    noise TV of sqrt(2/pi) sigma cells / (2 n) >= COARSE_FROM_TV (public: sigma, the cells and n)."""
    return math.sqrt(2 / math.pi) * sigma * full_cells / (2 * max(n, 1)) >= COARSE_FROM_TV


def aim_table(
    sizes: Sequence[int],
    marginals: Marginals,
    n: int,
    rho: float,
    rows: int,
    rng: PrivateRandom,
    *,
    way: int = 2,
    max_rounds: int | None = None,
    ordered: Sequence[bool] | None = None,
    levels: Sequence[int] = (),
    time_limit: float | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> AlgorithmRun[TableRelease]:
    """rho-zCDP AIM (Algorithm 1) with the replace-one constants of the module docstring.

    Candidates are the workload's downward closure; with ``levels`` each multi-column one is also offered
    coarsened (``coarse_candidates``: the ``ordered`` columns, all by default, merged to ``levels`` groups),
    so a pair too large to measure at this budget can be learnt at a resolution the budget affords (offered
    only while the declared cells would be too noisy: ``coarse_offered``, a function of the round's sigma,
    which depends on the data only through earlier DP outputs, and of public sizes). A
    coarsened marginal is a linear query of the full-resolution model (``pgm.CoarseQuery``); privacy is
    unchanged (spec 005 s2): a record sits in one coarse cell, so the measurement's L2 sensitivity is
    still sqrt(2) and the score ||coarsen(M_r(D) - M_r(p))||_1 still moves by at most 2 w_r, with n_r the
    coarse cell count. The 1-way measurements take ``ONE_WAY_SHARE`` of rho (``one_way_budgets``), not
    the paper's one round each: on fine grids their noise is a floor under every marginal's error.
    ``max_rounds`` caps the adaptive rounds (public; the last round spends whatever is left).

    After the 1-way measurements, rare cells are merged (MST's domain compression at RARE_SIGMAS): all of a
    categorical column's (not ``ordered``) into one (``compress``), each run of adjacent ones of an ordered
    column into one (``compress_runs``). A function of DP outputs, so public. The rounds then measure and
    model the merged cells; a record still sits in one cell of every marginal, so the sensitivities above
    stand. Drawn rows in a merged cell are spread back over its cells.

    ``time_limit`` (seconds, public) ends the rounds early enough for the run to finish near it: a round is
    the last once the time spent plus twice the longest round so far (the round itself and the final
    refit) would pass the limit, and like a capped round it spends whatever
    is left, so the total stays rho. Privacy is unchanged: the clock starts once the marginals are counted
    (reading a file takes a time that depends on its bytes), and from there the time a round takes depends on
    public sizes, on the earlier DP outputs (the measurements the model is fitted to) and on the machine, not
    on the data beyond those outputs; so the choice of the last round is post-processing, as with
    ``max_rounds``. The limit counts from that point. The exponential mechanism's own time is left out of
    it: its exact sampler takes longer when one score dominates (a privacy review measured 0.8 ms for equal
    scores, 3.4 ms for one dominant, 112 ms for a gap of 1e300), a time that depends on the private scores.
    A FINISH_NOW sent into the run (the custodian's Finish now) makes the next round the last in the same
    way: a choice made outside the data. A last round cut short by either measures up to one marginal per
    column (``final_picks``) rather than one.
    """
    d = len(sizes)
    checkpoint = cancel_checkpoint(rng, FITTING)
    work = workload(d, way)
    closure = downward_closure(work)
    ordered = list(ordered or [True] * d)
    request = yield Progress(0.02, f"counting {len(closure)} marginals")
    requested = request == FINISH_NOW
    true = dict(zip(closure, marginals(closure), strict=True))
    started = clock()  # after the data is read: see the docstring
    rounds = ROUNDS_PER_COLUMN * d if max_rounds is None else max(1, max_rounds)
    one_way = one_way_budgets(sizes, rho, ONE_WAY_SHARE)
    round_rho = (rho - math.fsum(one_way)) / rounds
    sigma = gaussian_sigma(MEASURE_SHARE * round_rho)
    eps = selection_epsilon((1 - MEASURE_SHARE) * round_rho)
    measurements, measured, selected = [], [], []
    used = 0.0
    for j in range(d):
        noisy, record = _measure_gaussian(true[(j,)], (j,), one_way[j], rng)
        measurements.append(noisy)
        measured.append(record)
        used += record.cost
    compressions = [
        (compress_runs if is_ordered else compress)(m.values, m.stddev)
        for is_ordered, m in zip(ordered, measurements, strict=True)
    ]
    constant = [nearly_constant(m.values, m.stddev) for m in measurements]
    sizes = [c.size for c in compressions]
    true = {c: _compressed(true[c], c, compressions) for c in closure}
    measurements = [_compressed_one_way(m, compressions[j]) for j, m in enumerate(measurements)]
    offered_cliques = [c for c in closure if len(c) == 1 or not any(constant[i] for i in c)]
    candidates = coarse_candidates(offered_cliques, sizes, ordered, levels)
    weights = aim_weights([c for c, _ in candidates], work)
    sensitivity = L1_SENSITIVITY * float(weights.max())
    cell_counts = np.array([cells(sizes, c) if b is None else math.prod(b) for c, b in candidates], float)
    full_cells = np.array([cells(sizes, c) for c, _ in candidates], float)
    is_full = np.array([b is None for _, b in candidates])
    model = GraphicalModel(sizes).fit(measurements, n, FIT_ITERS, checkpoint)
    cliques = [(j,) for j in range(d)]
    t, last, longest, time_limited, finished_on_request = 0, False, 0.0, False, False
    selecting = 0.0  # seconds in the exponential mechanism, left out of the time limit's clock (docstring)
    while not last:
        began, selecting_before = clock(), selecting
        remaining = rho - used
        measure_rho, select_rho = 1 / sigma**2, eps**2 / 8
        # fewer than two rounds left (a hair short of two is two: float sums of the 1-way costs ended the
        # rounds of a --max-rounds 2 run after one, or not, with the domain's sizes)
        last = remaining < 2 * (measure_rho + select_rho) * (1 - 1e-9) or t + 1 >= rounds
        finished_on_request = requested and not last
        last = last or requested
        if not last and time_limit is not None:
            time_limited = last = began - started - selecting + 2 * longest > time_limit
        picks = 1
        if last:
            remaining *= 1 - 1e-9  # rounding guard: never spend past rho
            if (time_limited or finished_on_request) and model.size_mb(cliques) <= BATCH_MODEL_MB:
                picks = final_picks(remaining, measure_rho + select_rho, d)
            share = remaining / picks
            measure_rho, select_rho = MEASURE_SHARE * share, (1 - MEASURE_SHARE) * share
            sigma, eps = gaussian_sigma(measure_rho), selection_epsilon(select_rho)
        estimates = {c: model.marginal(c) for c in closure}
        errors = np.array([_l1(true[c] - estimates[c], b) for c, b in candidates])
        offered = is_full | coarse_offered(sigma, full_cells, n)
        this_round: list[tuple[int, NoisyMarginal, float]] = []
        grown = BATCH_MAX_MB if picks > 1 else math.inf
        alone = {c: model.size_mb([*cliques, c]) for c in closure}  # once a round (BATCH_MAX_MB)
        before = model.size_mb(cliques) if picks > 1 else 0.0
        while len(this_round) < picks:  # several only in a last round cut short (see final_picks)
            limit = min(MAX_MODEL_MB * (used + measure_rho + select_rho) / rho, grown)
            grown_by = model.size_mb(cliques) - before if this_round else 0.0
            fits = {c: alone[c] + grown_by <= limit for c in closure}
            feasible = np.array([fits[c] for c, _ in candidates]) & offered
            feasible[np.array([index for index, _, _ in this_round], dtype=np.intp)] = False
            scores = np.where(feasible, aim_scores(errors, weights, sigma, cell_counts), -np.inf)
            if not np.isfinite(scores).any():
                scores = np.where(cell_counts == cell_counts.min(), 0.0, -np.inf)
            selection_began = clock()
            index, pick_eps, pick_select, pick_measure = _aim_pick(
                scores, eps, sensitivity, (select_rho, measure_rho), rng
            )
            selecting += clock() - selection_began
            chosen, bins = candidates[index]
            selected.append(Selected(chosen, pick_eps, pick_select, bins))
            measure = true[chosen] if bins is None else coarsen(true[chosen], bins)
            noisy, record = _measure_gaussian(measure, chosen, pick_measure, rng, bins)
            measurements.append(noisy)
            measured.append(record)
            used += pick_select + record.cost
            cliques.append(chosen)
            this_round.append((index, noisy, noisy.stddev))
        model = model.fit(measurements, n, FIT_ITERS, checkpoint)
        longest = max(longest, clock() - began - (selecting - selecting_before))
        for index, noisy, pick_sigma in this_round:
            t += 1
            chosen, bins = candidates[index]
            fitted = model.marginal(chosen)
            step = AimRound(t, chosen, bins, pick_sigma, _fit_to_noisy(fitted, noisy))
            if barely_moved(_l1(fitted - estimates[chosen], bins), pick_sigma, cell_counts[index]):
                sigma, eps = sigma / 2, eps * 2  # anneal: 4x the per-round budget
            request = yield Progress(min(0.9, used / rho), f"round {t}: measured {chosen}", step)
            requested = requested or request == FINISH_NOW
    yield Progress(0.9, "final fit")
    model = model.fit(measurements, n, FIT_ITERS, checkpoint)  # the final estimate: one more refit
    table = model.sample(rows, rng)
    yield Progress(1.0, "rows drawn")
    fit = _tv_fit(table, sizes, measurements)
    return TableRelease(
        _decompress(table, compressions, rng),
        tuple(measured),
        tuple(selected),
        fit,
        Accounting.ZCDP,
        kept_cells=tuple(sizes),
        time_limited=time_limited,
        finished_on_request=finished_on_request,
        last_picks=picks,
    )


def final_picks(remaining: float, round_rho: float, columns: int) -> int:
    """How many marginals a last round cut short (by the time limit or Finish now) measures: as many
    rounds as ``remaining`` would have paid for at the running round's budget, at most one per column.

    AIM's last round spends what is left (Algorithm 1); cut short early, that is most of rho, and on one
    marginal it buys a precision nothing else in the model shares (a 50k x 20 table measured 70% of rho
    in one pair, 2-way TV 0.30 against MST's 0.20). Measured together, as the rounds it replaces would
    have been, they need one model fit. Each pick is its own exponential mechanism and Gaussian
    measurement at remaining / picks, so the total is still rho; the count depends only on the budget,
    earlier DP outputs (the annealed round budget) and public sizes. On a model over ``BATCH_MODEL_MB``
    the picks' size checks, marginals and larger final fit would run far past the time limit, so the
    round measures one marginal there."""
    if round_rho <= 0:
        return 1
    return max(1, min(columns, math.floor(remaining / round_rho)))


def barely_moved(change: float, sigma: float, cells: float) -> bool:
    """AIM's annealing test (McKenna et al. 2022, Alg. 1, the annealing step): the L1 change of the
    chosen marginal's estimate from the new measurement is at most the expected L1 noise of measuring it,
    sqrt(2/pi) sigma cells. Then a round's budget is too small to teach the model much: sigma halves and
    epsilon doubles, 4x the rho per round (the paper's rule; spec 005 s4 says "double", which the paper
    overrides)."""
    return change <= math.sqrt(2 / math.pi) * sigma * cells


def _fit_to_noisy(fitted: np.ndarray, noisy: NoisyMarginal) -> float:
    """Total-variation distance of the model's marginal (at the measurement's resolution) from the noisy
    measurement clipped at 0 and normalised."""
    model = (fitted if noisy.bins is None else coarsen(fitted, noisy.bins)).ravel()
    measured = np.maximum(np.asarray(noisy.values, np.float64).ravel(), 0)
    if measured.sum() <= 0 or model.sum() <= 0:
        return 1.0
    return 0.5 * float(np.abs(model / model.sum() - measured / measured.sum()).sum())


def _l1(difference: np.ndarray, bins: Bins) -> float:
    """L1 norm of a marginal's difference at the candidate's resolution."""
    return float(np.abs(difference if bins is None else coarsen(difference, bins)).sum())


def _aim_pick(
    scores: np.ndarray, eps: float, sensitivity: float, shares: tuple[float, float], rng: PrivateRandom
) -> tuple[int, float, float, float]:
    """An AIM round's choice among the candidates of finite score: the index, the exponential mechanism's
    epsilon and rho, and the rho left to measure the choice (``shares``: the round's rho for selecting and
    for measuring). Which candidates are feasible is public (the model's size after earlier DP outputs,
    the round's sigma), so when only one is, choosing it reveals nothing: no mechanism runs, and its share
    of the round is measured instead (a table of one column has one candidate in every round)."""
    select_rho, measure_rho = shares
    feasible = np.flatnonzero(np.isfinite(scores))
    if feasible.size == 1:
        return int(feasible[0]), 0.0, 0.0, select_rho + measure_rho
    index = exponential_mechanism(scores[feasible], eps, rng, sensitivity=sensitivity)
    return int(feasible[index]), eps, select_rho, measure_rho
