"""Pins the lower bounds the planner shows beside its predictions (dpgui/planner/floors.py, ``dpgui plan``).

Each floor is written out here from its source: the certified pure-DP learner floor (spec 003 A9, with the
Littlestone dimension of thresholds on 2^b points = b, spec 003 s5), EHKV'89 inside its stated range
(error <= 1/8, beta <= 1/100; spec 003 s5), paper 000 Lemma 4.15 (spec 000 s8, 167.5 at |X| = 2^32) and the
public-sample floor 1/(2 a_cdf) of paper 001 Thm 15 (spec 001 s7); and the defaults a = beta = 0.05.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from dpgui.data.domain import NumericDomain
from dpgui.data.public import PublicSample
from dpgui.planner.bounds import pure_learner_lower_bound
from dpgui.planner.floors import Floor, Solidity, floors, threshold_ldim
from dpgui.tasks.spec import ParameterValue, TaskKind, TaskSpec
from tests.planner.littlestone import littlestone_dimension, thresholds

LEARNER = "pure-DP learner (certified, Littlestone dimension)"
NON_PRIVATE = "any learner, even non-private (VC = 1)"
SANITIZER = "pure-DP proper sanitizer"
PUBLIC = "public records for public-data-assisted release (continuous domains only)"
LOG_STAR = "approximate DP, Ω(log*|X|)"


def spec(
    kind: TaskKind,
    size_bits: int = 32,
    epsilon: float = 1.0,
    beta: float | None = None,
    public: bool = False,
    upper: int | None = None,
) -> TaskSpec:
    parameters: tuple[tuple[str, ParameterValue], ...] = () if beta is None else (("beta", beta),)
    domain = NumericDomain(0, 2**size_bits - 1 if upper is None else upper, 1)
    return TaskSpec(
        kind,
        ("x",),
        (domain,),
        epsilon,
        1e-6,
        parameters=parameters,
        label="y" if kind in (TaskKind.THRESHOLD, TaskKind.POINT) else None,
        public=PublicSample(Path("/public.csv"), "ab" * 32) if public else None,
    )


def by_name(found: list[Floor]) -> dict[str, Floor]:
    return {floor.name: floor for floor in found}


def ehkv(error: float, beta: float) -> float:
    """EHKV'89 for VC 1 (spec 003 s5): ((1 - err)/err) ln(1/beta); the (v - 1)/(32 err) term is 0."""
    return (1 - error) / error * math.log(1 / beta)


def test_threshold_floors_use_ldim_b_and_ehkv_inside_its_range() -> None:
    """Thresholds on 2^32 points: LDim 32 in the A9 floor; EHKV at error 0.1, beta 0.005 (inside its
    range)."""
    found = by_name(floors(spec(TaskKind.THRESHOLD, beta=0.005), 0.1))
    assert set(found) == {LEARNER, NON_PRIVATE}
    assert found[LEARNER].records == pure_learner_lower_bound(32, 1.0, 0.1, 0.005)
    assert found[NON_PRIVATE].records == pytest.approx(ehkv(0.1, 0.005))
    assert found[LEARNER].solidity is found[NON_PRIVATE].solidity is Solidity.PROVEN
    assert found[NON_PRIVATE].public is False


def test_ehkv_floor_follows_the_asked_beta_and_error_inside_its_range() -> None:
    """Inside EHKV's range the floor is the formula at the asked (error, beta) themselves."""
    found = by_name(floors(spec(TaskKind.THRESHOLD, beta=0.008), 0.12))
    assert found[NON_PRIVATE].records == pytest.approx(ehkv(0.12, 0.008))


def test_threshold_learner_floor_at_the_spec_003_a9_point() -> None:
    """Spec 003 A9 worked numbers: thresholds on 2^16 and 2^64 points at privacy 1, error 0.1, beta 0.05 give
    4.0 and 21.4 (the bits of the declared grid are its Littlestone dimension)."""
    for bits, golden in ((16, 4.0), (64, 21.4)):
        found = by_name(floors(spec(TaskKind.THRESHOLD, size_bits=bits), 0.1))
        assert found[LEARNER].records == pytest.approx(golden, abs=0.06)


def test_a_grid_that_is_not_a_power_of_two_rounds_its_littlestone_dimension_down() -> None:
    """1000 points: LDim(thresholds) = floor(log2 1000) = 9, not 10 (spec 003 s2.4: LDim <= floor(log2 |C|)
    with |C| = 1000), so the certified floor is A9 at LDim 9; 1025 points give 10."""
    found = by_name(floors(spec(TaskKind.THRESHOLD, upper=999), 0.05))
    assert found[LEARNER].records == pure_learner_lower_bound(9, 1.0, 0.05, 0.05)
    assert found[LEARNER].records < pure_learner_lower_bound(10, 1.0, 0.05, 0.05)
    found = by_name(floors(spec(TaskKind.THRESHOLD, upper=1024), 0.05))  # 1025 points
    assert found[LEARNER].records == pure_learner_lower_bound(10, 1.0, 0.05, 0.05)


@pytest.mark.parametrize("points", range(1, 34))
def test_the_threshold_ldim_is_the_computed_littlestone_dimension(points: int) -> None:
    """The dimension the floor uses is the one the mistake-tree calculator (spec 003 A7) finds for the
    thresholds on that many points."""
    assert threshold_ldim(points) == littlestone_dimension(thresholds(points), points)


def test_point_functions_have_littlestone_dimension_one() -> None:
    """Spec 003 s5: LDim(Point_b) = 1, so the A9 floor (no floor at LDim 1) is 0 whatever b."""
    found = by_name(floors(spec(TaskKind.POINT), 0.05))
    assert found[LEARNER].records == pure_learner_lower_bound(1, 1.0, 0.05, 0.05) == 0.0


def test_default_accuracy_and_beta_are_five_percent() -> None:
    """No target (or one outside (0, 1/2)) means a = 0.05; no beta parameter means beta = 0.05."""
    expected = pure_learner_lower_bound(32, 1.0, 0.05, 0.05)
    for target in (None, 0.0, 0.5, 0.7, -0.1):
        found = by_name(floors(spec(TaskKind.THRESHOLD), target))
        assert found[LEARNER].records == expected, target
    assert by_name(floors(spec(TaskKind.THRESHOLD), 0.49))[LEARNER].records != expected
    with_beta = by_name(floors(spec(TaskKind.THRESHOLD, beta=0.05), None))
    assert with_beta[LEARNER].records == expected


def test_sanitizer_floor_matches_spec_000_s8() -> None:
    """Paper 000 Lemma 4.15 (spec 000 s8): 167.5 records for a proper pure sanitizer of thresholds or points
    on 2^32 points at eps = 1, a = beta = 0.05; the formula ln((|X| - 1)(1 - beta)/beta)/(3 eps a)
    elsewhere."""
    for kind in (TaskKind.CDF, TaskKind.QUANTILES, TaskKind.HISTOGRAM, TaskKind.SYNTHETIC):
        found = by_name(floors(spec(kind), None))
        assert set(found) == {SANITIZER}, kind
        assert found[SANITIZER].records == pytest.approx(167.5, abs=0.05)
        assert found[SANITIZER].solidity is Solidity.PROVEN
    found = by_name(floors(spec(TaskKind.CDF, upper=999, epsilon=0.5, beta=0.1), 0.02))
    expected = math.log(999 * 0.9 / 0.1) / (3 * 0.5 * 0.02)
    assert found[SANITIZER].records == pytest.approx(expected, rel=1e-12)


def test_public_floor_is_one_over_twice_the_accuracy() -> None:
    """Paper 001 Thm 15 via spec 001 s7: at least 1/(2 a_cdf) public records (10 at a = 0.05), an order of
    magnitude, for sanitizer tasks and thresholds given a public sample; none without one, none for points."""
    for kind in (TaskKind.CDF, TaskKind.THRESHOLD):
        found = by_name(floors(spec(kind, public=True), None))
        assert found[PUBLIC].records == pytest.approx(10.0)
        assert found[PUBLIC].public is True
        assert found[PUBLIC].solidity is Solidity.ORDER_OF_MAGNITUDE
        assert by_name(floors(spec(kind, public=True), 0.02))[PUBLIC].records == pytest.approx(25.0)
        assert PUBLIC not in by_name(floors(spec(kind), None))
    assert PUBLIC not in by_name(floors(spec(TaskKind.POINT, public=True), None))


def test_log_star_floor_is_shown_only_on_request() -> None:
    """Spec 003 s5 display rule 3 (shapes off by default); log*|X| = 5 at |X| = 2^32 (spec 002 s8.1) and
    4 at 2^16."""
    for kind in (TaskKind.THRESHOLD, TaskKind.MEDIAN, TaskKind.INTERIOR_POINT, TaskKind.CDF):
        assert LOG_STAR not in by_name(floors(spec(kind), None)), kind
        found = by_name(floors(spec(kind), None, show_shapes=True))
        assert found[LOG_STAR].records == 5.0, kind
        assert found[LOG_STAR].solidity is Solidity.CONSTANT_UNKNOWN
    assert by_name(floors(spec(TaskKind.MEDIAN, size_bits=16), None, True))[LOG_STAR].records == 4.0
    assert LOG_STAR not in by_name(floors(spec(TaskKind.HISTOGRAM), None, show_shapes=True))


def test_log_star_floor_of_small_grids() -> None:
    """log*|X| on tiny declared grids: 2 points give 1 bit and log* 2 = 1; 3 points round up to 2 bits,
    log* 4 = 2."""
    assert by_name(floors(spec(TaskKind.MEDIAN, upper=1), None, True))[LOG_STAR].records == 1.0
    assert by_name(floors(spec(TaskKind.MEDIAN, upper=2), None, True))[LOG_STAR].records == 2.0
