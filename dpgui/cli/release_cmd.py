"""``dpgui release TASK``: one release, headless, through the same core as the GUI."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from dpgui.algorithms.progress import Progress, run_to_end
from dpgui.cli import (
    algorithm_flags,
    arguments,
    batch_cmd,
    preflight,
    release_distance,
    release_learning,
    release_rectangle,
    release_sanitize,
    release_table,
    review_gate,
)
from dpgui.cli.budget_cmd import format_state
from dpgui.cli.errors import EXIT_USAGE
from dpgui.cli.stdout import print_csv_rows
from dpgui.data.domain import (
    DEFAULT_INTEGER_SPAN,
    DEFAULT_MIN_WHOLE_POINTS,
    DEFAULT_POINTS,
    NumericDomain,
    declared_grid,
)
from dpgui.data.engines import AUTO_MIN_BYTES, COLUMNAR_MIN_BYTES, Engine
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.privacy.ledger import Ledger
from dpgui.privacy.random import SecureRandom
from dpgui.release.staging import PublishFailed, discard, publish
from dpgui.tasks.registry import algorithms
from dpgui.tasks.runner import execute
from dpgui.tasks.spec import AUTO, TaskKind, TaskSpec, default_missing

ONE_COLUMN_TASKS = (TaskKind.MEDIAN, TaskKind.INTERIOR_POINT)

if TYPE_CHECKING:
    from dpgui.data.public import PublicSample


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("release", help="make one differentially private release")
    tasks = parser.add_subparsers(dest="task", metavar="TASK", required=True)
    for kind in ONE_COLUMN_TASKS:
        task = tasks.add_parser(kind.value, help=kind.title)
        add_common_arguments(task, kind)
        task.add_argument("--column", required=True, help="the numeric column")
        task.set_defaults(handler=lambda args, kind=kind: run_one_column(args, kind))
    release_learning.add_parsers(tasks)
    release_sanitize.add_parsers(tasks)
    release_rectangle.add_parsers(tasks)
    release_distance.add_parsers(tasks)
    release_table.add_parsers(tasks)
    for kind in TaskKind:
        algorithm_flags.add_algorithm_flags(tasks.choices[kind.value], kind)
    batch_cmd.add_release_parser(tasks)


def add_common_arguments(parser: argparse.ArgumentParser, kind: TaskKind) -> None:
    names = [info.name for info in algorithms(kind)]
    parser.add_argument(
        "--data", type=arguments.given_path, help="the private data file (or a Parquet folder)"
    )
    arguments.add_encoding_argument(parser)
    parser.add_argument(
        "--engine",
        choices=[engine.value for engine in Engine],
        default=Engine.AUTO.value,
        help="where aggregates are computed: in memory, out of core (embedded), in Spark; default auto: "
        f"embedded for a Parquet folder, Parquet or Feather files over {COLUMNAR_MIN_BYTES >> 20} MiB and "
        f"other files over min({AUTO_MIN_BYTES >> 30} GiB, RAM/4)",
    )
    parser.add_argument("--spark-master", metavar="URL", help="Spark master URL (default local[2])")
    parser.add_argument("--table", metavar="NAME", help="a Spark catalog table instead of --data")
    parser.add_argument(
        "--bounds", required=True, nargs=2, type=float, metavar=("LO", "HI"), help="declared value bounds"
    )
    add_grid_arguments(parser)
    parser.add_argument("--epsilon", required=True, type=float, help="privacy loss of this release")
    parser.add_argument("--delta", type=float, default=0.0, help="delta of this release (default 0)")
    parser.add_argument("--algorithm", default=AUTO, choices=[AUTO, *names], help="default: auto")
    table = kind is TaskKind.TABLE
    parser.add_argument(
        "--missing",
        choices=[k.value for k in MissingKind if table or k is not MissingKind.KEEP],
        default=default_missing(kind).kind.value,
        help="missing values: keep them as a cell of their own, left blank in the synthetic rows "
        "(default), impute a declared value, or fail"
        if table
        else "missing values: impute a declared value (default) or fail",
    )
    parser.add_argument("--fill", type=float, help="the imputed value (default: the lower bound)")
    parser.add_argument(
        "--public", type=arguments.given_path, help="optional public sample file (public data only)"
    )
    arguments.add_encoding_argument(parser, public=True)
    parser.add_argument(
        "--out",
        required=True,
        type=arguments.given_path,
        help="folder for the release's files (release.csv, report.html, manifest.json)",
    )
    preflight.add_arguments(parser)
    review_gate.add_argument(parser)


def add_grid_arguments(parser: argparse.ArgumentParser) -> None:
    """``--granularity`` or ``--bins`` (not both); with neither, the default grid of ``declared_grid``."""
    parser.add_argument(
        "--granularity",
        type=float,
        help=f"grid step (default: 1 when the bounds are whole numbers {DEFAULT_MIN_WHOLE_POINTS - 1:,} to "
        f"{DEFAULT_INTEGER_SPAN:,} apart, else the largest 1, 2 or 5 times a power of ten giving at least "
        f"{DEFAULT_POINTS:,} steps)",
    )
    parser.add_argument("--bins", type=int, help="B bins: grid step (HI - LO) / B, instead of --granularity")
    parser.add_argument(
        "--unit",
        nargs="+",
        metavar="UNIT",
        help="the values' unit (e.g. USD), one for every column or one per column: shown on plots and in "
        "the manifest, changes no count",
    )


def declared_domain(args: argparse.Namespace) -> NumericDomain:
    (domain,) = declared_domains(args, ["the column"])
    return domain


def add_bounds_per_column(parser: argparse.ArgumentParser, columns_flag: str) -> None:
    """Replace the one-pair ``--bounds`` by one LO HI pair per column named in ``columns_flag``."""
    parser.add_argument(
        "--bounds",
        required=True,
        nargs="+",
        type=float,
        metavar="LO HI",
        help=f"declared bounds, one LO HI pair per column of {columns_flag}, in that order",
    )


def declared_domains(args: argparse.Namespace, columns: Sequence[str]) -> tuple[NumericDomain, ...]:
    """One declared domain per column from ``--bounds`` pairs and ``--granularity`` or ``--bins``."""
    if len(args.bounds) != 2 * len(columns):
        raise ValueError(
            f"--bounds needs one LO HI pair per column: {len(columns)} columns, {len(args.bounds)} numbers"
        )
    pairs = zip(args.bounds[0::2], args.bounds[1::2], strict=True)
    units = declared_units(args, len(columns))
    return tuple(
        declared_grid(lo, hi, granularity=args.granularity, bins=args.bins, unit=unit)
        for (lo, hi), unit in zip(pairs, units, strict=True)
    )


def declared_units(args: argparse.Namespace, count: int) -> list[str]:
    """``--unit``: one unit for all ``count`` columns or one per column (none: no unit)."""
    units = getattr(args, "unit", None) or [""]
    if len(units) == 1:
        return units * count
    if len(units) != count:
        raise ValueError(f"--unit needs one unit for all columns or one per column: {count} columns")
    return list(units)


def public_sample(args: argparse.Namespace) -> PublicSample | None:
    if args.public is None:
        return None
    from dpgui.data.public import PublicSample  # pandas: only when a sample is given

    return PublicSample.from_file(args.public, getattr(args, "public_encoding", None))


def run_one_column(args: argparse.Namespace, kind: TaskKind) -> int:
    spec = TaskSpec(
        kind=kind,
        columns=(args.column,),
        domains=(declared_domain(args),),
        epsilon=args.epsilon,
        delta=args.delta,
        algorithm=args.algorithm,
        missing=MissingPolicy(MissingKind(args.missing), args.fill),
        public=public_sample(args),
    )
    return release(spec, args)


def spark_master(args: argparse.Namespace) -> str | None:
    """``--spark-master``, refused (exit 2) unless Spark reads the data: another engine would ignore it."""
    if args.spark_master is not None and args.table is None and args.engine != Engine.SPARK.value:
        raise ValueError(
            f"--spark-master {args.spark_master} is for the Spark engine: add --engine spark or leave it out"
        )
    return args.spark_master


class ScanProgress:
    """Prints the scanning engines' progress to stderr in steps of 10% (Ctrl-C cancels the scan)."""

    def __init__(self) -> None:
        self._shown = -1

    def __call__(self, fraction: float) -> None:
        step = int(fraction * 10)
        if step > self._shown:
            self._shown = step
            print(f"scanning the private data: {10 * step}%", file=sys.stderr)


class RunProgress:
    """Prints a long run's progress to stderr: the first step past each tenth, once the run has lasted
    ``after`` seconds, and the latest step whenever ``every`` seconds pass without a line (AIM's share of the
    budget can sit in one tenth for many rounds), so a quick release prints nothing more and a long one (AIM
    on a wide table) shows that it is working and how far it is. Steps carry DP outputs and public facts
    only (``Progress``)."""

    def __init__(
        self, after: float = 5.0, every: float = 30.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._clock = clock
        self._start = self._last = clock()
        self._after = after
        self._every = every
        self._shown = 0

    def __call__(self, step: Progress) -> None:
        now, tenth = self._clock(), int(step.fraction * 10)
        if now - self._start < self._after:
            return
        if tenth > self._shown or now - self._last >= self._every:
            self._shown, self._last = max(tenth, self._shown), now
            print(f"running: {10 * tenth}% ({step.message})", file=sys.stderr)


def release(spec: TaskSpec, args: argparse.Namespace) -> int:
    """Run ``spec`` on ``--data`` (or ``--table``) with the chosen ``--engine`` and export to ``--out``.

    Pre-flight first (``dpgui.cli.preflight``: nothing is charged when it refuses), then reserve, run, stage
    the outputs beside ``--out``, commit, and move them into place.
    """
    from dpgui.data.backends import open_aggregator  # pandas: only once a release runs

    spec = algorithm_flags.with_algorithm_flags(spec, args)
    preflight.before_opening(spec)
    opened = open_aggregator(
        args.data,
        args.engine,
        table=args.table,
        spark_master=spark_master(args),
        progress=ScanProgress(),
        encoding=args.encoding,
    )
    dataset = opened.dataset
    ledger = Ledger()
    out = preflight.before_charging(spec, opened, args, ledger)
    try:
        reviewed = review_gate.review_or_refuse(spec, dataset, ledger, args.accept_warnings)
    except BaseException:
        discard(out)  # refused (it does not fit, a public file is the private one): nothing left behind
        raise
    if reviewed is None:
        discard(out)  # the last step before the reservation: nothing is charged, nothing left behind
        return EXIT_USAGE
    stager = preflight.Stager(out)
    try:
        result = run_to_end(
            execute(
                spec,
                dataset,
                ledger,
                SecureRandom(),
                aggregator=opened.aggregator,
                engine_choice=opened.engine_choice,
                stage=stager,
                staging=out.describe(),
            ),
            RunProgress(),
        )
        assert stager.staged is not None  # execute stages before it returns
        exported = publish(out, stager.staged)
    except BaseException as error:
        if stager.staged is not None:
            if not isinstance(error, PublishFailed):  # which names the staging folder itself
                print(f"dpgui: the run is charged; its files are in {out.staging}", file=sys.stderr)
            raise
        discard(out)
        if stager.started:
            print(
                "dpgui: the run read the data and is charged, but its outputs could not be written; the "
                "ledger's commit line records it",
                file=sys.stderr,
            )
        raise
    print_csv_rows(result.table.rows)
    files = ", ".join(path.name for path in exported.files)
    print(f"released by {result.algorithm.name} at {result.cost}; files: {files}")
    print(
        format_state(dataset.name + result.algorithm.account(result.spec).named(), result.budget_after),
        file=sys.stderr,
    )
    return 0
