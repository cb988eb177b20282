"""Pins found by planting errors in the command line (tools/planted_errors.py, session 29).

The rectangle test's bounds held both features' values, so the features paired with each other's bounds
passed; the query tests read a structure over [0, 1]^2 from a file, so ``--point`` read in reverse and
the answer in data units given in normalised units passed; no test read the file an OS error names.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import numpy as np
import pytest

from dpgui.algorithms.distance.cdf_route import STRUCTURE_FILE, PrivacyBudget, support_points
from dpgui.cli import main
from dpgui.cli.errors import describe_os_error
from tests.algorithms.distance.test_cdf_route import structure
from tests.cli.test_release_rectangle import boxes_csv, release_rectangle  # noqa: F401 (a fixture)


def test_each_rectangle_feature_is_declared_with_its_own_bounds(boxes_csv: Path, tmp_path: Path) -> None:  # noqa: F811
    assert main(["budget", "set", "--data", str(boxes_csv), "--epsilon", "5"]) == 0
    assert release_rectangle(boxes_csv, tmp_path / "out", "0", "99", "0", "49") == 0
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text(encoding="utf-8"))
    domains = manifest["parameters"]["domains"]
    assert (domains["a"]["upper"], domains["b"]["upper"]) == (99.0, 49.0)


@pytest.fixture
def released(tmp_path: Path):
    """A structure over c0 in [0, 10] and c1 in [0, 100] (l1: answers exist in the columns' units)."""
    supports = [support_points(np.linspace(0, 1, 11), 16)] * 2
    unit = structure(np.array([[0.1, 0.2], [0.5, 0.9]]), supports, PrivacyBudget(1e9))
    scaled = dataclasses.replace(unit, upper=np.array([10.0, 100.0]))
    (tmp_path / STRUCTURE_FILE).write_text(json.dumps(scaled.to_json()), encoding="utf-8")
    return scaled


def test_a_query_point_is_answered_in_the_order_of_the_columns(released, tmp_path: Path, capsys) -> None:
    assert main(["query", "distance", "--release", str(tmp_path), "--point", "1,90"]) == 0
    header, row = capsys.readouterr().out.splitlines()
    assert header == "c0,c1,distance,distance_in_data_units"
    c0, c1, distance, in_units = (float(x) for x in row.split(","))
    point = np.array([[1.0, 90.0]])
    assert (c0, c1) == (1.0, 90.0)
    assert distance == pytest.approx(released.answer(point)[0])
    assert in_units == pytest.approx(released.answer_in_data_units(point)[0])
    assert in_units != pytest.approx(distance)


def test_a_file_error_names_the_file() -> None:
    error = FileNotFoundError(2, "No such file or directory", "wages.csv")
    assert describe_os_error(error) == "wages.csv: No such file or directory"
