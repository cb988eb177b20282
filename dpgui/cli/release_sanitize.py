"""``dpgui release cdf|quantiles|histogram|synthetic``: the sanitization tasks (dpgui/tasks/sanitize.py)."""

from __future__ import annotations

import argparse

from dpgui.algorithms.approximate_quantiles import parse_quantiles
from dpgui.cli import release_cmd
from dpgui.data.domain import CategoricalDomain, declared_grid, parse_categories
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.tasks.spec import Domain, ParameterValue, TaskKind, TaskSpec


def add_parsers(tasks: argparse._SubParsersAction) -> None:
    for kind in (TaskKind.CDF, TaskKind.QUANTILES, TaskKind.HISTOGRAM, TaskKind.SYNTHETIC):
        parser = tasks.add_parser(kind.value, help=kind.title)
        release_cmd.add_common_arguments(parser, kind)
        parser.add_argument("--column", required=True, help="the column")
        if kind is not TaskKind.HISTOGRAM:
            parser.add_argument("--branching", type=int, default=0, help="tree branching (default 0: auto)")
        if kind is TaskKind.QUANTILES:
            parser.add_argument("--q", required=True, help="quantiles, comma-separated, e.g. 0.1,0.5,0.9")
        if kind is TaskKind.HISTOGRAM:
            _make_bounds_optional(parser)
            parser.add_argument("--categories", help="a categorical column's declared categories: a,b,c")
            parser.add_argument("--other", action="store_true", help="count undeclared categories as 'other'")
            parser.add_argument(
                "--normalise", action="store_true", help="also release fractions of the total"
            )
        if kind is TaskKind.SYNTHETIC:
            parser.add_argument(
                "--rows", type=int, required=True, help="number of synthetic records (public)"
            )
        parser.set_defaults(handler=lambda args, kind=kind: run_sanitize(args, kind))


def _make_bounds_optional(parser: argparse.ArgumentParser) -> None:
    """A categorical histogram declares categories instead of bounds; the check moves to ``_domain``."""
    for action in parser._actions:  # argparse has no public way to relax a shared required option
        if action.dest == "bounds":
            action.required = False


def _domain(args: argparse.Namespace) -> Domain:
    categories = getattr(args, "categories", None)
    if categories is not None:
        if args.bounds is not None or args.bins is not None or args.granularity is not None:
            raise ValueError(
                "--categories declares a categorical column: drop --bounds, --bins and --granularity"
            )
        return CategoricalDomain(parse_categories(categories), other=args.other)
    if args.bounds is None:
        raise ValueError(
            "declare --bounds LO HI for a numeric column (or --categories for a categorical one)"
        )
    lower, upper = args.bounds
    (unit,) = release_cmd.declared_units(args, 1)
    return declared_grid(lower, upper, granularity=args.granularity, bins=args.bins, unit=unit)


def _parameters(args: argparse.Namespace, kind: TaskKind) -> tuple[tuple[str, ParameterValue], ...]:
    parameters: tuple[tuple[str, ParameterValue], ...] = (("beta", args.beta),)
    if kind is not TaskKind.HISTOGRAM:
        parameters += (("branching", args.branching),)
    if kind is TaskKind.QUANTILES:
        parse_quantiles(args.q)  # a usage error (exit 2) before anything else
        parameters += (("q", args.q),)
    if kind is TaskKind.HISTOGRAM:
        parameters += (("normalise", args.normalise),)
    if kind is TaskKind.SYNTHETIC:
        if args.rows < 1:
            raise ValueError("--rows must be >= 1")
        parameters += (("rows", args.rows),)
    return parameters


def run_sanitize(args: argparse.Namespace, kind: TaskKind) -> int:
    spec = TaskSpec(
        kind=kind,
        columns=(args.column,),
        domains=(_domain(args),),
        epsilon=args.epsilon,
        delta=args.delta,
        algorithm=args.algorithm,
        missing=MissingPolicy(MissingKind(args.missing), args.fill),
        parameters=_parameters(args, kind),
        public=release_cmd.public_sample(args),
    )
    return release_cmd.release(spec, args)
