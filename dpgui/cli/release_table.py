"""``dpgui release table``: a DP synthetic version of the whole table (issue 16, dpgui/tasks/table.py).

DOMAINS.json (``dpgui.data.domains_file``) maps each released column, in the file's key order, to its
public domain. Missing values are kept by default (``--missing keep``: a "missing" cell per column, blank
in the synthetic rows); ``--missing impute`` replaces them as the one-column tasks do.
Writes synthetic.csv and synthetic.parquet beside release.csv (what was measured), the report and the
manifest.
"""

from __future__ import annotations

import argparse

from dpgui.cli import arguments, release_cmd
from dpgui.cli.algorithm_flags import DEST_PREFIX
from dpgui.data.domains_file import read_domains
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.tasks.spec import AUTO, TaskKind, TaskSpec
from dpgui.tasks.table import AIM, TIME_LIMIT

GRID_FLAGS = ("--bounds", "--granularity", "--bins", "--unit")
"""The one-column grid flags, which a table takes from DOMAINS.json instead."""


def add_parsers(tasks: argparse._SubParsersAction) -> None:
    parser = tasks.add_parser(TaskKind.TABLE.value, help=TaskKind.TABLE.title, conflict_handler="resolve")
    release_cmd.add_common_arguments(parser, TaskKind.TABLE)
    for flag in GRID_FLAGS:  # declared per column in DOMAINS.json; given here, they are refused
        parser.add_argument(flag, nargs="*", help=argparse.SUPPRESS)
    for flag in ("--public", "--public-encoding"):  # no table algorithm reads a public sample: refused
        parser.add_argument(flag, help=argparse.SUPPRESS)
    parser.add_argument(
        "--domains",
        required=True,
        type=arguments.given_path,
        help="JSON: each column to its declared (public) domain",
    )
    parser.set_defaults(handler=run_table)


def run_table(args: argparse.Namespace) -> int:
    given = [flag for flag in GRID_FLAGS if getattr(args, flag.removeprefix("--")) is not None]
    if given:
        raise ValueError(
            f"{', '.join(given)}: a table declares each column's bounds, bins or granularity and unit in "
            "--domains DOMAINS.json"
        )
    given_public = (("--public", args.public), ("--public-encoding", args.public_encoding))
    public = [f"{flag} {value}" for flag, value in given_public if value is not None]
    if public:
        raise ValueError(
            f"{', '.join(public)}: no synthetic-table algorithm reads a public sample; leave it out"
        )
    columns, domains = read_domains(args.domains)
    spec = TaskSpec(
        kind=TaskKind.TABLE,
        columns=columns,
        domains=domains,
        epsilon=args.epsilon,
        delta=args.delta,
        algorithm=args.algorithm,
        missing=MissingPolicy(MissingKind(args.missing), args.fill),
        parameters=_time_limit_from_max_seconds(args),
    )
    return release_cmd.release(spec, args)


def _time_limit_from_max_seconds(args: argparse.Namespace) -> tuple[tuple[str, float], ...]:
    """AIM's time a table's work cannot predict (its rounds and model depend on what it measures): without
    ``--time-limit``, AIM ends its rounds in time to finish about its default limit, or ``--max-seconds``
    if lower, after the marginals are counted (a 25-column, 100,000-row table ran for over 20 minutes). A
    given ``--time-limit`` wins."""
    if args.algorithm not in (AUTO, AIM.name) or getattr(args, DEST_PREFIX + TIME_LIMIT.name) is not None:
        return ()
    return ((TIME_LIMIT.name, min(float(args.max_seconds), TIME_LIMIT.default)),)
