"""``dpgui release table``: a DP synthetic version of the whole table (issue 16, dpgui/tasks/table.py).

DOMAINS.json maps each released column, in the file's key order, to its public domain:
``{"lower": a, "upper": b, "bins": m}`` or ``{"lower": a, "upper": b, "granularity": g}`` for a numeric
column (with an optional ``"unit": "USD"`` for plots and the manifest), ``{"categories": [...]}`` for a
categorical one (values outside the list count as "other"; a declared "other" names that cell). Missing
values are kept by default (``--missing keep``: a "missing" cell per column, blank in the synthetic rows);
``--missing impute`` replaces them as the one-column tasks do.
Writes synthetic.csv and synthetic.parquet beside release.csv (what was measured), the report and the
manifest.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from dpgui.cli import release_cmd
from dpgui.data.domain import OTHER, CategoricalDomain, declared_grid
from dpgui.data.errors import DataError
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.tasks.spec import Domain, TaskKind, TaskSpec

GRID_FLAGS = ("--bounds", "--granularity", "--bins", "--unit")
"""The one-column grid flags, which a table takes from DOMAINS.json instead."""


def add_parsers(tasks: argparse._SubParsersAction) -> None:
    parser = tasks.add_parser(TaskKind.TABLE.value, help=TaskKind.TABLE.title, conflict_handler="resolve")
    release_cmd.add_common_arguments(parser, TaskKind.TABLE)
    for flag in GRID_FLAGS:  # declared per column in DOMAINS.json; given here, they are refused
        parser.add_argument(flag, nargs="*", help=argparse.SUPPRESS)
    parser.add_argument(
        "--domains", required=True, type=Path, help="JSON: each column to its declared (public) domain"
    )
    parser.set_defaults(handler=run_table)


def _domain(column: str, entry: Any) -> Domain:
    if not isinstance(entry, dict):
        raise DataError(f'domain of {column!r}: expected an object such as {{"lower": 0, "upper": 10}}')
    if "categories" in entry:
        categories = entry["categories"]
        if not isinstance(categories, list) or not categories:
            raise DataError(f'domain of {column!r}: "categories" must be a non-empty list')
        # every table column has the catch-all "other" cell: a declared "other" names it, not a category
        named = tuple(str(c) for c in categories if str(c) != OTHER)
        if not named:
            raise DataError(f'domain of {column!r}: "categories" lists no category besides "{OTHER}"')
        return CategoricalDomain(named, other=True)
    unknown = set(entry) - {"lower", "upper", "bins", "granularity", "unit"}
    if unknown or not {"lower", "upper"} <= set(entry):
        raise DataError(
            f'domain of {column!r}: give "lower", "upper" and "bins" or "granularity", optionally "unit" '
            f'(or "categories"); got {sorted(entry)}'
        )
    return declared_grid(
        float(entry["lower"]),
        float(entry["upper"]),
        granularity=entry.get("granularity"),
        bins=entry.get("bins"),
        unit=entry.get("unit", ""),
    )


def read_domains(path: Path) -> tuple[tuple[str, ...], tuple[Domain, ...]]:
    """Columns (in the file's key order) and their declared domains from DOMAINS.json."""
    try:
        declared = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise DataError(f"{path}: cannot read the domains ({error})") from error
    if not isinstance(declared, dict) or not declared:
        raise DataError(f"{path}: expected an object mapping each column to its domain")
    return tuple(declared), tuple(_domain(column, entry) for column, entry in declared.items())


def run_table(args: argparse.Namespace) -> int:
    given = [flag for flag in GRID_FLAGS if getattr(args, flag.removeprefix("--")) is not None]
    if given:
        raise ValueError(
            f"{', '.join(given)}: a table declares each column's bounds, bins or granularity and unit in "
            "--domains DOMAINS.json"
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
    )
    return release_cmd.release(spec, args)
