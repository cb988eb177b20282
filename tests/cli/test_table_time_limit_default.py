"""A table's AIM ends its rounds by its own default limit (about two minutes a table, issue 16) unless
--max-seconds is lower or --time-limit is given; other algorithms take no limit."""

from __future__ import annotations

import argparse

import pytest

from dpgui.cli.algorithm_flags import DEST_PREFIX
from dpgui.cli.release_table import _time_limit_from_max_seconds
from dpgui.tasks.table import AIM_SECONDS, TIME_LIMIT


def arguments(algorithm: str, max_seconds: float, time_limit: float | None = None) -> argparse.Namespace:
    return argparse.Namespace(
        algorithm=algorithm, max_seconds=max_seconds, **{DEST_PREFIX + TIME_LIMIT.name: time_limit}
    )


@pytest.mark.parametrize(
    ("algorithm", "max_seconds", "time_limit", "expected"),
    [
        ("auto", 600.0, None, ((TIME_LIMIT.name, AIM_SECONDS),)),  # --max-seconds' default is higher
        ("aim", 30.0, None, ((TIME_LIMIT.name, 30.0),)),  # a lower --max-seconds bounds the rounds
        ("aim", 600.0, 3600.0, ()),  # a given --time-limit is the spec's own parameter
        ("mst", 600.0, None, ()),
    ],
)
def test_aims_time_limit_is_its_default_or_a_lower_max_seconds(algorithm, max_seconds, time_limit, expected):
    assert _time_limit_from_max_seconds(arguments(algorithm, max_seconds, time_limit)) == expected
    assert TIME_LIMIT.default == AIM_SECONDS == 100.0
