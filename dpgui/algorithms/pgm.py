"""Graphical-model estimation from noisy marginals (Private-PGM), and sampling rows from the model.

Estimation is the authors' library ``mbi`` (McKenna, Sheldon, Miklau, "Graphical-model based estimation
and inference for differential privacy", ICML 2019): mirror descent on the measurements' Gaussian
negative log-likelihood over a Markov random field whose cliques are the measured marginals. ``mbi`` (and
JAX under it) is imported on first use only, so the app starts without it.

Sampling rows is ours, not ``mbi.MarkovRandomField.synthetic_data`` (which draws from numpy's global
generator): ancestral sampling along the junction tree's elimination order, every uniform from the run's
:class:`PrivateRandom`. Everything here is post-processing of DP measurements.
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dpgui.privacy.cancellable import wait_cancellably
from dpgui.privacy.random import PrivateRandom

Clique = tuple[int, ...]

PROCESS_MAPS = Path("/proc/self/maps")
MAX_MAP_COUNT = Path("/proc/sys/vm/max_map_count")
MAPS_SHARE_BEFORE_CLEARING = 0.5
"""JAX keeps every XLA program it compiles, and each model structure (every AIM round adds a clique)
compiles new ones whose machine code takes memory mappings: about 1,000-1,700 per round at 25 columns.
Linux caps a process's mappings (``vm.max_map_count``, 65,530 by default) and an allocation past the cap
crashes the process (LLVM "Cannot allocate memory", then a segmentation fault) after the budget is
charged. Past this share of the cap the compiled programs are dropped; those of past structures are never
reused, and clearing after every fit instead made 30 rounds 1.6x slower."""


@functools.cache
def _mbi() -> Any:
    """Import ``mbi`` once, with JAX in float64 (counts of large files) and its cache warnings quiet."""
    import jax

    jax.config.update("jax_enable_x64", True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import mbi
    return mbi


def _jax() -> Any:
    """JAX, as ``_mbi`` configured it."""
    _mbi()
    import jax

    return jax


def _name(i: int) -> str:
    return f"c{i}"


def _names(clique: Clique) -> tuple[str, ...]:
    return tuple(_name(i) for i in clique)


def merge_matrix(size: int, bins: int) -> np.ndarray:
    """(bins, size) 0/1 matrix merging ``size`` adjacent cells into ``bins`` groups of nearly equal width:
    cell i goes to group i * bins // size. Public: it depends on the declared domain only."""
    matrix = np.zeros((bins, size))
    matrix[np.arange(size) * bins // size, np.arange(size)] = 1.0
    return matrix


def coarsen(counts: np.ndarray, bins: Sequence[int]) -> np.ndarray:
    """A marginal's counts with each axis merged to ``bins[axis]`` adjacent groups (``merge_matrix``)."""
    out = np.asarray(counts, np.float64)
    for axis, b in enumerate(bins):
        if b != out.shape[axis]:
            out = np.moveaxis(np.tensordot(merge_matrix(out.shape[axis], b), out, axes=(1, axis)), 0, axis)
    return out


@dataclass(frozen=True)
class CoarseQuery:
    """mbi query: a factor's table over the measured clique merged to ``bins`` (``coarsen`` in JAX).

    Each fine cell sits in one coarse cell, so ||Q||_2^2 is the product of the largest group sizes."""

    shape: tuple[int, ...]
    bins: tuple[int, ...]

    def __call__(self, factor: Any) -> Any:
        import jax.numpy as jnp

        out = factor.datavector(flatten=False)
        for axis, (size, b) in enumerate(zip(self.shape, self.bins, strict=True)):
            if b != size:
                out = jnp.moveaxis(jnp.tensordot(merge_matrix(size, b), out, axes=(1, axis)), 0, axis)
        return out.ravel()

    def op_norm_sq(self) -> float:
        groups = zip(self.shape, self.bins, strict=True)
        return float(math.prod(merge_matrix(s, b).sum(axis=1).max() for s, b in groups))


@dataclass(frozen=True)
class WeightedCells:
    """mbi query: a factor's cells scaled by fixed weights (mbi's ``WeightedQuery``, compared by value).

    JAX keys a compiled fit on its queries: mbi's own compares by identity, so a refit of the same
    measurements (AIM's final fit after its last round) compiled its program again; this one hits."""

    weights: tuple[float, ...]

    def __call__(self, factor: Any) -> Any:
        import jax.numpy as jnp

        return factor.datavector() * jnp.asarray(self.weights)

    def op_norm_sq(self) -> float:
        return max(w * w for w in self.weights)


@dataclass(frozen=True)
class NoisyMarginal:
    """A DP measurement: the counts over ``clique`` plus noise of standard deviation ``stddev``.

    With ``weights`` (one per cell, flattened) the cell i was measured with standard deviation
    ``stddev / weights[i]`` (e.g. a sum of merged cells), and the fit compares weights * counts.
    With ``bins`` the counts are those of the clique's marginal merged to ``bins`` groups per axis
    (``coarsen``): a linear query of the full-resolution model."""

    clique: Clique
    values: np.ndarray
    stddev: float
    weights: np.ndarray | None = None
    bins: tuple[int, ...] | None = None


def _count_lines(path: Path) -> int | None:
    """Lines of a /proc file, or None where there is no such file (not Linux) or it cannot be read."""
    try:
        return path.read_bytes().count(b"\n")
    except OSError:
        return None


@functools.cache
def _map_cap() -> int | None:
    try:
        return int(MAX_MAP_COUNT.read_text())
    except (OSError, ValueError):
        return None


def release_compiled_programs_near_the_map_cap(
    mappings: Callable[[], int | None] = lambda: _count_lines(PROCESS_MAPS),
    cap: Callable[[], int | None] = _map_cap,
) -> bool:
    """Drop JAX's compiled programs once the process holds MAPS_SHARE_BEFORE_CLEARING of the kernel's cap
    on memory mappings (Linux); returns whether it did. Elsewhere there is no such cap and nothing to do."""
    limit, held = cap(), mappings()
    if limit is None or held is None or held < MAPS_SHARE_BEFORE_CLEARING * limit:
        return False
    import jax

    jax.clear_caches()
    return True


class GraphicalModel:
    """A Markov random field fitted to noisy marginals (a thin wrapper over ``mbi``)."""

    def __init__(self, sizes: Sequence[int], model: Any = None, total: float = 1.0) -> None:
        self.sizes = tuple(int(s) for s in sizes)
        self._model = model
        self.total = float(total)

    def _domain(self) -> Any:
        mbi = _mbi()
        return mbi.Domain(tuple(_name(i) for i in range(len(self.sizes))), self.sizes)

    def fit(
        self,
        measurements: Sequence[NoisyMarginal],
        total: float,
        iters: int,
        checkpoint: Callable[[], None] | None = None,
    ) -> GraphicalModel:
        """A model whose marginals agree with the measurements (warm-started from this one).

        With a ``checkpoint`` (``cancel_checkpoint``: it raises at a cancel) the fit runs under
        ``wait_cancellably``, so a cancel lands within its POLL_SECONDS even while JAX compiles the fit's
        programs, most of a fit's time on the demo table (MST's final fit: 7 s of compiling, then 0.2 s for
        its 2,000 iterations). The fit also calls it after every ``mbi.estimation.CALLBACK_EVERY`` (50)
        iterations through mbi's ``callback_fn``, so a fit given up stops there; the callback only watches
        (the iterations, step sizes and result are those of a fit without it)."""
        mbi = _mbi()
        linear = []
        for m in measurements:
            values = np.asarray(m.values, np.float64).ravel()
            if m.bins is not None:
                query = CoarseQuery(tuple(self.sizes[i] for i in m.clique), m.bins)
                linear.append(mbi.LinearMeasurement(values, _names(m.clique), m.stddev, query))
            elif m.weights is None:
                linear.append(mbi.LinearMeasurement(values, _names(m.clique), m.stddev))
            else:
                query = WeightedCells(tuple(float(w) for w in np.ravel(m.weights)))
                linear.append(mbi.LinearMeasurement(values * m.weights, _names(m.clique), m.stddev, query))
        jax = _jax()

        def estimate(between_chunks: Callable[[Any], None] | None) -> GraphicalModel:
            model = mbi.estimation.MirrorDescent().estimate(
                self._domain(),
                linear,
                known_total=float(total),
                iters=iters,
                warm_start=self._model,
                callback_fn=between_chunks,
            )
            jax.block_until_ready((model.potentials, model.marginals))  # JAX is asynchronous: wait for it
            release_compiled_programs_near_the_map_cap()
            return GraphicalModel(self.sizes, model, total)

        if checkpoint is None:
            return estimate(None)

        def between_chunks(marginals: Any) -> None:
            jax.block_until_ready(marginals)  # JAX dispatches chunks ahead of their work: wait for this one
            checkpoint()

        return wait_cancellably(lambda: estimate(between_chunks), checkpoint)

    def marginal(self, clique: Clique) -> np.ndarray:
        """The model's counts over ``clique`` (uniform before any fit), shaped by the clique's sizes.

        Variable elimination in numpy on the model's log-potentials (what ``mbi``'s
        ``variable_elimination`` computes, without compiling a JAX program per query and model)."""
        shape = tuple(self.sizes[i] for i in clique)
        if self._model is None:
            return np.full(shape, self.total / math.prod(shape))
        log = _eliminate(self._log_potentials, tuple(clique), self.sizes)
        log -= log.max()
        values = np.exp(log)
        return values * (self.total / values.sum())

    @functools.cached_property
    def _log_potentials(self) -> list[tuple[Clique, np.ndarray]]:
        return [
            (tuple(int(a[1:]) for a in factor.domain.attributes), np.asarray(factor.values, np.float64))
            for factor in self._model.potentials.tables.values()
        ]

    def size_mb(self, cliques: Sequence[Clique]) -> float:
        """Megabytes of the junction tree a model over these cliques would hold (public arithmetic)."""
        return float(
            _mbi().junction_tree.hypothetical_model_size(self._domain(), [_names(c) for c in cliques])
        )

    def sample(self, rows: int, rng: PrivateRandom) -> np.ndarray:
        """(rows, k) int64 cell indices drawn i.i.d. from the model (ancestral sampling)."""
        mbi = _mbi()
        k = len(self.sizes)
        out = np.zeros((rows, k), dtype=np.int64)
        if self._model is None:
            for j, size in enumerate(self.sizes):
                out[:, j] = rng.uniform_ints(size, rows)
            return out
        cliques = [tuple(c) for c in self._model.cliques]
        jtree, order = mbi.junction_tree.make_junction_tree(self._domain(), cliques)
        nodes = [set(node) for node in jtree.nodes]
        potentials = self._model.potentials.expand(list(jtree.nodes))
        marginals = mbi.marginal_oracles.message_passing_stable(potentials, self._model.total)
        used: list[str] = []
        for name in order[::-1]:
            parents = tuple(p for p in used if any(name in node and p in node for node in nodes))
            joint = np.asarray(marginals.project((*parents, name)).datavector(flatten=False), np.float64)
            joint = np.maximum(joint.reshape(-1, joint.shape[-1]), 0.0)
            column = int(name[1:])
            if parents:
                parent_shape = tuple(self.sizes[int(p[1:])] for p in parents)
                keys = np.ravel_multi_index(tuple(out[:, int(p[1:])] for p in parents), parent_shape)
            else:
                keys = np.zeros(rows, dtype=np.intp)
            out[:, column] = _conditional_draw(joint, keys, rng)
            used.append(name)
        return out


def _aligned(variables: Clique, table: np.ndarray, target: Clique, sizes: Sequence[int]) -> np.ndarray:
    """``table`` (axes in ``variables`` order) transposed and reshaped to broadcast over ``target``."""
    order = sorted(range(len(variables)), key=lambda k: target.index(variables[k]))
    shape = [1] * len(target)
    for v in variables:
        shape[target.index(v)] = sizes[v]
    return np.transpose(table, order).reshape(shape)


def _combine(
    factors: Sequence[tuple[Clique, np.ndarray]], target: Clique, sizes: Sequence[int]
) -> np.ndarray:
    """The sum of log-factors over the variables ``target`` (a full array in ``target`` order)."""
    out = np.zeros(tuple(sizes[v] for v in target))
    for variables, table in factors:
        out = out + _aligned(variables, table, target, sizes)
    return out


def _width(factors: Sequence[tuple[Clique, np.ndarray]], z: int, sizes: Sequence[int]) -> int:
    """Cells of the factor that summing out ``z`` would build."""
    return math.prod(sizes[v] for v in set().union(*(set(v) for v, _ in factors if z in v)))


def _eliminate(
    factors: Sequence[tuple[Clique, np.ndarray]], query: Clique, sizes: Sequence[int]
) -> np.ndarray:
    """Unnormalised log-marginal over ``query`` (in its order) of exp(sum of the log-factors): variables
    are summed out one by one, each time the one whose factors' union is smallest (greedy order)."""
    factors = list(factors)
    remaining = set().union(*(set(v) for v, _ in factors)) - set(query)
    while remaining:
        z = min(sorted(remaining), key=lambda z, factors=factors: _width(factors, z, sizes))
        involved = [f for f in factors if z in f[0]]
        union = tuple(sorted(set().union(*(set(v) for v, _ in involved))))
        joint = _combine(involved, union, sizes)
        axis = union.index(z)
        top = joint.max(axis=axis, keepdims=True)
        summed = np.log(np.exp(joint - top).sum(axis=axis)) + np.squeeze(top, axis=axis)
        factors = [f for f in factors if z not in f[0]] + [(union[:axis] + union[axis + 1 :], summed)]
        remaining.discard(z)
    return _combine(factors, query, sizes)


def _conditional_draw(joint: np.ndarray, keys: np.ndarray, rng: PrivateRandom) -> np.ndarray:
    """For each row, a cell of the last axis drawn from ``joint[key]`` normalised (uniform if all 0).

    Stratified within each key's group of g rows (the i-th row of the group gets the uniform
    (i + U) / g, then the group is shuffled), so each cell's count is within 1 of g times its
    probability: the randomized rounding of Private-PGM's generator, with less sampling noise than i.i.d.
    """
    return stratified_draw(conditional_cdfs(joint), keys, rng)


def conditional_cdfs(joint: np.ndarray) -> np.ndarray:
    """Row-normalised cumulative sums of a (keys, cells) array of non-negative weights."""
    totals = joint.sum(axis=1, keepdims=True)
    uniform = np.full_like(joint, 1.0 / joint.shape[1])
    conditional = np.divide(joint, totals, out=uniform, where=totals > 0)
    cdf = np.cumsum(conditional, axis=1)
    cdf[:, -1] = 1.0
    return cdf


def stratified_draw(cdf: np.ndarray, keys: np.ndarray, rng: PrivateRandom) -> np.ndarray:
    """One cell per row from ``cdf[key]``, stratified within each key's group (see ``_conditional_draw``)."""
    rows = keys.size
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    starts = np.flatnonzero(np.concatenate([[True], sorted_keys[1:] != sorted_keys[:-1]])) if rows else order
    sizes = np.diff(np.append(starts, rows))
    rank = np.arange(rows) - np.repeat(starts, sizes)
    u = (rank + rng.uniform01(rows)) / np.repeat(sizes, sizes)
    drawn = np.empty(rows, dtype=np.int64)
    for start, size in zip(starts.tolist(), sizes.tolist(), strict=True):
        group = slice(start, start + size)  # cells of the key's cdf below u: a binary search, O(log cells)
        drawn[group] = np.searchsorted(cdf[sorted_keys[start]], u[group], side="left")
    shuffled = np.lexsort((rng.uniform01(rows), keys))
    out = np.empty(rows, dtype=np.int64)
    out[shuffled] = drawn
    return np.minimum(out, cdf.shape[1] - 1)
