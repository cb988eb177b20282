"""Issue 18: data-adaptive range-query sanitizers (PrivTree and DAWA for the CDF, histogram and synthetic
records tasks) and joint quantiles (JointExp).

Both choose a partition of the grid into buckets privately, then release the buckets' CDF by a tree with
consistency and spread each bucket uniformly over its grid points (``dpgui.algorithms.bucket_cdf``). Where
the data leaves long stretches of the grid empty, no noise is spent on them; where it is uniform, a bucket
answers for many grid points. All three tasks read the same released CDF: the histogram is its
differences times n (fractional counts), the synthetic records are drawn from it by inverse-CDF sampling.

Predicted error: an a-priori bound at the spec's beta in max |CDF error| (the histogram in frequency).
PrivTree's leaves hold at most theta + depth delta + lambda ln(2N/beta) records (a leaf's biased noisy
count did not cross theta; union bound over the at most 2N split tests), and spreading a leaf uniformly
moves the CDF inside it by at most its count, so the bound is that count plus the bucket tree's bound
with eps_2 on at most N buckets. DAWA's buckets carry no such count bound (a bucket may hold many records
when they are spread evenly); its bound (``bucket_bias_bound``) is valid but loose, and ``auto`` ranks both
families by their simulated error on data of the declared shape.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from dpgui.algorithms.approximate_quantiles import QuantilesRelease, parse_quantiles, quantiles_from_cdf
from dpgui.algorithms.bucket_cdf import BucketCdfRelease
from dpgui.algorithms.dawa import (
    PARTITION_SHARE,
    bucket_bias_bound,
    bucket_penalty,
    dawa_cdf,
    typical_buckets,
)
from dpgui.algorithms.joint_exp import joint_exp_fits, joint_exp_quantiles
from dpgui.algorithms.privtree import TREE_SHARE, PrivTreeParameters, privtree_cdf
from dpgui.algorithms.progress import AlgorithmRun
from dpgui.algorithms.synthetic import sample_from_cdf
from dpgui.algorithms.tie_breaking import BYTES_PER_RECORD, refined_size, with_ties_broken
from dpgui.algorithms.tree_cdf import cdf_error_bound
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import PrivateRandom
from dpgui.tasks.median import BETA
from dpgui.tasks.outputs import ReleaseTable, histogram_meaning
from dpgui.tasks.registry import AlgorithmInfo, Guarantee, ParameterSpec, PreconditionFailure, register
from dpgui.tasks.sanitize import (
    BRANCHING,
    FREQUENCY_UNIT,
    QUANTILES,
    ROWS,
    _cdf_table,
    _quantile_fits,
    _quantile_table,
    _tree_fits,
)
from dpgui.tasks.spec import TaskKind, TaskSpec

if TYPE_CHECKING:
    from dpgui.data.aggregate import Aggregator

PRIVTREE_SHARE = ParameterSpec(
    "tree_share", float, TREE_SHARE,
    "Share of ε spent deciding where to split the range more finely (the rest goes to the counts).",
    0.05, 0.95,
    advanced=True,
)  # fmt: skip
DAWA_SHARE = ParameterSpec(
    "partition_share", float, PARTITION_SHARE,
    "Share of ε spent grouping the range into near-even buckets (the rest goes to the counts; the "
    "paper's default is 0.25).", 0.05, 0.95,
    advanced=True,
)  # fmt: skip

PRIVTREE_PAPER = "Zhang, Xiao, Xie 2016 (SIGMOD), PrivTree"
PRIVTREE_SECTION = "s3, Algorithm 2, Theorem 3.2 (fanout 2; discrete Laplace on the integer count)"
DAWA_PAPER = "Li, Hay, Miklau, Wang 2014 (PVLDB), DAWA"
DAWA_SECTION = "s3 (private L1 partition over dyadic buckets), s4 (bucket counts by a hierarchical strategy)"


def _pure_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon)


def _beta(spec: TaskSpec) -> float:
    return float(spec.parameter("beta", BETA.default))


def _branching(spec: TaskSpec) -> int | None:
    return int(spec.parameter("branching", 0)) or None


def _share(spec: TaskSpec, parameter: ParameterSpec) -> float:
    return float(spec.parameter(parameter.name, parameter.default))


Release = Callable[[TaskSpec, "Aggregator", PrivateRandom], AlgorithmRun[BucketCdfRelease]]


def _release_privtree(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[BucketCdfRelease]:
    histogram = data.histogram(spec.columns[0], spec.domain, spec.missing)
    share = _share(spec, PRIVTREE_SHARE)
    release = yield from privtree_cdf(
        histogram, data.count(), spec.epsilon, rng, tree_share=share, branching=_branching(spec)
    )
    return release


def _release_dawa(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[BucketCdfRelease]:
    histogram = data.histogram(spec.columns[0], spec.domain, spec.missing)
    share = _share(spec, DAWA_SHARE)
    release = yield from dawa_cdf(
        histogram, data.count(), spec.epsilon, rng, partition_share=share, branching=_branching(spec)
    )
    return release


def privtree_error_bound(spec: TaskSpec, n: int) -> float:
    """The a-priori bound of the module doc, in CDF units (inf when the grid does not fit)."""
    if _tree_fits(spec, n):
        return math.inf
    leaves, beta = spec.domain.size, _beta(spec)
    share = _share(spec, PRIVTREE_SHARE)
    params = PrivTreeParameters.for_epsilon(share * spec.epsilon)
    depth = max(0, math.ceil(math.log2(leaves)))
    leaf_count = params.theta + depth * params.delta + params.scale * math.log(4 * leaves / beta)
    counts = cdf_error_bound(leaves, n, (1 - share) * spec.epsilon, beta / 2, branching=_branching(spec))
    return min(1.0, leaf_count / max(n, 1) + counts)


def dawa_error_bound(spec: TaskSpec, n: int) -> float:
    """The bucket bias bound of ``bucket_bias_bound`` plus the bucket tree's bound, in CDF units."""
    if _tree_fits(spec, n):
        return math.inf
    leaves, beta = spec.domain.size, _beta(spec)
    share = _share(spec, DAWA_SHARE)
    counts_epsilon = (1 - share) * spec.epsilon
    penalty = bucket_penalty(typical_buckets(leaves), counts_epsilon)
    bias = bucket_bias_bound(leaves, share * spec.epsilon, penalty, beta / 2)
    counts = cdf_error_bound(leaves, n, counts_epsilon, beta / 2, branching=_branching(spec))
    return min(1.0, bias / max(n, 1) + counts)


def _notes(release: BucketCdfRelease, engine: str) -> tuple[str, ...]:
    return (
        f"{engine}: {release.starts.size} buckets chosen privately, each spread uniformly over its points",
        f"bucket CDF by a {release.bucket_tree.shape.branching}-ary tree with least-squares consistency, "
        "isotonic regression, clipping to [0, 1], last value 1 (post-processing)",
    )


def _run_cdf(release_fn: Release, engine: str):
    def run(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
        release = yield from release_fn(spec, data, rng)
        return _cdf_table(spec, release, _notes(release, engine))  # type: ignore[arg-type]

    return run


def _run_histogram(release_fn: Release, engine: str):
    def run(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
        release = yield from release_fn(spec, data, rng)
        counts = np.diff(np.concatenate([[0.0], release.cdf])) * data.count()
        labels = spec.domain.values_of(np.arange(spec.domain.size))
        notes = (*_notes(release, engine), "counts: the released CDF's steps times n (fractional)")
        rows = tuple(zip(labels, counts.tolist(), strict=True))
        return ReleaseTable(
            ("value", "count"), rows, notes, meaning=histogram_meaning(spec.columns[0], spec.domain)
        )

    return run


def _run_synthetic(release_fn: Release, engine: str):
    def run(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
        release = yield from release_fn(spec, data, rng)
        rows = int(spec.parameter("rows", ROWS.default))
        records = spec.domain.values_of(sample_from_cdf(release.cdf, rows, rng))
        notes = (*_notes(release, engine), f"{rows} records drawn from the released CDF (post-processing)")
        return ReleaseTable((spec.columns[0],), tuple((value,) for value in records), notes)

    return run


def _run_quantiles(release_fn: Release, engine: str):
    def run(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
        release = yield from release_fn(spec, data, rng)
        qs = _qs(spec)
        quantiles = QuantilesRelease(qs, quantiles_from_cdf(release.cdf, qs))
        notes = (*_notes(release, engine), "quantiles read off the released CDF (post-processing)")
        return _quantile_table(spec, quantiles, notes)

    return run


def _fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    return _tree_fits(spec, n)


_TASKS = (
    (TaskKind.CDF, "", "max |CDF error|", _run_cdf, "CDF"),
    (TaskKind.HISTOGRAM, "-histogram", FREQUENCY_UNIT, _run_histogram, "histogram (the CDF's steps)"),
    (TaskKind.SYNTHETIC, "-synthetic", "max |CDF error|", _run_synthetic, "synthetic records"),
    (TaskKind.QUANTILES, "-quantiles", "rank error / n", _run_quantiles, "quantiles read off its CDF"),
)
"""Each family's members: the task, the name's suffix, the error unit, the runner and what it releases.
A quantile's rank error is at most the CDF's max error times n, so the CDF bound serves both."""
_EXTRA_PARAMETERS = {TaskKind.SYNTHETIC: (ROWS,), TaskKind.QUANTILES: (QUANTILES,)}


def _register_family(
    name: str, title: str, paper: str, section: str, summary: str, release_fn: Release,
    bound: Callable[[TaskSpec, int], float], share: ParameterSpec,
) -> dict[TaskKind, AlgorithmInfo]:  # fmt: skip
    registered = {}
    for kind, suffix, unit, runner, what in _TASKS:
        extra = _EXTRA_PARAMETERS.get(kind, ())
        registered[kind] = register(
            AlgorithmInfo(
                name=f"{name}{suffix}",
                title=f"{title}: {what}",
                task=kind,
                paper=paper,
                section=section,
                guarantee=Guarantee.PURE,
                summary=summary,
                cost=_pure_cost,
                predicted_error=bound,
                error_unit=unit,
                run=runner(release_fn, title),
                parameters=(BETA, share, BRANCHING, *extra),
                preconditions=_fits,
                calibrated=kind in (TaskKind.CDF, TaskKind.QUANTILES),
            )
        )
    return registered


PRIVTREE = _register_family(
    "privtree",
    "PrivTree",
    PRIVTREE_PAPER,
    PRIVTREE_SECTION,
    "Splits the grid in halves while a biased noisy count says a part holds enough records (no noise on "
    "empty stretches, no height limit), then releases the leaves' CDF by a tree over the leaves and "
    "spreads each leaf uniformly. Best on skewed data and fine grids.",
    _release_privtree,
    privtree_error_bound,
    PRIVTREE_SHARE,
)
DAWA = _register_family(
    "dawa",
    "DAWA",
    DAWA_PAPER,
    DAWA_SECTION,
    "Chooses near-uniform buckets by noisy L1 costs (a quarter of ε), then releases the buckets' CDF by a "
    "tree and spreads each bucket uniformly. Its a-priori bound is loose: auto ranks it by simulation.",
    _release_dawa,
    dawa_error_bound,
    DAWA_SHARE,
)


# --- joint quantiles ---------------------------------------------------------------------------------------


def _qs(spec: TaskSpec) -> tuple[float, ...]:
    return parse_quantiles(str(spec.parameter("q", QUANTILES.default)))


def _joint_exp_fits(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    failures = _quantile_fits(spec, n)
    if failures:
        return failures
    m = len(_qs(spec))
    if not joint_exp_fits(n, refined_size(spec.domain.size), m):
        return (
            PreconditionFailure(
                f"JointExp's dynamic program grows like m·n² and would be too slow for {m} quantiles of "
                f"{n} records; use aq (approximate quantiles), which scales to any n."
            ),
        )
    return ()


def joint_exp_rank_bound(spec: TaskSpec, n: int) -> float:
    """A-priori: w.p. >= 1 - beta every rank is within (4/eps)(m ln N + ln(1/beta)) + m + 1 of target.

    The exponential mechanism's utility guarantee (sensitivity 2) over at most N^m sorted tuples, with
    OPT >= -(m + 1) when no value is repeated (each gap rounded to a whole record; ties are broken on the
    grid K times finer of ``tie_breaking``, whose size N K the bound counts); a rank's error is at most the
    total L1 miss of the gaps before it. Divided by n.
    """
    if _joint_exp_fits(spec, n):
        return math.inf
    m, beta = len(_qs(spec)), _beta(spec)
    size = refined_size(spec.domain.size)  # ties broken on a finer grid (tie_breaking)
    misses = (4 / spec.epsilon) * (m * math.log(size) + math.log(1 / beta)) + m + 1
    return misses / max(n, 1)


def _run_joint_exp(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    values, counts = data.sorted_distinct_counts(spec.columns[0], spec.domain, spec.missing)
    release = yield from with_ties_broken(
        joint_exp_quantiles, values, counts, spec.domain.size, _qs(spec), spec.epsilon, rng
    )
    return _quantile_table(spec, release, ("one exponential mechanism over all sorted tuples",))


JOINT_EXP = register(
    AlgorithmInfo(
        name="joint-exp",
        title="JointExp (all quantiles in one exponential mechanism)",
        task=TaskKind.QUANTILES,
        paper="Gillenwater, Joseph, Kulesza 2021 (ICML), JointExp",
        section="s3, Algorithm 1; s3.2 (sampling by dynamic programming)",
        guarantee=Guarantee.PURE,
        summary="Samples all m quantiles at once with probability ∝ exp(ε·u/4), u = −Σ |gap count − "
        "target|, exactly, by a dynamic program over the gaps between data points: the best for few to "
        "a few dozen quantiles; AQ is better for many.",
        cost=_pure_cost,
        predicted_error=joint_exp_rank_bound,
        error_unit="rank error / n",
        run=_run_joint_exp,
        parameters=(BETA, QUANTILES),
        preconditions=_joint_exp_fits,
        calibrated=True,
        bytes_per_record=BYTES_PER_RECORD,
    )
)
