"""Lower bounds shown beside the algorithms' predictions (issue 6 item 2).

Each floor says how solid it is: "proven" (an explicit constant), "order of magnitude" (a stated Ω with
the paper's display rule), or "constant unknown" (an asymptotic shape, hidden unless asked for, spec 003
s5 display rule 3). Floors are statements about every algorithm, never estimates of one.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass

from dpgui.planner.bounds import (
    any_learner_lower_bound,
    log_star,
    pure_learner_lower_bound,
    pure_sanitizer_lower_bound,
)
from dpgui.tasks.spec import TaskKind, TaskSpec

DEFAULT_ACCURACY = 0.05
SANITIZER_TASKS = (TaskKind.CDF, TaskKind.QUANTILES, TaskKind.HISTOGRAM, TaskKind.SYNTHETIC)


class Solidity(enum.Enum):
    PROVEN = "proven"
    ORDER_OF_MAGNITUDE = "order of magnitude"
    CONSTANT_UNKNOWN = "constant unknown"


@dataclass(frozen=True)
class Floor:
    """At least ``records`` records (or public records, if ``public``) are needed, by ``source``."""

    name: str
    records: float
    solidity: Solidity
    source: str
    public: bool = False


def threshold_ldim(points: int) -> int:
    """LDim of thresholds on ``points`` grid points: floor(log2 points), b on 2^b points (spec 003 s4.1).

    At most floor(log2 |C|) with |C| = points (Halving, spec 003 s2.4), and at least that, since the
    thresholds on the first 2^floor(log2 points) points are Thr_b. Rounding up would certify a floor for a
    dimension the class does not have (1000 points: 9, not 10).
    """
    return max(points, 1).bit_length() - 1


def floors(spec: TaskSpec, target_error: float | None = None, show_shapes: bool = False) -> list[Floor]:
    """The floors that apply to the spec's task at the target accuracy (default 0.05)."""
    alpha = target_error if target_error is not None and 0 < target_error < 0.5 else DEFAULT_ACCURACY
    beta = float(spec.parameter("beta", 0.05))
    size = spec.domains[0].size if spec.domains else 2
    bits = max(1, math.ceil(math.log2(max(size, 2))))
    eps = spec.epsilon
    out: list[Floor] = []
    if spec.kind in (TaskKind.THRESHOLD, TaskKind.POINT):
        ldim = threshold_ldim(size) if spec.kind is TaskKind.THRESHOLD else 1
        out.append(
            Floor(
                "pure-DP learner (certified, Littlestone dimension)",
                pure_learner_lower_bound(ldim, eps, alpha, beta),
                Solidity.PROVEN,
                "paper 003 via spec 003 A9",
            )
        )
        out.append(
            Floor(
                "any learner, even non-private (VC = 1)",
                any_learner_lower_bound(1, alpha, beta),
                Solidity.PROVEN,
                "Ehrenfeucht et al. 1989 for error <= 1/8 and β <= 1/100, else two concepts that differ on "
                "one point (not from the papers)",
            )
        )
    if spec.kind in SANITIZER_TASKS:
        out.append(
            Floor(
                "pure-DP proper sanitizer",
                pure_sanitizer_lower_bound(size, eps, alpha, beta),
                Solidity.PROVEN,
                "paper 000 Lemma 4.15",
            )
        )
    if spec.kind in (*SANITIZER_TASKS, TaskKind.THRESHOLD) and spec.public is not None:
        out.append(
            Floor(
                "public records for public-data-assisted release (continuous domains only)",
                1 / (2 * alpha),
                Solidity.ORDER_OF_MAGNITUDE,
                "paper 001 Thm 15 (spec 001 s7); a declared finite grid does not need it",
                public=True,
            )
        )
    if show_shapes and spec.kind in (
        TaskKind.THRESHOLD,
        TaskKind.MEDIAN,
        TaskKind.INTERIOR_POINT,
        TaskKind.CDF,
    ):
        out.append(
            Floor(
                "approximate DP, Ω(log*|X|)",
                float(log_star(2.0**bits) if bits < 1000 else log_star(bits) + 1),
                Solidity.CONSTANT_UNKNOWN,
                "Bun-Nissim-Stemmer-Vadhan 2015; Alon et al. 2019 (cited in paper 002)",
            )
        )
    return out
