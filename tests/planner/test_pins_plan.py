"""Pins the single-release planner's searches and row fields (dpgui/planner/plan.py, ``dpgui plan TASK``).

``min_n`` answers None past 10^13 records; ``epsilon_for`` searches epsilon in [1e-4, 50] and answers the
least epsilon meeting the target (the bottom of the range when any epsilon does, None when 50 does not); a
row is feasible only when the preconditions pass, and only calibrated feasible rows carry a simulated error.
"""

from __future__ import annotations

import dataclasses

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.planner.plan import EPSILON_RANGE, MAX_N, PlanRow, epsilon_for, error_curve, min_n, plan
from dpgui.tasks.registry import AlgorithmInfo, algorithms
from dpgui.tasks.spec import TaskKind, TaskSpec


def median_spec(epsilon: float = 1.0) -> TaskSpec:
    return TaskSpec(TaskKind.MEDIAN, ("x",), (NumericDomain(0, 1000, 1),), epsilon, 0.0)


def em() -> AlgorithmInfo:
    return next(info for info in algorithms(TaskKind.MEDIAN) if info.name == "em")


def predicted(spec: TaskSpec, n: int, epsilon: float | None = None) -> float:
    concrete = spec.with_algorithm("em")
    if epsilon is not None:
        concrete = dataclasses.replace(concrete, epsilon=epsilon)
    return em().predicted_error(concrete, n)


def test_the_search_ranges_are_as_documented() -> None:
    """MAX_N = 10^13 records and epsilon in [1e-4, 50] (the batch planner searches the same range)."""
    assert MAX_N == 10**13
    assert EPSILON_RANGE == (1e-4, 50.0)


def test_min_n_finds_n_near_the_cap_and_gives_up_beyond_it() -> None:
    """The em median's error shrinks as 1/n, so a target of 4e-12 needs about 4.95e12 records (found, and
    exactly the least n meeting it), 1.3e-12 about 1.52e13 (beyond 10^13: None)."""
    spec = median_spec()
    found = min_n(em(), spec, 4e-12)
    assert found is not None and 4e12 < found < MAX_N
    assert predicted(spec, found) <= 4e-12 < predicted(spec, found - 1)
    assert predicted(spec, 16 * 10**12) <= 1.3e-12  # reachable, but only past the cap
    assert min_n(em(), spec, 1.3e-12) is None


def test_min_n_finds_an_answer_between_the_last_power_of_two_and_the_cap() -> None:
    """2^43 = 8.8e12 < 10^13 < 2^44: an answer in between (a target of 2.2e-12 needs about 9e12 records)
    was answered None, 'beyond 10^13', by a doubling that overshot the cap."""
    spec = median_spec()
    found = min_n(em(), spec, 2.2e-12)
    assert found is not None and 2**43 < found <= MAX_N
    assert predicted(spec, found) <= 2.2e-12 < predicted(spec, found - 1)


def test_min_n_counts_from_one_and_a_target_met_exactly_counts_as_met() -> None:
    """A target every n meets gives min n = 1; a target equal to the prediction at n = 2000 (or 1000) gives
    2000 (1000), a whole number."""
    spec = median_spec()
    assert min_n(em(), spec, 1e6) == 1
    assert predicted(spec, 1999) > predicted(spec, 2000)
    assert min_n(em(), spec, predicted(spec, 2000)) == 2000
    found = min_n(em(), spec, predicted(spec, 1000))  # between 3^6 and 3^7 / 2: no answer is skipped
    assert found == 1000 and type(found) is int  # 'dpgui plan' prints it: "1000", never "1000.0"


def test_min_n_without_a_target_is_the_first_n_the_preconditions_accept() -> None:
    """Interior point, em-interior on 1001 points: the least n with no failed precondition."""
    spec = TaskSpec(TaskKind.INTERIOR_POINT, ("x",), (NumericDomain(0, 1000, 1),), 1.0, 0.0)
    info = next(i for i in algorithms(TaskKind.INTERIOR_POINT) if i.name == "em-interior")
    concrete = spec.with_algorithm("em-interior")
    found = min_n(info, spec, None)
    assert found is not None and found > 2
    assert not info.preconditions(concrete, found)
    assert info.preconditions(concrete, found - 1)


def test_epsilon_for_is_the_least_epsilon_meeting_the_target() -> None:
    """The bisection converges to the least epsilon: it meets the target, a hair less does not."""
    spec = median_spec()
    target = 0.01
    found = epsilon_for(em(), spec, 1000, target)
    assert found is not None
    assert predicted(spec, 1000, found) <= target < predicted(spec, 1000, found * (1 - 1e-9))


def test_epsilon_for_reaches_up_to_fifty_and_down_to_1e_4() -> None:
    """A target met only from epsilon 40 on is found (40); one needing more than 50 is None; a target any
    epsilon meets answers the bottom of the range, 1e-4."""
    spec = median_spec()
    at_forty = predicted(spec, 1000, 40.0)
    found = epsilon_for(em(), spec, 1000, at_forty)
    assert found == pytest.approx(40.0, rel=1e-9)
    assert epsilon_for(em(), spec, 1000, predicted(spec, 1000, 60.0)) is None
    assert predicted(spec, 10**6, 1e-4) <= 10.0
    assert epsilon_for(em(), spec, 10**6, 10.0) == pytest.approx(1e-4, rel=1e-9)


def rows(delta: float) -> dict[str, PlanRow]:
    spec = TaskSpec(TaskKind.CDF, ("x",), (NumericDomain(0, 1000, 1),), 1.0, delta)
    return {row.algorithm: row for row in plan(spec, 3000, target_error=0.05)}


def test_plan_rows_say_privacy_feasibility_and_why() -> None:
    """CDF at delta = 0: the Gaussian tree is approximate (not pure), infeasible, with its precondition's
    message and no min n; the Laplace tree is pure and feasible with no reason; auto is exactly one row."""
    found = rows(0.0)
    gaussian, laplace = found["tree-gaussian"], found["tree-laplace"]
    assert (gaussian.pure, gaussian.feasible, gaussian.min_n) == (False, False, None)
    assert "δ > 0" in gaussian.reason
    assert gaussian.simulated_error is None and gaussian.parts == ()
    assert (laplace.pure, laplace.feasible, laplace.reason) == (True, True, "")
    assert laplace.min_n is not None and laplace.epsilon_for_target is not None
    assert sum(row.auto for row in found.values()) == 1


def test_only_calibrated_feasible_rows_carry_a_simulated_error() -> None:
    """At delta = 1e-6 the Gaussian tree becomes feasible (and approximate, so not pure): calibrated, it now
    has a simulated error; the public-sample algorithm stays infeasible without one."""
    found = rows(1e-6)
    gaussian = found["tree-gaussian"]
    assert gaussian.feasible and not gaussian.pure and gaussian.reason == ""
    assert gaussian.simulated_error is not None and gaussian.simulated_error > 0
    assert found["pap"].feasible is False and found["pap"].simulated_error is None
    assert found["pap"].pure is True


def test_error_curve_is_the_predicted_error_at_each_epsilon() -> None:
    """The budget page's curve: each algorithm's predicted error at each epsilon, in order."""
    spec = median_spec()
    curve = error_curve(spec, 1000, [0.5, 1.0, 2.0])
    assert curve == {"em": [predicted(spec, 1000, e) for e in (0.5, 1.0, 2.0)]}
    assert curve["em"][0] > curve["em"][1] > curve["em"][2]
