"""``dpgui release rectangle``: an axis-aligned box over several features (see dpgui/tasks/interior.py)."""

from __future__ import annotations

import argparse

from dpgui.cli import arguments, release_cmd
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.tasks.spec import TaskKind, TaskSpec


def add_parsers(tasks: argparse._SubParsersAction) -> None:
    parser = tasks.add_parser(
        TaskKind.RECTANGLE.value, help=TaskKind.RECTANGLE.title, conflict_handler="resolve"
    )
    release_cmd.add_common_arguments(parser, TaskKind.RECTANGLE)
    release_cmd.add_bounds_per_column(parser, "--features")
    parser.add_argument(
        "--features",
        required=True,
        type=arguments.column_list,
        help="the numeric feature columns, comma-separated; quote a name that holds a comma",
    )
    parser.add_argument("--label", required=True, help="the label column")
    parser.add_argument(
        "--positive", help="the label value that counts as 1 (default: 0/1, yes/no, true/false understood)"
    )
    parser.set_defaults(handler=run_rectangle)


def run_rectangle(args: argparse.Namespace) -> int:
    features = args.features
    spec = TaskSpec(
        kind=TaskKind.RECTANGLE,
        columns=features,
        domains=release_cmd.declared_domains(args, features),
        epsilon=args.epsilon,
        delta=args.delta,
        algorithm=args.algorithm,
        missing=MissingPolicy(MissingKind(args.missing), args.fill),
        label=args.label,
        positive=args.positive,
        public=release_cmd.public_sample(args),
    )
    return release_cmd.release(spec, args)
