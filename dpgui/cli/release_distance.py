"""``dpgui release distance``: the distance-release task of issue 5 (see dpgui/tasks/distance.py).

Writes release.csv and manifest.json (through the shared export) and, for the structure algorithms, the
released ``distance_structure.json`` into --out; ``dpgui query distance`` answers from it without the data.
"""

from __future__ import annotations

import argparse

from dpgui.cli import arguments, release_cmd
from dpgui.cli.algorithm_flags import DEST_PREFIX
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.tasks.distance import DEFAULT_SUPPORT, MAX_SUPPORT, SUPPORT
from dpgui.tasks.spec import TaskKind, TaskSpec


def add_parsers(tasks: argparse._SubParsersAction) -> None:
    parser = tasks.add_parser(
        TaskKind.DISTANCE.value,
        help=TaskKind.DISTANCE.title,
        description="Without --support, the CDF route's support is the declared grid's points when --bins "
        f"is given (at most {MAX_SUPPORT:,}), else {DEFAULT_SUPPORT}.",
        conflict_handler="resolve",
    )
    release_cmd.add_common_arguments(parser, TaskKind.DISTANCE)
    release_cmd.add_bounds_per_column(parser, "--columns")
    parser.add_argument(
        "--columns",
        required=True,
        type=arguments.column_list,
        help="the numeric columns, comma-separated; quote a name that holds a comma: '\"pay, weekly\",age'",
    )
    parser.set_defaults(handler=run_distance)


def _default_support(args: argparse.Namespace) -> tuple[tuple[str, int], ...]:
    """Without ``--support`` (a generated flag, checked like the others), the CDF route's support points:
    every point of a grid declared by --bins, at most the support's maximum, else its default."""
    if getattr(args, DEST_PREFIX + SUPPORT.name) is not None:
        return ()
    grid = DEFAULT_SUPPORT if args.bins is None else min(int(args.bins) + 1, MAX_SUPPORT)
    return ((SUPPORT.name, grid),)


def run_distance(args: argparse.Namespace) -> int:
    columns = args.columns
    spec = TaskSpec(
        kind=TaskKind.DISTANCE,
        columns=columns,
        domains=release_cmd.declared_domains(args, columns),
        epsilon=args.epsilon,
        delta=args.delta,
        algorithm=args.algorithm,
        missing=MissingPolicy(MissingKind(args.missing), args.fill),
        parameters=_default_support(args),
        public=release_cmd.public_sample(args),  # checked against the declared box before the charge
    )
    return release_cmd.release(spec, args)
