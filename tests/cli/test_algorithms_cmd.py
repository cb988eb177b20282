"""``dpgui algorithms`` names each parameter by the flag that sets it: the listing printed ``--tree_share``
and ``--max_cells``, which no parser has, and ``--bins`` for the distance release's support, which
``release distance`` reads as the grid's bins."""

from __future__ import annotations

import argparse
import re

import pytest

from dpgui.cli.main import build_parser, main


def release_parsers() -> dict[str, argparse.ArgumentParser]:
    release = build_parser()._subparsers._group_actions[0].choices["release"]  # type: ignore[union-attr]
    return release._subparsers._group_actions[0].choices  # type: ignore[union-attr]


def test_every_listed_flag_is_a_flag_of_its_tasks_release_parser(capsys: pytest.CaptureFixture[str]):
    assert main(["algorithms"]) == 0
    parsers, task, checked = release_parsers(), None, 0
    for line in capsys.readouterr().out.splitlines():
        if line[:1].strip():
            task = line.split()[0]
        elif (flag := re.match(r"\s+(--\S+) \(default", line)) is not None:
            options = {option for action in parsers[task]._actions for option in action.option_strings}
            assert flag.group(1) in options, (task, flag.group(1))
            checked += 1
    assert checked > 50


def test_the_distance_support_is_listed_as_support(capsys: pytest.CaptureFixture[str]):
    main(["algorithms"])
    listed = capsys.readouterr().out
    assert "--support (default 256)" in listed and "--tree-share (default 0.3)" in listed
