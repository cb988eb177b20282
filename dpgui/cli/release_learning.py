"""``dpgui release threshold|point``: the learning tasks of issue 3 (see dpgui/tasks/learning.py)."""

from __future__ import annotations

import argparse

from dpgui.cli import release_cmd
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.tasks.spec import TaskKind, TaskSpec


def add_parsers(tasks: argparse._SubParsersAction) -> None:
    for kind in (TaskKind.THRESHOLD, TaskKind.POINT):
        parser = tasks.add_parser(kind.value, help=kind.title)
        release_cmd.add_common_arguments(parser, kind)
        parser.add_argument("--feature", required=True, help="the numeric feature column")
        parser.add_argument("--label", required=True, help="the label column")
        parser.add_argument(
            "--positive",
            help="the label value that counts as 1 (default: 0/1, yes/no, true/false understood)",
        )
        parser.set_defaults(handler=lambda args, kind=kind: run_learning(args, kind))


def run_learning(args: argparse.Namespace, kind: TaskKind) -> int:
    spec = TaskSpec(
        kind=kind,
        columns=(args.feature,),
        domains=(release_cmd.declared_domain(args),),
        epsilon=args.epsilon,
        delta=args.delta,
        algorithm=args.algorithm,
        missing=MissingPolicy(MissingKind(args.missing), args.fill),
        label=args.label,
        positive=args.positive,
        public=release_cmd.public_sample(args),
    )
    return release_cmd.release(spec, args)
