"""The threshold and point learning tasks (papers 000, 001, 003; issue 3).

Threshold: columns = (feature,), domains = (declared grid,), label / positive; parameter "direction"
("ge": positive iff x >= t; "le": positive iff x <= t; "auto": chosen privately where the algorithm can).
Point: the same columns; the output is one grid value or "none".

``predicted_error`` is in one unit per task so ``auto`` compares like with like: the error rate alpha
guaranteed with probability >= 1 - beta at this n (inf when no alpha < 1 is guaranteed).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from dpgui.algorithms.learners.label_private import (
    LABEL_PRIVACY_NOTE,
    label_private_min_n,
    label_private_split,
    label_private_threshold,
)
from dpgui.algorithms.learners.points import (
    HashedPointRelease,
    PointRelease,
    hash_bits,
    hashing_min_n,
    hashing_point,
    learn_points,
    learn_points_error_rate,
)
from dpgui.algorithms.learners.public_assisted import (
    public_candidate_count,
    public_em_excess,
    public_em_threshold,
)
from dpgui.algorithms.learners.thresholds import (
    Direction,
    ThresholdHypothesis,
    ThresholdRelease,
    em_threshold,
    em_threshold_error_rate,
    em_threshold_excess,
    finite_class_error_rate,
    learn_thresholds,
    learn_thresholds_min_n,
    smallest_alpha,
)
from dpgui.algorithms.progress import AlgorithmRun
from dpgui.algorithms.recconcave import levels
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account
from dpgui.privacy.random import PrivateRandom
from dpgui.tasks.median import BETA
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.registry import (
    REPLACE_ONE,
    AlgorithmInfo,
    Guarantee,
    ParameterSpec,
    PreconditionFailure,
    register,
)
from dpgui.tasks.spec import TaskKind, TaskSpec

if TYPE_CHECKING:
    from dpgui.data.aggregate import Aggregator

ERROR_UNIT = "realizable error α at β"
DIRECTION = ParameterSpec(
    "direction",
    str,
    "auto",
    "ge: positive iff x >= t; le: positive iff x <= t; auto: chosen privately.",
    choices=tuple(direction.value for direction in Direction),
)
ALPHA = ParameterSpec("alpha", float, 0.05, "Target error rate (sets public constants only).", 1e-4, 0.5)
LABEL_NOISE = ParameterSpec(
    "label_noise",
    float,
    0.0,
    "Largest share of rows you expect to be mislabelled (a public promise; 0 for clean labels).",
    0.0,
    0.5,
    advanced=True,
)
RECURSION_BOUND = ParameterSpec(
    "recursion_bound",
    int,
    0,
    "Levels RecConcave may recurse through (the paper's N; 1: one exponential mechanism over every "
    "threshold, which needs no δ; 0: no bound, the paper's default).",
    0,
    8,
    advanced=True,
)
MAX_HASH_BITS = 20
"""At most 2^20 hash buckets (a public cap on the hashing learner's k)."""


NO_THRESHOLD = "none"
"""The threshold cell of a hypothesis with no boundary (it predicts negative for every value)."""


def _beta(spec: TaskSpec) -> float:
    return float(spec.parameter("beta", BETA.default))


def _alpha(spec: TaskSpec) -> float:
    return float(spec.parameter("alpha", ALPHA.default))


def _direction(spec: TaskSpec) -> Direction:
    return Direction(str(spec.parameter("direction", DIRECTION.default)))


def _pure_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon)


def _approximate_cost(spec: TaskSpec) -> PrivacyCost:
    return PrivacyCost(spec.epsilon, spec.delta)


def _labelled(spec: TaskSpec, data: Aggregator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if spec.label is None:
        raise ValueError("a learning task needs a label column")
    return data.labelled_distinct_counts(
        spec.columns[0], spec.domain, spec.missing, spec.label, spec.positive
    )


def _describe(hypothesis: ThresholdHypothesis, spec: TaskSpec) -> ReleaseTable:
    feature = spec.columns[0]
    boundary = hypothesis.boundary
    direction = hypothesis.direction.value
    if boundary is None:
        return ReleaseTable(
            ("threshold", "direction"),
            ((NO_THRESHOLD, direction),),
            (f"hypothesis: predict negative for every value of {feature}",),
        )
    value = spec.domain.value_of(boundary)
    sign = ">=" if hypothesis.direction is Direction.GE else "<="
    return ReleaseTable(
        ("threshold", "direction"),
        ((value, direction),),
        (f"hypothesis: predict positive exactly when {feature} {sign} {value}",),
    )


def _threshold_table(release: ThresholdRelease, spec: TaskSpec, *notes: str) -> ReleaseTable:
    table = _describe(release.hypothesis, spec)
    return ReleaseTable(table.columns, table.rows, table.notes + notes)


def _excess_note(rows: float, spec: TaskSpec) -> str:
    return (
        f"with probability ≥ {1 - _beta(spec):g} it misclassifies at most {rows:.0f} more rows than the best "
        "candidate threshold (exponential-mechanism bound)"
    )


# -- em ------------------------------------------------------------------------------------------------


def _run_em(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    values, pos, neg = _labelled(spec, data)
    direction = _direction(spec)
    release = yield from em_threshold(values, pos, neg, spec.domain.size, direction, spec.epsilon, rng)
    excess = em_threshold_excess(spec.domain.size, direction, spec.epsilon, _beta(spec))
    return _threshold_table(release, spec, _excess_note(excess, spec))


EM_THRESHOLD = register(
    AlgorithmInfo(
        name="em-threshold",
        title="Exponential mechanism over all thresholds",
        task=TaskKind.THRESHOLD,
        paper="Kasiviswanathan et al. via Beimel-Nissim-Stemmer (paper 000); Feldman-Xiao (paper 003)",
        section="000 s2.5.2 (spec 000 s3.3); 003 A1-A3",
        guarantee=Guarantee.PURE,
        summary="Samples one of the grid's thresholds with probability ∝ exp(ε·#correct labels/2), exactly "
        "over the whole declared grid in O(n log n); handles noisy labels.",
        cost=_pure_cost,
        predicted_error=lambda spec, n: em_threshold_error_rate(
            spec.domain.size, _direction(spec), spec.epsilon, _beta(spec), n
        ),
        error_unit=ERROR_UNIT,
        run=_run_em,
        parameters=(BETA, DIRECTION),
    )
)


# -- recconcave ------------------------------------------------------------------------------------------


def _recursion_bound(spec: TaskSpec) -> int | None:
    return int(spec.parameter("recursion_bound", RECURSION_BOUND.default)) or None


def _recconcave_levels(spec: TaskSpec) -> int:
    return levels(spec.domain.size, _recursion_bound(spec))


def _recconcave_is_pure(spec: TaskSpec) -> bool:
    """RecConcave with one level (a grid of at most 32 points, or a recursion bound of 1) is its one
    exponential mechanism: pure ε-DP."""
    return _recconcave_levels(spec) == 1


def _recconcave_cost(spec: TaskSpec) -> PrivacyCost:
    """(eps, delta), or eps alone when RecConcave is pure (one level): a δ it never spends is not charged."""
    return _pure_cost(spec) if _recconcave_is_pure(spec) else _approximate_cost(spec)


def _recconcave_min_n(spec: TaskSpec, alpha: float) -> int:
    return learn_thresholds_min_n(
        spec.domain.size, _recconcave_cost(spec), alpha, _beta(spec), _recursion_bound(spec)
    )


def _recconcave_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    failures = []
    if _direction(spec) is Direction.AUTO:
        failures.append(PreconditionFailure("RecConcave needs a public direction: choose ge or le."))
    if not _recconcave_is_pure(spec) and spec.delta <= 0:
        failures.append(
            PreconditionFailure(
                "RecConcave over more than 32 thresholds needs δ > 0 (A_dist), or a recursion bound of 1."
            )
        )
    return tuple(failures)


def _recconcave_error(spec: TaskSpec, n: int) -> float:
    if spec.delta <= 0 and not _recconcave_is_pure(spec):
        return math.inf
    return smallest_alpha(lambda alpha: _recconcave_min_n(spec, alpha), n)


def _run_recconcave(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    n = data.count()
    promise = (1 - float(spec.parameter("label_noise", LABEL_NOISE.default))) * n
    values, pos, neg = _labelled(spec, data)
    release = yield from learn_thresholds(
        values,
        pos,
        neg,
        spec.domain.size,
        _direction(spec),
        _recconcave_cost(spec),
        _alpha(spec),
        promise,
        rng,
        _recursion_bound(spec),
    )
    return _threshold_table(release, spec)


RECCONCAVE_THRESHOLD = register(
    AlgorithmInfo(
        name="recconcave",
        title="LearnThresholds (RecConcave)",
        task=TaskKind.THRESHOLD,
        paper="Beimel, Nissim, Stemmer (paper 000)",
        section="000 s3.3-3.4, Fig. 5, Thm 3.18 (spec 000 s4.3-4.4; REVIEW-000-002 s1, s3)",
        guarantee=Guarantee.APPROXIMATE,
        summary="Recursive search over window lengths with A_dist_safe and the exponential mechanism; "
        "sample cost 8^(log* d) instead of d (research option: the pure em is better for real grids). "
        "With one level (recursion bound 1, or at most 32 thresholds) it is one exponential mechanism: pure.",
        cost=_recconcave_cost,
        predicted_error=_recconcave_error,
        error_unit=ERROR_UNIT,
        run=_run_recconcave,
        parameters=(BETA, DIRECTION, ALPHA, LABEL_NOISE, RECURSION_BOUND),
        preconditions=_recconcave_preconditions,
        pure_when=_recconcave_is_pure,
    )
)


# -- label-private (and semi-private with a public sample) -------------------------------------------------


def _public_grid(spec: TaskSpec) -> np.ndarray:
    assert spec.public is not None
    return spec.public.column_grid(spec.columns[0], spec.domain)


def _label_private_split(spec: TaskSpec, n: int) -> int:
    """|S1|: a public function of (alpha, beta, n); at most half the rows."""
    return min(label_private_split(_alpha(spec), _beta(spec)), n // 2)


def _label_private_error(spec: TaskSpec, n: int) -> float:
    return smallest_alpha(lambda alpha: label_private_min_n(alpha, _beta(spec), spec.epsilon), n)


def _run_label_private(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    if spec.public is not None:
        values, pos, neg = _labelled(spec, data)
        release = yield from public_em_threshold(
            _public_grid(spec), values, pos, neg, spec.domain.size, _direction(spec), spec.epsilon, rng
        )
        return _threshold_table(
            release, spec, "semi-private: hypotheses from the public sample; every labelled row is protected"
        )
    if spec.label is None:
        raise ValueError("a learning task needs a label column")
    features, labels = data.labelled_rows(
        spec.columns[0], spec.domain, spec.missing, spec.label, spec.positive
    )
    split = _label_private_split(spec, features.size)
    release = yield from label_private_threshold(
        features, labels, split, spec.domain.size, _direction(spec), spec.epsilon, rng
    )
    return _threshold_table(
        release, spec, LABEL_PRIVACY_NOTE, f"hypotheses from the features of the first {split} rows"
    )


def _label_private_neighbouring(spec: TaskSpec) -> str:
    """Label privacy without a public sample (features public); the semi-private learner is replace-one."""
    if spec.public is not None:
        return REPLACE_ONE
    return "change one label; features and row count public (label privacy only: features NOT protected)"


def _label_private_account(spec: TaskSpec) -> Account:
    """Labels-only releases are booked on their own account: they bound no replace-one loss (that account
    composes them with the replace-one releases, which protect the labels too: ``ledger._counted``)."""
    return Account.REPLACE_ONE if spec.public is not None else Account.LABELS_ONLY


LABELS_ONLY_OPT_IN = ParameterSpec(
    "accept_labels_only",
    bool,
    False,
    "Required without a public sample: I accept a guarantee for the LABELS only; a change of one row's "
    "features is not protected. Booked on the dataset's separate labels-only account.",
)


def _label_private_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    if _label_private_account(spec) is Account.LABELS_ONLY and not spec.parameter(
        LABELS_ONLY_OPT_IN.name, False
    ):
        return (
            PreconditionFailure(
                "the label-private learner without a public sample protects the labels only (a change of "
                "one row's features is not protected); opt in explicitly (CLI: --accept-labels-only), or "
                "load a public sample to make it the semi-private learner with full replace-one privacy",
                parameter=True,
            ),
        )
    return ()


LABEL_PRIVATE_THRESHOLD = register(
    AlgorithmInfo(
        name="label-private",
        title="Label-private threshold learner",
        task=TaskKind.THRESHOLD,
        paper="Beimel, Nissim, Stemmer (paper 000)",
        section="000 s6.1-6.2, Fig. 13 (spec 000 s7; REVIEW-000-002 s6)",
        guarantee=Guarantee.PURE,
        summary="Pure ε in the LABELS ONLY (" + LABEL_PRIVACY_NOTE + "): hypotheses from the first rows' "
        "features, exponential mechanism on the other rows' labels. With "
        "a public sample it becomes the semi-private learner: full ε-DP for every labelled row.",
        cost=_pure_cost,
        predicted_error=_label_private_error,
        error_unit=ERROR_UNIT,
        run=_run_label_private,
        parameters=(BETA, DIRECTION, ALPHA, LABELS_ONLY_OPT_IN),
        preconditions=_label_private_preconditions,
        neighbouring=_label_private_neighbouring,
        account=_label_private_account,
        public_assisted=True,
    )
)


# -- public-em ---------------------------------------------------------------------------------------------


def _public_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    if spec.public is None:
        return (PreconditionFailure("public-em needs a public sample: load one (--public) first."),)
    return ()


def _public_error(spec: TaskSpec, n: int) -> float:
    """The realizable exponential-mechanism rate over the public candidates (same unit as em-threshold);
    the cover error of the public gaps (spec 001 s6) is extra and depends on the public sample's fit."""
    if spec.public is None:
        return math.inf
    count = public_candidate_count(_public_grid(spec), spec.domain.size, _direction(spec))
    return finite_class_error_rate(count, spec.epsilon, _beta(spec), n)


def _run_public_em(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    values, pos, neg = _labelled(spec, data)
    release = yield from public_em_threshold(
        _public_grid(spec), values, pos, neg, spec.domain.size, _direction(spec), spec.epsilon, rng
    )
    count = public_candidate_count(_public_grid(spec), spec.domain.size, _direction(spec))
    return _threshold_table(
        release,
        spec,
        "cut points from the public sample: accuracy assumes it matches the private data",
        _excess_note(public_em_excess(count, spec.epsilon, _beta(spec)), spec),
    )


PUBLIC_EM_THRESHOLD = register(
    AlgorithmInfo(
        name="public-em",
        title="Exponential mechanism over public cut points",
        task=TaskKind.THRESHOLD,
        paper="Bassily et al. (paper 001)",
        section="001 s6 (spec 001 s6; REVIEW-001-003-004 s4)",
        guarantee=Guarantee.PURE,
        summary="Candidates are thresholds at the public sample's values (both directions with auto); the "
        "exponential mechanism on the private labels picks one. Cost does not grow with the grid.",
        cost=_pure_cost,
        predicted_error=_public_error,
        error_unit=ERROR_UNIT,
        run=_run_public_em,
        parameters=(BETA, DIRECTION),
        preconditions=_public_preconditions,
        public_assisted=True,
    )
)


# -- points ------------------------------------------------------------------------------------------------


def _point_table(point: int | None, spec: TaskSpec, *notes: str) -> ReleaseTable:
    if point is None:
        return ReleaseTable(
            ("point",), (("none",),), ("no confident point: predict negative everywhere", *notes)
        )
    value = spec.domain.value_of(point)
    return ReleaseTable(
        ("point",),
        ((value,),),
        (f"hypothesis: predict positive exactly when {spec.columns[0]} = {value}", *notes),
    )


def _learn_points_preconditions(spec: TaskSpec, n: int) -> tuple[PreconditionFailure, ...]:
    if spec.delta <= 0:
        return (PreconditionFailure("learn-points needs δ > 0 (A_dist); use hashing for pure ε-DP."),)
    return ()


def _run_learn_points(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    values, pos, _ = _labelled(spec, data)
    release: PointRelease = yield from learn_points(
        values, pos, spec.domain.size, spec.epsilon, spec.delta, rng
    )
    return _point_table(release.point, spec)


LEARN_POINTS = register(
    AlgorithmInfo(
        name="learn-points",
        title="LearnPoints (A_dist_safe)",
        task=TaskKind.POINT,
        paper="Beimel, Nissim, Stemmer (paper 000)",
        section="000 s3.1, Lemma 3.2 (spec 000 s4.1; REVIEW-000-002 s1)",
        guarantee=Guarantee.APPROXIMATE,
        summary="Releases the most frequent positive value when it clearly beats the runner-up (noisy gap "
        "test), otherwise 'none'; sample cost independent of the grid size.",
        cost=_approximate_cost,
        predicted_error=lambda spec, n: (
            learn_points_error_rate(spec.epsilon, spec.delta, _beta(spec), n) if spec.delta > 0 else math.inf
        ),
        error_unit=ERROR_UNIT,
        run=_run_learn_points,
        parameters=(BETA,),
        preconditions=_learn_points_preconditions,
    )
)


def _hashing_error(spec: TaskSpec, n: int) -> float:
    beta = _beta(spec)

    def need(alpha: float) -> float:
        bits = hash_bits(alpha, beta)
        return hashing_min_n(bits, spec.epsilon, alpha, beta) if bits <= MAX_HASH_BITS else math.inf

    return smallest_alpha(need, n)


def _run_hashing(spec: TaskSpec, data: Aggregator, rng: PrivateRandom) -> AlgorithmRun[ReleaseTable]:
    n = data.count()
    beta = _beta(spec)
    alpha = _hashing_error(spec, n)
    target = alpha if math.isfinite(alpha) else 0.5
    values, pos, neg = _labelled(spec, data)
    release: HashedPointRelease = yield from hashing_point(
        values, pos, neg, spec.domain.size, spec.epsilon, target, beta, rng
    )
    rows = " ".join(f"{row:x}" for row in release.rows)
    return ReleaseTable(
        ("point",),
        ((f"hash bucket {release.bucket}",),),
        (
            f"improper hypothesis: predict positive exactly when the {len(release.rows)} parities of x & R "
            f"(bit i: the parity of x AND row i of R) spell bucket {release.bucket}, x the grid index of "
            f"{spec.columns[0]}; R rows (hex bit masks, drawn independently of the data): {rows}",
            _hashed_positives(spec, release),
        ),
    )


LISTED_POSITIVES = 10
"""How many of the values a hashed hypothesis predicts positive its note names."""
SCANNED_VALUES = 1 << 22
"""The most grid values hashed for that note (about a second): the learner's cost does not grow with the
grid, so a grid may hold 2^40 values, which no note can afford to hash."""


def _hashed_positives(spec: TaskSpec, release: HashedPointRelease) -> str:
    """The declared grid's values the released bucket predicts positive, in words (post-processing of
    the release on the public grid): a GUI audit found "hash bucket 32203" alone unreadable. Only the
    first SCANNED_VALUES of a larger grid are hashed, and the note says so."""
    domain, found, count = spec.domain, [], 0
    scanned = min(domain.size, SCANNED_VALUES)
    for start in range(0, scanned, 1 << 20):  # a megabyte-sized batch of grid indices at a time
        grid = np.arange(start, min(start + (1 << 20), scanned), dtype=np.uint64)
        positive = grid[release.predict(grid)]
        count += positive.size
        found.extend(positive[: LISTED_POSITIVES - len(found)].tolist())
    among = (
        f"the grid's {scanned:,} values"
        if scanned == domain.size
        else (f"the grid's first {scanned:,} values (of {domain.size:,})")
    )
    if not count:
        return f"no value among {among} hashes to that bucket: each is predicted negative"
    shown = ", ".join(f"{value:g}" for value in domain.from_grid(np.asarray(found, dtype=np.int64)))
    more = f" (the first {len(found)} listed)" if count > len(found) else ""
    return f"predicts positive {count:,} of {among}{more}: {shown}"


HASHING_POINT = register(
    AlgorithmInfo(
        name="hashing",
        title="Hashing point learner",
        task=TaskKind.POINT,
        paper="Feldman, Xiao (paper 003)",
        section="003 A4-A5 (probabilistic representation by inner-product hashing)",
        guarantee=Guarantee.PURE,
        summary="Hashes the grid into 2^k buckets with a public random bit matrix and picks a bucket by the "
        "exponential mechanism on correct labels; improper (a bucket), cost independent of the grid size.",
        cost=_pure_cost,
        predicted_error=_hashing_error,
        error_unit=ERROR_UNIT,
        run=_run_hashing,
        parameters=(BETA,),
    )
)
