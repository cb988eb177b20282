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


def test_the_max_seconds_help_names_aims_own_default() -> None:
    """Docs audit, session 34: the help said AIM ends its rounds about --max-seconds (600 s) after the
    marginals are counted, where the code ends them at its own default unless --max-seconds is lower."""
    from dpgui.cli.preflight import add_arguments

    parser = argparse.ArgumentParser()
    add_arguments(parser)
    (action,) = [a for a in parser._actions if "--max-seconds" in a.option_strings]
    text = action.help or ""
    assert f"--time-limit default ({AIM_SECONDS:g} s)" in text and "or this if lower" in text
