"""``dpgui plan TASK``: predicted accuracy and sample size for every algorithm, before any release."""

from __future__ import annotations

import argparse
import dataclasses

from dpgui.cli import arguments
from dpgui.cli.algorithm_flags import add_algorithm_flags, flag_of, given_parameters, with_algorithm_flags
from dpgui.cli.batch_cmd import run_plan_batch
from dpgui.cli.release_cmd import add_grid_arguments, declared_domain, public_sample
from dpgui.cli.release_sanitize import add_category_arguments, histogram_domain
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.json_text import json_text
from dpgui.planner.floors import floors
from dpgui.planner.plan import EPSILON_RANGE, check_plan_inputs, plan
from dpgui.tasks.preflight import check_parameters
from dpgui.tasks.spec import LABELLED_KINDS, TaskKind, TaskSpec, default_missing

BATCH = "batch"
PLANNED_COLUMN = "x"
"""The planned column's name unless --column is given (only a public sample reads it)."""
ONE_COLUMN_FLAGS = ("bounds", "granularity", "bins", "unit", "public", "column", "categories")
"""The flags of a one-column plan; a table's DOMAINS.json declares its columns instead."""
UNUSED_FLAGS = {
    BATCH: (*ONE_COLUMN_FLAGS, "domains", "missing", "epsilon", "target_error"),
    TaskKind.TABLE.value: ONE_COLUMN_FLAGS,
    TaskKind.HISTOGRAM.value: ("domains", "missing"),
}
"""The flags each kind of plan does not read (every other task: --domains, --missing and --categories,
which only a histogram's column declares)."""


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("plan", help="predicted error and minimum n per algorithm (reads no data)")
    parser.add_argument(
        "task",
        choices=[kind.value for kind in TaskKind] + [BATCH],
        help="the task to plan, or 'batch' for a release plan file",
    )
    parser.add_argument(
        "plan_file",
        nargs="?",
        type=arguments.given_path,
        metavar="PLAN.toml",
        help="with 'batch': the release plan",
    )
    parser.add_argument(
        "--n", required=True, type=arguments.record_count, help="number of records (public; 28155 or 1e9)"
    )
    parser.add_argument(
        "--bounds",
        nargs=2,
        type=float,
        metavar=("LO", "HI"),
        help="required for a task (except table, and a histogram of --categories)",
    )
    parser.add_argument(
        "--domains", type=arguments.given_path, help="table: JSON of each column's declared domain"
    )
    parser.add_argument(
        "--missing",
        choices=[kind.value for kind in MissingKind],
        help="table: missing values kept as a cell of their own (default, as release table), imputed or "
        "refused; a kept cell is one more per column, so it changes the predicted error",
    )
    add_grid_arguments(parser)
    add_category_arguments(parser, prefix="histogram: ")
    parser.add_argument("--epsilon", type=float, help="required for a task")
    parser.add_argument("--delta", type=float, default=0.0, help="delta of the planned release (default 0)")
    parser.add_argument("--target-error", type=float, help="report the n and epsilon this error needs")
    parser.add_argument("--public", help="optional public sample (for public-data-assisted algorithms)")
    arguments.add_encoding_argument(parser, public=True)
    parser.add_argument(
        "--column", help=f"the column's name, as the --public sample names it (default {PLANNED_COLUMN})"
    )
    parser.add_argument("--json", action="store_true", help="machine-readable output")
    parser.add_argument(
        "--shapes", action="store_true", help="also show asymptotic floors (constant unknown)"
    )
    add_algorithm_flags(parser, TaskKind)  # the release flags, from the same registry
    parser.set_defaults(handler=run, parser=parser)


def _table_spec(args: argparse.Namespace) -> TaskSpec:
    """The synthetic-table spec of ``--domains`` (every column of the file, as ``release table``)."""
    from dpgui.data.domains_file import read_domains

    columns, domains = read_domains(args.domains)
    chosen = None if args.missing is None else MissingPolicy(MissingKind(args.missing))
    missing = default_missing(TaskKind.TABLE) if chosen is None else chosen
    return TaskSpec(
        kind=TaskKind.TABLE,
        columns=columns,
        domains=domains,
        epsilon=args.epsilon,
        delta=args.delta,
        missing=missing,
    )


def _refuse_unused_flags(args: argparse.Namespace) -> None:
    """ValueError for a flag the plan would not read: a one-column flag for a table, --domains for a
    one-column task, a task's flags for a release plan file (which declares them per release)."""
    unused = UNUSED_FLAGS.get(args.task, ("domains", "missing", "categories"))
    given = [flag_of(name) for name in unused if getattr(args, name) is not None]
    given += ["--other"] * (args.other and args.task != TaskKind.HISTOGRAM.value)
    if args.task == BATCH:
        given += ["--delta"] * (args.delta != 0) + ["--shapes"] * args.shapes
        given += [flag_of(name) for name in given_parameters(args)]
    if given:
        raise ValueError(f"plan {args.task} does not take {', '.join(given)}; leave it out")


def run(args: argparse.Namespace) -> int:
    if args.task == BATCH:
        if args.plan_file is None:
            args.parser.error("plan batch needs the plan file: dpgui plan batch PLAN.toml --n N")
        _refuse_unused_flags(args)
        return run_plan_batch(args)
    _refuse_unused_flags(args)
    table = args.task == TaskKind.TABLE.value
    needed = []
    if table:
        needed.append(("--domains", args.domains))
    elif args.categories is None:  # a histogram of --categories needs no bounds (the others refuse it)
        needed.append(("--bounds", args.bounds))
    needed.append(("--epsilon", args.epsilon))
    missing = [flag for flag, value in needed if value is None]
    if missing or args.plan_file is not None:
        args.parser.error(
            f"the following arguments are required: {', '.join(missing)}"
            if missing
            else "unexpected PLAN.toml"
        )
    check_plan_inputs(args.n, args.target_error)
    spec = (
        _table_spec(args)
        if table
        else TaskSpec(
            kind=TaskKind(args.task),
            columns=(args.column or PLANNED_COLUMN,),
            domains=(
                histogram_domain(args) if args.task == TaskKind.HISTOGRAM.value else declared_domain(args),
            ),
            epsilon=args.epsilon,
            delta=args.delta,
            public=public_sample(args),
            label="label" if TaskKind(args.task) in LABELLED_KINDS else None,
        )
    )
    spec = with_algorithm_flags(spec, args)
    check_parameters(spec)
    rows = plan(spec, args.n, args.target_error)
    lower = floors(spec, args.target_error, show_shapes=args.shapes)
    if args.json:
        document = {
            "algorithms": [dataclasses.asdict(row) for row in rows],
            "floors": [dataclasses.asdict(floor) | {"solidity": floor.solidity.value} for floor in lower],
        }
        print(json_text(document, indent=2))
        return 0
    if not rows:
        print(f"no algorithm is registered for {args.task} yet")
        return 0
    line = "{:<22}{:<9}{:>16}  {:<30}{:>10}  {:<9}{}"
    print(line.format("algorithm", "privacy", "predicted error", "unit", "min n", "feasible", "auto"))
    for row in rows:
        cells = (
            row.algorithm,
            "pure" if row.pure else "approx",
            f"{row.predicted_error:.4g}",
            row.error_unit,
            "—" if row.min_n is None else str(row.min_n),
            "yes" if row.feasible else "no",
            "←" if row.auto else "",
        )
        print(line.format(*cells))
        if args.target_error is not None:
            eps = row.epsilon_for_target
            reach = "unreachable at this n" if eps is None else f"{eps:.4g}"
            if eps is not None and eps <= EPSILON_RANGE[0] * (1 + 1e-6):  # fits at the smallest ε tried
                reach = f"any ε (the smallest planned, {EPSILON_RANGE[0]:g}, already meets it)"
            print(f"{'':<22}ε for the target error: {reach}")
        if row.reason:
            print(f"{'':<22}{row.reason}")
        for part in row.parts:
            print(f"{'':<22}{part.part}: {part.error:.4g} {part.unit} ({part.how})")
    for floor in lower:
        who = "public records" if floor.public else "records"
        print(f"floor: {floor.name}: at least {floor.records:.4g} {who}")
        print(f"{'':<7}({floor.solidity.value}; {floor.source})")
    return 0
