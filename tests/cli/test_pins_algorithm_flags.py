"""Pins the flags generated from the registry's ParameterSpec (dpgui/cli/algorithm_flags.py).

A parameter ``label_noise`` is the flag ``--label-noise``; its help states the default and, when the spec has
one, the range (``% `` escaped for argparse); a bool is ``--x/--no-x``; a typed flag parses to its type and is
limited to its choices; an unset flag is None (the spec's default applies in the core); a flag the parser
already has is left alone. Given values reach the spec, and a value for a parameter the chosen algorithm does
not take is refused (with ``auto`` every given value is kept).
"""

from __future__ import annotations

import argparse

import pytest

from dpgui.cli.algorithm_flags import (
    DEST_PREFIX,
    _help,
    add_algorithm_flags,
    flag_of,
    task_parameters,
    with_algorithm_flags,
)
from dpgui.data.domain import NumericDomain
from dpgui.tasks.registry import ParameterSpec
from dpgui.tasks.spec import AUTO, TaskKind, TaskSpec


def parser_for(kind: TaskKind, *existing: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    for flag in existing:
        parser.add_argument(flag)
    add_algorithm_flags(parser, kind)
    return parser


def test_flag_names_use_dashes() -> None:
    assert flag_of("label_noise") == "--label-noise"
    assert flag_of("beta") == "--beta"


def test_help_states_the_default_and_the_range() -> None:
    beta = ParameterSpec("beta", float, 0.05, "failure probability", 1e-9, 0.5)
    assert (
        _help(beta)
        == "failure probability (default 0.05; 1e-09 to 0.5; only for the algorithms that take it)"
    )
    free = ParameterSpec("q", str, "0.5", "50% quantile", choices=())
    assert _help(free) == "50%% quantile (default 0.5; only for the algorithms that take it)"
    # docs audit, session 34: "(default ; ...)" for an empty default, "2 to 1.67772e+07", "column). (default"
    cells = ParameterSpec("max_cells", int, 4096, "At most this many cells.", 2, 1 << 24)
    assert _help(cells).startswith("At most this many cells (default 4096; 2 to 16,777,216; only")
    queries = ParameterSpec("queries", str, "", "CSV of query points.", path=True)
    assert _help(queries).startswith("CSV of query points (default none; only")


def test_the_first_spec_of_a_name_is_the_one_used_across_tasks() -> None:
    """``alpha`` is a CDF parameter (0.001 to 1) and a threshold one (0.0001 to 0.5): the first kind wins."""
    assert task_parameters([TaskKind.CDF, TaskKind.THRESHOLD])["alpha"].minimum == 0.001
    assert task_parameters([TaskKind.THRESHOLD, TaskKind.CDF])["alpha"].minimum == 0.0001
    assert task_parameters(TaskKind.THRESHOLD)["alpha"].maximum == 0.5


def test_generated_flags_parse_to_their_types_and_default_to_none() -> None:
    parser = parser_for(TaskKind.HISTOGRAM)
    unset = parser.parse_args([])
    assert getattr(unset, DEST_PREFIX + "k") is None and getattr(unset, DEST_PREFIX + "normalise") is None
    given = parser.parse_args(["--k", "3", "--normalise", "--beta", "0.1"])
    assert getattr(given, DEST_PREFIX + "k") == 3 and isinstance(getattr(given, DEST_PREFIX + "k"), int)
    assert getattr(given, DEST_PREFIX + "normalise") is True
    assert getattr(given, DEST_PREFIX + "beta") == 0.1
    assert getattr(parser.parse_args(["--no-normalise"]), DEST_PREFIX + "normalise") is False
    assert "normalise" in unset.generated_parameters


def test_choices_are_enforced_by_the_parser() -> None:
    parser = parser_for(TaskKind.THRESHOLD)
    assert getattr(parser.parse_args(["--direction", "le"]), DEST_PREFIX + "direction") == "le"
    with pytest.raises(SystemExit):
        parser.parse_args(["--direction", "up"])


def test_a_flag_the_parser_already_has_is_not_generated() -> None:
    parser = parser_for(TaskKind.DISTANCE, "--support")
    assert "support" not in parser.parse_args([]).generated_parameters
    assert parser.parse_args(["--support", "7"]).support == "7"


def test_the_distance_support_is_generated_beside_the_grids_bins() -> None:
    parser = parser_for(TaskKind.DISTANCE, "--bins")
    args = parser.parse_args(["--bins", "7", "--support", "9"])
    assert (args.bins, args.parameter_support) == ("7", 9)
    assert "support" in args.generated_parameters


def spec(algorithm: str) -> TaskSpec:
    return TaskSpec(TaskKind.CDF, ("x",), (NumericDomain(0, 100, 1),), 1.0, 0.0, algorithm)


def test_given_values_reach_the_spec_and_foreign_ones_are_refused() -> None:
    args = parser_for(TaskKind.CDF).parse_args(["--tree-share", "0.4"])
    assert with_algorithm_flags(spec("privtree"), args).parameters == (("tree_share", 0.4),)
    assert with_algorithm_flags(spec(AUTO), args).parameters == (("tree_share", 0.4),)
    with pytest.raises(ValueError, match="tree-laplace does not take --tree-share"):
        with_algorithm_flags(spec("tree-laplace"), args)
    unset = parser_for(TaskKind.CDF).parse_args([])
    assert with_algorithm_flags(spec("tree-laplace"), unset) == spec("tree-laplace")
