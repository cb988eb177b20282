"""The sanitization tasks: CDF, many quantiles, histogram and synthetic records (issue 4).

Every predicted error here is an a-priori bound at the spec's beta, in one unit per task so ``auto``
compares like with like: CDF and synthetic in CDF units (max |CDF error|), quantiles in rank error / n,
histograms in frequency (max |count error| / n).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from dpgui.algorithms.approximate_quantiles import (
    QuantilesRelease,
    approximate_quantiles,
    aq_rank_error,
    em_each_quantiles,
    em_each_rank_error,
    parse_quantiles,
    quantiles_from_cdf,
)
from dpgui.algorithms.histogram import geometric_histogram, histogram_error_bound, histogram_scale
from dpgui.algorithms.progress import AlgorithmRun
from dpgui.algorithms.synthetic import sample_from_cdf
from dpgui.algorithms.tie_breaking import BYTES_PER_RECORD, refined_size, with_ties_broken
from dpgui.algorithms.tree_cdf import (
    MAX_TREE_LEAVES,
    TreeCdfRelease,
    TreeNoise,
    TreeShape,
    best_branching,
    cdf_error_bound,
    noise_scale,
    tree_cdf,
)
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.curve import NoiseKind, NoiseRounds, PrivacyCurve
from dpgui.privacy.random import PrivateRandom
from dpgui.tasks.median import BETA
from dpgui.tasks.outputs import ReleaseTable, cdf_meaning, histogram_meaning, quantile_meaning
from dpgui.tasks.registry import (
    AlgorithmInfo,
    Guarantee,
    ParameterSpec,
    PreconditionFailure,
    Runner,
    register,
)
from dpgui.tasks.spec import TaskKind, TaskSpec

if TYPE_CHECKING:
    from dpgui.data.aggregate import Aggregator

FREQUENCY_UNIT = "max |frequency error| (count error / n)"

BRANCHING = ParameterSpec(
    "branching",
    int,
    0,
    "How many children each node of the tree of noisy counts has, 2 to 64 (0: "
    "the number with the smallest expected error).",
    0,
    64,
    advanced=True,
)
QUANTILES = ParameterSpec(
    "q", str, "0.25,0.5,0.75", "The quantiles to release, comma-separated, each in [0, 1]."
)
NORMALISE = ParameterSpec(
    "normalise", bool, False, "Also release each cell's fraction of the released total."
)
ROWS = ParameterSpec(
    "rows", int, 1000, "Number of synthetic records (public; any number costs the same).", 1, 10**7
)

STEP_ROWS_ABOVE = 1 << 20
"""Above this many grid points a CDF is written only where it steps (lossless for a step function)."""

_TREE_NOTE = (
    "post-processing: least-squares consistency of the noisy tree (Hay et al. 2010; Honaker 2015), "
    "isotonic regression, clipping to [0, 1], last value 1"
)


def _beta(spec: TaskSpec) -> float:
    return float(spec.parameter("beta", BETA.default))


def _branching(spec: TaskSpec) -> int | None:
    return int(spec.parameter("branching", 0)) or None


def _pure_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon)


def _approx_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon, spec.delta)


def _numeric_domain(spec: TaskSpec) -> tuple[PreconditionFailure, ...]:
    if isinstance(spec.domains[0], NumericDomain):
        return ()
    return (
        PreconditionFailure(
            f"column {spec.columns[0]!r} needs a numeric domain (bounds and granularity)", parameter=True
        ),
    )


def _tree_fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    failures = _numeric_domain(spec)
    if failures:
        return failures
    if spec.domain.size > MAX_TREE_LEAVES:
        return (
            PreconditionFailure(
                f"the tree works on at most 2^26 grid points; the declared grid has {spec.domain.size}. "
                "Use a coarser granularity (or fewer bins).",
                parameter=True,
            ),
        )
    return ()


def _gaussian_fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    if spec.delta <= 0:
        return (PreconditionFailure("the Gaussian tree is approximate DP: give a δ > 0 (e.g. 1e-6)"),)
    return _tree_fits(spec, n)


def _rho(spec: TaskSpec) -> float:
    return zcdp_rho_for(_approx_cost(spec))


def _tree_curve(noise: TreeNoise) -> Callable[[TaskSpec], PrivacyCurve | None]:
    """The tree's exact curve: replacing a record moves at most 2 real nodes per level by 1 each, so the
    release is 2h independent discrete Laplace (or Gaussian) answers of sensitivity 1 (tree_cdf's module doc).
    None for a grid the tree refuses or a one-point grid (no noise)."""
    gaussian = noise is TreeNoise.GAUSSIAN

    def curve(spec: TaskSpec) -> PrivacyCurve | None:
        if _tree_fits(spec, 0) or (gaussian and spec.delta <= 0) or spec.domain.size < 2:
            return None
        leaves = spec.domain.size
        shape = TreeShape.for_grid(leaves, _branching(spec) or best_branching(leaves, noise))
        scale = noise_scale(noise, shape.height, spec.epsilon, _rho(spec) if gaussian else None)
        kind = NoiseKind.DISCRETE_GAUSSIAN if gaussian else NoiseKind.DISCRETE_LAPLACE
        rounds = NoiseRounds(kind, scale, 1, 2 * shape.height)
        return PrivacyCurve.gaussian_rounds(rounds) if gaussian else PrivacyCurve((rounds,))

    return curve


def _histogram_curve(spec: TaskSpec) -> PrivacyCurve:
    """Replace-one moves one record between two cells: two discrete Laplace answers of sensitivity 1."""
    return PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, histogram_scale(spec.epsilon), 1, 2),))


def _tree_error(spec: TaskSpec, n: int, noise: TreeNoise) -> float:
    if _tree_fits(spec, n) or (noise is TreeNoise.GAUSSIAN and spec.delta <= 0):
        return math.inf
    rho = _rho(spec) if noise is TreeNoise.GAUSSIAN else None
    return cdf_error_bound(
        spec.domain.size, n, spec.epsilon, _beta(spec), noise=noise, rho=rho, branching=_branching(spec)
    )


def _release_tree(
    spec: TaskSpec, data: Aggregator, rng: PrivateRandom, noise: TreeNoise
) -> AlgorithmRun[TreeCdfRelease]:
    histogram = data.histogram(spec.columns[0], spec.domain, spec.missing)
    rho = _rho(spec) if noise is TreeNoise.GAUSSIAN else None
    release = yield from tree_cdf(
        histogram, data.count(), spec.epsilon, rng, noise=noise, rho=rho, branching=_branching(spec)
    )
    return release


def _cdf_table(spec: TaskSpec, release: TreeCdfRelease, notes: tuple[str, ...]) -> ReleaseTable:
    cdf = release.cdf
    indices = np.arange(cdf.size)
    if cdf.size > STEP_ROWS_ABOVE:
        indices = np.flatnonzero(np.concatenate([[True], cdf[1:] != cdf[:-1]]))
        notes += (f"rows only where the CDF steps; each holds up to the next row ({cdf.size} grid points)",)
    rows = tuple(zip(spec.domain.values_of(indices), cdf[indices].tolist(), strict=True))
    return ReleaseTable(("value", "cdf"), rows, notes, meaning=cdf_meaning(spec.columns[0], spec.domain))


def _bound_note(spec: TaskSpec, n: int, noise: TreeNoise) -> str:
    alpha = _tree_error(spec, n, noise)
    return f"a-priori: with probability >= {1 - _beta(spec):g} every CDF value is within {alpha:.4g}"


def _run_cdf(noise: TreeNoise) -> Runner:
    def run(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
        release = yield from _release_tree(spec, data, rng, noise)
        shape = f"{release.shape.branching}-ary tree, {release.shape.height} noisy levels"
        notes = (_TREE_NOTE, shape, _bound_note(spec, data.count(), noise))
        return _cdf_table(spec, release, notes)

    return run


def _cdf_info(name: str, noise: TreeNoise, guarantee: Guarantee, summary: str) -> AlgorithmInfo:
    gaussian = noise is TreeNoise.GAUSSIAN
    return register(
        AlgorithmInfo(
            name=name,
            title=f"Tree of counts ({'discrete Gaussian, zCDP' if gaussian else 'discrete Laplace'})",
            task=TaskKind.CDF,
            paper="Hay, Rastogi, Miklau, Suciu 2010; Honaker 2015; Chan, Shi, Song 2011",
            section="anchors s2.1, s2.4",
            guarantee=guarantee,
            summary=summary,
            cost=_approx_cost if gaussian else _pure_cost,
            predicted_error=lambda spec, n: _tree_error(spec, n, noise),
            error_unit="max |CDF error|",
            run=_run_cdf(noise),
            parameters=(BETA, BRANCHING),
            preconditions=_gaussian_fits if gaussian else _tree_fits,
            curve=_tree_curve(noise),
            calibrated=True,
        )
    )


TREE_LAPLACE = _cdf_info(
    "tree-laplace",
    TreeNoise.LAPLACE,
    Guarantee.PURE,
    "Counts of a b-ary tree over the grid with discrete Laplace noise (scale 2·levels/ε), made consistent "
    "by least squares; the CDF is their prefix sums / n, made monotone.",
)
TREE_GAUSSIAN = _cdf_info(
    "tree-gaussian",
    TreeNoise.GAUSSIAN,
    Guarantee.APPROXIMATE,
    "The same tree with discrete Gaussian noise calibrated in zCDP (L2 sensitivity √(2·levels)); better "
    "than Laplace on deep trees when δ > 0 is acceptable.",
)


# --- quantiles -------------------------------------------------------------------------------------------


def _qs(spec: TaskSpec) -> tuple[float, ...]:
    return parse_quantiles(str(spec.parameter("q", QUANTILES.default)))


def _quantile_fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    try:
        _qs(spec)
    except ValueError as error:
        return (PreconditionFailure(str(error), parameter=True),)
    return _numeric_domain(spec)


def _tree_quantile_fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    return _quantile_fits(spec, n) or _tree_fits(spec, n)


def _quantile_table(spec: TaskSpec, release: QuantilesRelease, notes: tuple[str, ...]) -> ReleaseTable:
    values = spec.domain.values_of(np.array(release.indices, dtype=np.uint64))
    rows = tuple(zip(release.qs, values, strict=True))
    return ReleaseTable(("q", "value"), rows, notes, meaning=quantile_meaning(spec.columns[0], spec.domain))


def _run_aq(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from with_ties_broken(
        approximate_quantiles, values, counts, spec.domain.size, _qs(spec), spec.epsilon, rng
    )
    return _quantile_table(spec, release, ())


def _run_em_each(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from em_each_quantiles(values, counts, spec.domain.size, _qs(spec), spec.epsilon, rng)
    return _quantile_table(spec, release, ())


def _run_tree_quantiles(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    tree = yield from _release_tree(spec, data, rng, TreeNoise.LAPLACE)
    qs = _qs(spec)
    release = QuantilesRelease(qs, quantiles_from_cdf(tree.cdf, qs))
    return _quantile_table(
        spec, release, (_TREE_NOTE, "quantiles read off the released CDF (post-processing)")
    )


RankBound = Callable[[int, tuple[float, ...], float, float], float]
"""(domain size, quantiles, epsilon, beta) -> a rank error bound."""


def _quantile_error(spec: TaskSpec, n: int, bound: RankBound, *, refined: bool = False) -> float:
    """``bound`` over the declared grid, or over the finer grid on which ``tie_breaking`` runs AQ."""
    if _quantile_fits(spec, n):
        return math.inf
    size = refined_size(spec.domain.size) if refined else spec.domain.size
    return bound(size, _qs(spec), spec.epsilon, _beta(spec)) / max(n, 1)


AQ = register(
    AlgorithmInfo(
        name="aq",
        title="Approximate quantiles (recursive splitting)",
        task=TaskKind.QUANTILES,
        paper="Kaplan, Schnapp, Stemmer 2022 (ICML), Algorithm 1",
        section="anchors s2.1",
        guarantee=Guarantee.PURE,
        summary="Releases the middle quantile by the exponential mechanism, splits the data there and "
        "recurses on both sides: log2(m)+1 levels share ε, so the error grows like log² m, not m.",
        cost=_pure_cost,
        predicted_error=lambda spec, n: _quantile_error(spec, n, aq_rank_error, refined=True),
        error_unit="rank error / n",
        run=_run_aq,
        parameters=(BETA, QUANTILES),
        preconditions=_quantile_fits,
        calibrated=True,
        bytes_per_record=BYTES_PER_RECORD,
    )
)
EM_EACH = register(
    AlgorithmInfo(
        name="em-each",
        title="Exponential mechanism per quantile",
        task=TaskKind.QUANTILES,
        paper="Smith 2011 (IndExp in Gillenwater, Joseph, Kulesza 2021)",
        section="anchors s2.1",
        guarantee=Guarantee.PURE,
        summary="One exponential mechanism per quantile at ε/m each (basic composition).",
        cost=_pure_cost,
        predicted_error=lambda spec, n: _quantile_error(
            spec, n, lambda size, qs, eps, beta: em_each_rank_error(size, len(qs), eps, beta)
        ),
        error_unit="rank error / n",
        run=_run_em_each,
        parameters=(BETA, QUANTILES),
        preconditions=_quantile_fits,
        calibrated=True,
        curve=lambda spec: PrivacyCurve.pure_steps(spec.epsilon / len(_qs(spec)), len(_qs(spec))),
    )
)
TREE_QUANTILES = register(
    AlgorithmInfo(
        name="tree-cdf",
        title="Quantiles read off a tree CDF",
        task=TaskKind.QUANTILES,
        paper="Hay et al. 2010; Honaker 2015",
        section="anchors s2.1",
        guarantee=Guarantee.PURE,
        summary="Releases the whole CDF by the Laplace tree and reads every quantile off it: the error does "
        "not grow with the number of quantiles.",
        cost=_pure_cost,
        predicted_error=lambda spec, n: (
            math.inf if _tree_quantile_fits(spec, n) else _tree_error(spec, n, TreeNoise.LAPLACE)
        ),
        error_unit="rank error / n",
        run=_run_tree_quantiles,
        parameters=(BETA, QUANTILES, BRANCHING),
        preconditions=_tree_quantile_fits,
        curve=_tree_curve(TreeNoise.LAPLACE),
        calibrated=True,
    )
)


# --- histogram --------------------------------------------------------------------------------------------


def _histogram_fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    domain = spec.domains[0]
    if isinstance(domain, NumericDomain) and domain.size > MAX_TREE_LEAVES:
        return (
            PreconditionFailure(
                f"a histogram has at most 2^26 cells; the declared grid has {domain.size}. "
                "Use a coarser granularity (or fewer bins).",
                parameter=True,
            ),
        )
    return ()


def _run_histogram(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    domain = spec.domains[0]
    normalise = bool(spec.parameter("normalise", NORMALISE.default))
    if isinstance(domain, CategoricalDomain):
        counts = data.category_counts(spec.columns[0], domain, spec.missing)
        labels: list[float | int | str] = list(domain.labels)
        first, meaning = "category", ""
    else:
        counts = data.histogram(spec.columns[0], domain, spec.missing)
        labels, first = domain.values_of(np.arange(domain.size)), "value"
        meaning = histogram_meaning(spec.columns[0], domain)
    release = yield from geometric_histogram(counts, spec.epsilon, rng, normalise=normalise)
    bound = histogram_error_bound(len(labels), spec.epsilon, _beta(spec))
    notes = (
        "post-processing: noisy counts clipped at 0"
        + (", fractions of the released total" if normalise else ""),
        f"a-priori: with probability >= {1 - _beta(spec):g} every count is within {bound} of the truth",
    )
    if release.fractions is None:
        rows = tuple(zip(labels, release.counts.tolist(), strict=True))
        return ReleaseTable((first, "count"), rows, notes, meaning=meaning)
    rows = tuple(zip(labels, release.counts.tolist(), release.fractions.tolist(), strict=True))
    return ReleaseTable((first, "count", "fraction"), rows, notes, meaning=meaning)


GEOMETRIC = register(
    AlgorithmInfo(
        name="geometric",
        title="Geometric (discrete Laplace) histogram",
        task=TaskKind.HISTOGRAM,
        paper="Dwork, McSherry, Nissim, Smith 2006; Ghosh, Roughgarden, Sundararajan 2009",
        section="000 s3.1, s12",
        guarantee=Guarantee.PURE,
        summary="Every cell's count plus discrete Laplace noise of scale 2/ε (replace-one moves one record "
        "between two cells), clipped at 0.",
        cost=_pure_cost,
        predicted_error=lambda spec, n: (
            math.inf
            if _histogram_fits(spec, n)
            else float(histogram_error_bound(spec.domains[0].size, spec.epsilon, _beta(spec))) / max(n, 1)
        ),
        error_unit=FREQUENCY_UNIT,
        run=_run_histogram,
        parameters=(BETA, NORMALISE),
        preconditions=_histogram_fits,
        curve=_histogram_curve,
    )
)


# --- synthetic records ------------------------------------------------------------------------------------


def _run_synthetic(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    tree = yield from _release_tree(spec, data, rng, TreeNoise.LAPLACE)
    rows = int(spec.parameter("rows", ROWS.default))
    records = spec.domain.values_of(sample_from_cdf(tree.cdf, rows, rng))
    notes = (_TREE_NOTE, f"{rows} records drawn from the released CDF (post-processing)")
    return ReleaseTable((spec.columns[0],), tuple((value,) for value in records), notes)


TREE_SYNTHETIC = register(
    AlgorithmInfo(
        name="tree-synthetic",
        title="Synthetic records from a tree CDF",
        task=TaskKind.SYNTHETIC,
        paper="Hay et al. 2010; Honaker 2015",
        section="anchors s2.1",
        guarantee=Guarantee.PURE,
        summary="Releases the CDF by the Laplace tree, then draws the requested number of records from it "
        "by inverse-CDF sampling (free post-processing).",
        cost=_pure_cost,
        predicted_error=lambda spec, n: _tree_error(spec, n, TreeNoise.LAPLACE),
        error_unit="max |CDF error|",
        run=_run_synthetic,
        parameters=(BETA, ROWS, BRANCHING),
        preconditions=_tree_fits,
        curve=_tree_curve(TreeNoise.LAPLACE),
    )
)
