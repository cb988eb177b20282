"""``dpgui release TASK``: one release, headless, through the same core as the GUI."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from dpgui.algorithms.progress import run_to_end
from dpgui.cli.budget_cmd import format_state
from dpgui.data.dataset import open_dataset
from dpgui.data.domain import NumericDomain, default_granularity
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.data.public import PublicSample
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SecureRandom
from dpgui.release.export import export_release
from dpgui.tasks.registry import algorithms
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import AUTO, TaskKind, TaskSpec

ONE_COLUMN_TASKS = (TaskKind.MEDIAN, TaskKind.INTERIOR_POINT)


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("release", help="make one differentially private release")
    tasks = parser.add_subparsers(dest="task", metavar="TASK", required=True)
    for kind in ONE_COLUMN_TASKS:
        task = tasks.add_parser(kind.value, help=kind.title)
        add_common_arguments(task, kind)
        task.add_argument("--column", required=True, help="the numeric column")
        task.set_defaults(handler=lambda args, kind=kind: run_one_column(args, kind))


def add_common_arguments(parser: argparse.ArgumentParser, kind: TaskKind) -> None:
    names = [info.name for info in algorithms(kind)]
    parser.add_argument("--data", required=True, type=Path, help="the private data file")
    parser.add_argument(
        "--bounds", required=True, nargs=2, type=float, metavar=("LO", "HI"), help="declared value bounds"
    )
    parser.add_argument("--granularity", type=float, help="grid step (default: 1 for integer bounds)")
    parser.add_argument("--epsilon", required=True, type=float, help="privacy loss of this release")
    parser.add_argument("--delta", type=float, default=0.0, help="delta of this release (default 0)")
    parser.add_argument("--algorithm", default=AUTO, choices=[AUTO, *names], help="default: auto")
    parser.add_argument("--beta", type=float, default=0.05, help="failure probability of the accuracy bound")
    parser.add_argument(
        "--missing",
        choices=[kind.value for kind in MissingKind],
        default=MissingKind.IMPUTE.value,
        help="missing values: impute a declared value (default) or fail",
    )
    parser.add_argument("--fill", type=float, help="the imputed value (default: the lower bound)")
    parser.add_argument("--public", type=Path, help="optional public sample file (public data only)")
    parser.add_argument("--out", required=True, type=Path, help="folder for release.csv and manifest.json")


def declared_domain(args: argparse.Namespace) -> NumericDomain:
    lower, upper = args.bounds
    granularity = args.granularity if args.granularity is not None else default_granularity(lower, upper)
    return NumericDomain(lower, upper, granularity)


def public_sample(args: argparse.Namespace) -> PublicSample | None:
    return PublicSample.from_file(args.public) if args.public is not None else None


def run_one_column(args: argparse.Namespace, kind: TaskKind) -> int:
    spec = TaskSpec(
        kind=kind,
        columns=(args.column,),
        domains=(declared_domain(args),),
        epsilon=args.epsilon,
        delta=args.delta,
        algorithm=args.algorithm,
        missing=MissingPolicy(MissingKind(args.missing), args.fill),
        parameters=(("beta", args.beta),),
        public=public_sample(args),
    )
    return release(spec, args.data, args.out)


def release(spec: TaskSpec, data: Path, out: Path) -> int:
    dataset = open_dataset(data)
    ledger = Ledger()
    result = run_to_end(execute(spec, dataset, ledger, SecureRandom()))
    exported = export_release(result, out)
    for row in result.table.rows:
        print(",".join(str(value) for value in row))
    files = ", ".join(path.name for path in exported.files)
    print(f"released by {result.algorithm.name} at {result.cost}; files: {files}")
    print(format_state(dataset.name, result.budget_after), file=sys.stderr)
    return 0
