"""``dpgui query distance``: answer distance queries from a released structure (no data, no budget).

``distance`` is in normalised units (each column's declared range mapped to [0, 1]);
``distance_in_data_units``, when the structure can give it exactly, is the same answer in the columns' units.
"""

from __future__ import annotations

import argparse

import numpy as np

from dpgui.algorithms.distance.cdf_route import DATA_UNITS_COLUMN, DistanceStructure
from dpgui.cli import arguments
from dpgui.cli.stdout import print_csv_rows
from dpgui.tasks.distance import load_queries


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("query", help="answer queries from a released structure (post-processing)")
    kinds = parser.add_subparsers(dest="kind", metavar="KIND", required=True)
    distance = kinds.add_parser("distance", help="average distance from points to the released records")
    distance.add_argument(
        "--release", required=True, type=arguments.given_path, help="a release folder or structure file"
    )
    points = distance.add_mutually_exclusive_group(required=True)
    points.add_argument("--point", help="one query point, comma-separated coordinates")
    points.add_argument(
        "--queries", type=arguments.given_path, help="CSV of query points (columns named as the release)"
    )
    distance.set_defaults(handler=run_query_distance)


def _coordinates(text: str) -> list[float]:
    try:
        return [float(x) for x in text.split(",")]
    except ValueError:
        raise ValueError(
            f"--point takes comma-separated numbers, one per column (e.g. 12,10), got {text!r}"
        ) from None


def run_query_distance(args: argparse.Namespace) -> int:
    structure = DistanceStructure.load(args.release)
    if args.point is not None:
        queries = np.array([_coordinates(args.point)])
    else:
        queries = load_queries(args.queries, structure.columns)
    answers = [structure.answer(queries)]
    header = [*structure.columns, "distance"]
    if structure.in_data_units:  # exact post-processing: the same answers in the columns' own units
        answers.append(structure.answer_in_data_units(queries))
        header.append(DATA_UNITS_COLUMN)
    rows = (
        [*(float(x) for x in query), *(float(a) for a in answer)]
        for query, *answer in zip(queries, *answers, strict=True)
    )
    print_csv_rows([header, *rows])
    return 0
