"""Pins the review's "budget left after this release" (what the custodian confirms against): both epsilon and
delta are the remainder minus the cost, floored at 0; and the trivial error of a histogram (an all-zero
histogram misses every record's share: max |frequency error| up to 1)."""

from __future__ import annotations

import pytest

from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks import review
from dpgui.tasks.review import ReleaseReview
from dpgui.tasks.simulation import BOUND


def remaining(before: PrivacyCost, cost: PrivacyCost) -> PrivacyCost:
    r = ReleaseReview(
        spec=None, algorithm=None, why="", cost=cost, n=100, remaining_before=before,
        predicted_error=0.1, checks=(), error_kind=BOUND,
    )  # fmt: skip
    return r.remaining_after


@pytest.mark.parametrize(
    ("before", "cost", "after"),
    [
        ((2.0, 1e-5), (0.5, 4e-6), (1.5, 6e-6)),
        ((0.5, 0.9), (0.25, 0.0), (0.25, 0.9)),
        ((0.5, 1e-6), (1.0, 1e-5), (0.0, 0.0)),
    ],
)
def test_remaining_after_is_the_remainder_minus_the_cost(before, cost, after) -> None:
    left = remaining(PrivacyCost(*before), PrivacyCost(*cost))
    assert left.epsilon == pytest.approx(after[0], abs=1e-15)
    assert left.delta == pytest.approx(after[1], abs=1e-15)


def test_a_histograms_trivial_error_is_one() -> None:
    assert review.TRIVIAL_ERRORS["max |frequency error| (count error / n)"] == 1.0
