"""``dpgui release cdf|quantiles|histogram|synthetic``: the sanitization tasks (dpgui/tasks/sanitize.py)."""

from __future__ import annotations

import argparse

from dpgui.cli import release_cmd
from dpgui.data.domain import CategoricalDomain, declared_grid, parse_categories
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.tasks.spec import Domain, TaskKind, TaskSpec


def add_parsers(tasks: argparse._SubParsersAction) -> None:
    for kind in (TaskKind.CDF, TaskKind.QUANTILES, TaskKind.HISTOGRAM, TaskKind.SYNTHETIC):
        parser = tasks.add_parser(kind.value, help=kind.title)
        release_cmd.add_common_arguments(parser, kind)
        parser.add_argument("--column", required=True, help="the column")
        if kind is TaskKind.HISTOGRAM:
            _make_bounds_optional(parser)
            add_category_arguments(parser)
        parser.set_defaults(handler=lambda args, kind=kind: run_sanitize(args, kind))


def add_category_arguments(parser: argparse.ArgumentParser, prefix: str = "") -> None:
    """``--categories`` and ``--other``: a categorical column's declared domain."""
    parser.add_argument("--categories", help=f"{prefix}a categorical column's declared categories: a,b,c")
    parser.add_argument(
        "--other", action="store_true", help=f"{prefix}count undeclared categories as 'other'"
    )


def _make_bounds_optional(parser: argparse.ArgumentParser) -> None:
    """A categorical histogram declares categories instead of bounds (checked in ``histogram_domain``)."""
    for action in parser._actions:  # argparse has no public way to relax a shared required option
        if action.dest == "bounds":
            action.required = False


def histogram_domain(args: argparse.Namespace) -> Domain:
    """The column's declared domain: ``--categories`` (and ``--other``) or ``--bounds`` with a grid; the
    parsers of ``release histogram`` and ``plan`` both offer the two (``plan`` for a histogram only)."""
    categories = getattr(args, "categories", None)
    if categories is not None:
        if args.bounds is not None or args.bins is not None or args.granularity is not None:
            raise ValueError(
                "--categories declares a categorical column: drop --bounds, --bins and --granularity"
            )
        if args.unit is not None:
            raise ValueError("--unit is the unit of a numeric column's values: drop it with --categories")
        return CategoricalDomain(parse_categories(categories), other=args.other)
    if getattr(args, "other", False):
        raise ValueError("--other counts undeclared categories: it needs --categories, not --bounds")
    if args.bounds is None:
        raise ValueError(
            "declare --bounds LO HI for a numeric column (or --categories for a categorical one)"
        )
    lower, upper = args.bounds
    (unit,) = release_cmd.declared_units(args, 1)
    return declared_grid(lower, upper, granularity=args.granularity, bins=args.bins, unit=unit)


def run_sanitize(args: argparse.Namespace, kind: TaskKind) -> int:
    spec = TaskSpec(
        kind=kind,
        columns=(args.column,),
        domains=(histogram_domain(args),),
        epsilon=args.epsilon,
        delta=args.delta,
        algorithm=args.algorithm,
        missing=MissingPolicy(MissingKind(args.missing), args.fill),
        public=release_cmd.public_sample(args),
    )
    return release_cmd.release(spec, args)
