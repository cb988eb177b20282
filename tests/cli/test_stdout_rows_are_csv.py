"""Rows printed to stdout parse as CSV: a name holding a comma or a quote is quoted (CLI fuzz, session 36)."""

from __future__ import annotations

import csv
import dataclasses
import io

import numpy as np

from dpgui.algorithms.distance.cdf_route import STRUCTURE_FILE, PrivacyBudget, support_points
from dpgui.cli.main import main
from dpgui.cli.stdout import print_csv_rows
from tests.algorithms.distance.test_cdf_route import structure


def test_cells_with_commas_quotes_and_line_breaks_round_trip(capsys):
    rows = [["wage, weekly", 'say "hi"', "two\nlines"], [0.1, 3, np.float64(2.5)]]
    print_csv_rows(rows)
    parsed = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert parsed == [["wage, weekly", 'say "hi"', "two\nlines"], ["0.1", "3", "2.5"]]


def test_query_distance_quotes_a_column_name_with_a_comma(tmp_path, capsys):
    points = np.random.default_rng(3).random((100, 2))
    released = structure(points, [support_points(None, 8)] * 2, PrivacyBudget(1.0))
    released = dataclasses.replace(released, columns=("wage, weekly", "age"))
    (tmp_path / STRUCTURE_FILE).write_bytes(released.to_bytes())
    assert main(["query", "distance", "--release", str(tmp_path), "--point", "0.25,0.75"]) == 0
    header, row = list(csv.reader(io.StringIO(capsys.readouterr().out)))
    assert header[:2] == ["wage, weekly", "age"] and [float(x) for x in row[:2]] == [0.25, 0.75]
