"""The "any learner, even non-private" floor never exceeds what a non-private learner provably needs.

It evaluated EHKV'89 at ``min(alpha, 1/8)`` and ``min(beta, 1/100)``. EHKV's bound
max((v - 1)/(32 err), ((1 - err)/err) ln(1/beta)) is only stated for err <= 1/8 and beta <= 1/100 (spec 003
s5), and clamping a larger beta (or error) down to the edge of that range asks for a *better* learner than
the user did, so the "proven" floor grew instead of holding. At the planner's defaults (a = beta = 0.05) it
showed 19 ln(100) = 87.5 records, yet spec 003 s5 (row Thr_b, non-private column) gives the smallest-positive
learner's explicit upper bound ceil(ln(1/beta)/a) = 60: with m samples it fails only if none lands in the
a-mass just above the target, probability (1 - a)^m <= e^{-a m} <= beta. A floor above a proven upper bound
is false. Outside EHKV's range the floor is now the two-target argument (``bounds.two_target_lower_bound``).
"""

from __future__ import annotations

import math

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.planner.floors import floors
from dpgui.tasks.spec import ParameterValue, TaskKind, TaskSpec

NON_PRIVATE = "any learner, even non-private (VC = 1)"


def threshold_spec(beta: float | None) -> TaskSpec:
    parameters: tuple[tuple[str, ParameterValue], ...] = () if beta is None else (("beta", beta),)
    domain = NumericDomain(0, 2**32 - 1, 1)
    return TaskSpec(TaskKind.THRESHOLD, ("x",), (domain,), 1.0, 0.0, parameters=parameters, label="y")


def smallest_positive_learner_n(error: float, beta: float) -> int:
    """Spec 003 s5, Thr_b, non-private UB: ceil(ln(1/beta)/error) samples suffice (VC 1, realizable)."""
    return math.ceil(math.log(1 / beta) / error)


@pytest.mark.parametrize(("target", "beta"), [(None, None), (0.05, 0.05), (0.3, 0.05), (0.1, 0.02)])
def test_the_floor_never_exceeds_a_proven_non_private_upper_bound(
    target: float | None, beta: float | None
) -> None:
    """A lower bound on every learner's sample size must sit at or below the smallest-positive learner's
    explicit upper bound at the same (error, beta); at the defaults it is 87.5 against 60."""
    (floor,) = [f for f in floors(threshold_spec(beta), target) if f.name == NON_PRIVATE]
    error = 0.05 if target is None else target
    assert floor.records <= smallest_positive_learner_n(error, 0.05 if beta is None else beta)


def test_outside_ehkvs_range_the_floor_is_the_two_target_bound_and_inside_it_ehkv() -> None:
    """At the defaults (0.05, 0.05): ln(1 / 0.1) / ln(1 / 0.9) = 21.85 records; at (0.1, 0.005), inside the
    range, EHKV's 9 ln(200) = 47.7."""
    (outside,) = [f for f in floors(threshold_spec(None)) if f.name == NON_PRIVATE]
    assert outside.records == pytest.approx(math.log(10) / math.log(1 / 0.9))
    (inside,) = [f for f in floors(threshold_spec(0.005), 0.1) if f.name == NON_PRIVATE]
    assert inside.records == pytest.approx(9 * math.log(200))
