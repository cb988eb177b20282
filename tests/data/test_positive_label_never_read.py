"""A named positive label that no cell reads (a typo, or 'Yes' for 'yes') is warned about before the
charge: every row would silently count as negative. All-negative data can be the truth, so it is a warning
(printed, the run goes on), not a refusal."""

from __future__ import annotations

import pandas as pd
import pytest

from dpgui.data.checks import FrameChecker, _partition_summary, combine_summaries
from dpgui.data.domain import NumericDomain
from dpgui.data.missing import MissingPolicy
from tests.data.checking import check_frames

FRAME = pd.DataFrame({"x": [1.0, 2.0, 3.0, 4.0], "y": ["yes", "no", "no", None]})
DOMAIN = (NumericDomain(0.0, 10.0, 1.0),)


def _check(positive: str):
    return check_frames("f.csv", [(0, FRAME)], ("x",), DOMAIN, MissingPolicy(), label="y", positive=positive)


@pytest.mark.parametrize("positive", ["maybe", "Yes"])
def test_a_positive_value_no_cell_reads_is_warned_about(positive: str) -> None:
    check = _check(positive)
    assert not check.refusals
    assert [w for w in check.warnings if f"reads {positive!r}" in w and "every row counts as negative" in w]


@pytest.mark.parametrize("positive", ["yes", " yes ", "no"])
def test_a_positive_value_some_cell_reads_is_not_warned_about(positive: str) -> None:
    check = _check(positive)
    assert not check.warnings and check.columns[-1].positives == (1 if "yes" in positive else 2)


def test_partitions_add_up_their_positives() -> None:
    def fresh() -> FrameChecker:
        return FrameChecker("f.csv", ("x",), DOMAIN, MissingPolicy(), label="y", positive="no")

    parts = [
        _partition_summary(fresh, iter([FRAME.iloc[:2]])),
        _partition_summary(fresh, iter([FRAME.iloc[2:]])),
    ]
    combined = combine_summaries(pd.concat(parts, ignore_index=True), fresh().checks())
    assert combined[-1].positives == 2
