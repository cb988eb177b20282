"""Littlestone and VC golden values (spec 003 s7 items 1-2; REVIEW-001-003-004 s5b)."""

import pytest

from tests.planner.littlestone import (
    boxes_2d,
    intervals,
    lines,
    littlestone_dimension,
    point_functions,
    thresholds,
    vc_dimension,
)


@pytest.mark.parametrize("d", range(0, 7))
def test_thresholds_on_two_to_the_d_points_have_ldim_d(d):
    assert littlestone_dimension(thresholds(2**d), 2**d) == d


@pytest.mark.parametrize("n", [2, 5, 16])
def test_point_functions_have_ldim_one(n):
    assert littlestone_dimension(point_functions(n), n) == 1
    assert littlestone_dimension(point_functions(n, with_zero=True), n) == 1


def test_single_point_without_zero_has_ldim_zero_and_empty_class_minus_one():
    assert littlestone_dimension(point_functions(1), 1) == 0
    assert littlestone_dimension([], 4) == -1


@pytest.mark.parametrize(("n", "expected"), [(2, 2), (4, 3), (8, 4), (16, 6)])
def test_intervals_with_empty_set(n, expected):
    assert littlestone_dimension(intervals(n), n) == expected


@pytest.mark.parametrize(("side", "expected"), [(2, 3), (4, 6)])
def test_two_dimensional_boxes(side, expected):
    assert littlestone_dimension(boxes_2d(side), side * side) == expected


@pytest.mark.parametrize("p", [2, 3, 5])
def test_lines_have_ldim_two(p):
    assert littlestone_dimension(lines(p), p * p) == 2


def test_vc_never_exceeds_ldim_and_boxes_have_vc_four():
    """Spec 003 erratum E6: VC(BOX) = 2d, not d + 1."""
    assert vc_dimension(boxes_2d(3), 9) == 4
    for concepts, points in [(thresholds(8), 8), (intervals(8), 8), (point_functions(6), 6)]:
        assert vc_dimension(concepts, points) <= littlestone_dimension(concepts, points)
    assert vc_dimension(thresholds(8), 8) == 1


@pytest.mark.parametrize("d", range(1, 5))
def test_a_class_of_exactly_two_to_the_d_concepts_can_have_vc_d(d):
    """All 2^d subsets of d points shatter them: VC = LDim = d (spec 003 s2.4, VC <= LDim <= floor(log2 |C|),
    with equality here). Thresholds on 2 points (two concepts) have VC 1, as on more points."""
    every_subset = list(range(2**d))
    assert vc_dimension(every_subset, d) == littlestone_dimension(every_subset, d) == d
    assert vc_dimension(thresholds(2), 2) == 1
