"""``dpgui release distance``: the distance-release task of issue 5 (see dpgui/tasks/distance.py).

Writes release.csv and manifest.json (through the shared export) and, for the structure algorithms, the
released ``distance_structure.json`` into --out; ``dpgui query distance`` answers from it without the data.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from dpgui.cli import release_cmd
from dpgui.data.domain import NumericDomain, default_granularity
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.tasks.spec import TaskKind, TaskSpec


def add_parsers(tasks: argparse._SubParsersAction) -> None:
    parser = tasks.add_parser(
        TaskKind.DISTANCE.value, help=TaskKind.DISTANCE.title, conflict_handler="resolve"
    )
    release_cmd.add_common_arguments(parser, TaskKind.DISTANCE)
    parser.add_argument(
        "--bounds",
        required=True,
        nargs="+",
        type=float,
        metavar="LO HI",
        help="declared bounds, one LO HI pair per column (in --columns order)",
    )
    parser.add_argument("--columns", required=True, help="the numeric columns, comma-separated")
    parser.add_argument("--metric", choices=("l1", "l2", "linf", "hamming"), default="l1")
    parser.add_argument(
        "--queries", type=Path, help="CSV of PUBLIC query points (columns named as --columns)"
    )
    parser.add_argument("--query-count", type=int, default=1000, help="declared number of queries")
    parser.add_argument("--bins", type=int, default=256, help="support points per coordinate (CDF route)")
    parser.set_defaults(handler=run_distance)


def declared_domains(columns: tuple[str, ...], bounds: list[float], granularity: float | None) -> tuple:
    if len(bounds) != 2 * len(columns):
        raise ValueError(
            f"--bounds needs one LO HI pair per column: {len(columns)} columns, {len(bounds)} values"
        )
    pairs = zip(bounds[::2], bounds[1::2], strict=True)
    return tuple(
        NumericDomain(lo, hi, granularity if granularity is not None else default_granularity(lo, hi))
        for lo, hi in pairs
    )


def run_distance(args: argparse.Namespace) -> int:
    columns = tuple(c.strip() for c in args.columns.split(",") if c.strip())
    parameters: tuple[tuple[str, float | int | str], ...] = (
        ("beta", args.beta),
        ("metric", args.metric),
        ("query_count", args.query_count),
        ("bins", args.bins),
        ("queries", str(args.queries) if args.queries is not None else ""),
    )
    spec = TaskSpec(
        kind=TaskKind.DISTANCE,
        columns=columns,
        domains=declared_domains(columns, args.bounds, args.granularity),
        epsilon=args.epsilon,
        delta=args.delta,
        algorithm=args.algorithm,
        missing=MissingPolicy(MissingKind(args.missing), args.fill),
        parameters=parameters,
    )
    return release_cmd.release(spec, args)
