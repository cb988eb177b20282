"""The distance task: registration, auto, preconditions, and a run through the runner and the CLI."""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.distance.cdf_route import STRUCTURE_FILE, DistanceStructure, uniform_scale
from dpgui.cli import main
from dpgui.data.domain import NumericDomain
from dpgui.planner.plan import plan
from dpgui.tasks.distance import NO_QUERIES_MEANING
from dpgui.tasks.registry import Guarantee, algorithms, get_algorithm
from dpgui.tasks.runner import PreconditionFailed, choose_auto, prepare
from dpgui.tasks.spec import TaskKind, TaskSpec

NAMES = {
    "cdf-route",
    "huang-roth-offline",
    "huang-roth-online",
    "bourgain",
    "laplace-per-query",
    "gaussian-per-query",
}


def spec(queries: str = "", **extra) -> TaskSpec:
    parameters = {"queries": queries, **extra}
    return TaskSpec(
        TaskKind.DISTANCE, ("a", "b"), (NumericDomain(0, 10, 1), NumericDomain(0, 1, 0.001)), 1.0, 1e-6,
        parameters=tuple(parameters.items()),
    )  # fmt: skip


def test_every_distance_algorithm_is_registered_with_its_paper():
    infos = {info.name: info for info in algorithms(TaskKind.DISTANCE)}
    assert set(infos) == NAMES
    assert all(info.paper and info.section for info in infos.values())


def test_auto_prefers_the_cdf_route_for_many_queries_and_needs_queries_for_bourgain():
    chosen, _ = choose_auto(spec(query_count=1000), 10_000)
    assert chosen.name == "cdf-route"
    with pytest.raises(PreconditionFailed, match="public queries"):
        prepare(spec().with_algorithm("bourgain"), 100)
    with pytest.raises(PreconditionFailed, match="l1"):
        prepare(spec(metric="linf").with_algorithm("cdf-route"), 100)


def test_an_unreadable_queries_file_is_a_precondition_failure_and_the_plan_still_forms(tmp_path):
    missing = spec(str(tmp_path / "missing.csv"))
    rows = plan(missing, 10_000)
    assert not any(row.feasible for row in rows)
    assert all("cannot read the queries file" in row.reason for row in rows)
    with pytest.raises(PreconditionFailed, match="cannot read the queries file"):
        prepare(missing.with_algorithm("huang-roth-online"), 100)
    (tmp_path / "queries.csv").write_text("a,b\n1,0.5\n")
    readable = spec(str(tmp_path / "queries.csv")).with_algorithm("huang-roth-online")
    assert prepare(readable, 100).algorithm.name == "huang-roth-online"  # control: a readable file runs


def _budgeted_data(tmp_path, seed: int) -> Path:
    """300 rows of a (whole numbers 0 to 10) and b (in [0, 1)), with a total budget of ε 10, δ 1e-5."""
    g = np.random.default_rng(seed)
    data = tmp_path / "d.csv"
    pd.DataFrame({"a": g.integers(0, 11, 300), "b": g.random(300)}).to_csv(data, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10", "--delta", "1e-5"]) == 0
    return data


def test_cli_release_writes_the_structure_and_query_answers_it_without_data(tmp_path, capsys):
    g = np.random.default_rng(0)
    data = tmp_path / "d.csv"
    pd.DataFrame({"a": g.integers(0, 11, 300), "b": g.random(300)}).to_csv(data, index=False)
    queries = tmp_path / "q.csv"
    pd.DataFrame({"a": [0.0, 5.0, 12.0], "b": [0.5, 0.1, -1.0]}).to_csv(queries, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10", "--delta", "1e-5"]) == 0
    out = tmp_path / "out"
    arguments = ["--columns", "a,b", "--bounds", "0", "10", "0", "1", "--epsilon", "1", "--delta", "1e-6"]
    arguments += ["--algorithm", "cdf-route", "--queries", str(queries), "--out", str(out)]
    code = main(["release", "distance", "--data", str(data), *arguments])
    assert code == 0
    assert (out / STRUCTURE_FILE).exists() and (out / "release.csv").exists()
    outputs = json.loads((out / "manifest.json").read_text())["outputs"]
    digest = hashlib.sha256((out / STRUCTURE_FILE).read_bytes()).hexdigest()
    assert {"file": STRUCTURE_FILE, "sha256": digest} in outputs
    released = pd.read_csv(out / "release.csv")
    assert list(released.columns) == ["a", "b", "distance", "distance_in_data_units"] and len(released) == 3
    capsys.readouterr()
    assert main(["query", "distance", "--release", str(out), "--queries", str(queries)]) == 0
    header, *lines = capsys.readouterr().out.strip().splitlines()
    assert header == "a,b,distance,distance_in_data_units"  # l1: exact in the columns' units too
    answered = np.array([[float(x) for x in line.split(",")[-2:]] for line in lines])
    assert np.allclose(answered, released[["distance", "distance_in_data_units"]], rtol=0, atol=1e-12)
    structure = DistanceStructure.load(out)
    assert np.allclose(answered[:, 1], structure.answer_in_data_units(pd.read_csv(queries).to_numpy()))
    assert "noise" in structure.metadata and "counts" not in structure.to_json()


def test_a_structure_released_without_queries_says_its_table_has_no_rows_and_how_to_ask(tmp_path):
    """Docs audit, session 34: without --queries release.csv held the header alone, which read as an empty
    release; its first line now says the structure answers any query, and with what."""
    data = _budgeted_data(tmp_path, seed=0)
    out = tmp_path / "out"
    arguments = ["--columns", "a,b", "--bounds", "0", "10", "0", "1", "--epsilon", "1", "--delta", "1e-6"]
    assert main(["release", "distance", "--data", str(data), *arguments, "--out", str(out)]) == 0
    first, header, *rows = (out / "release.csv").read_text(encoding="utf-8").splitlines()
    assert first == f"# {NO_QUERIES_MEANING}" and STRUCTURE_FILE in first
    assert header == "a,b,distance" and not rows
    assert json.loads((out / "manifest.json").read_text())["meaning"] == NO_QUERIES_MEANING


def test_a_structure_without_queries_says_the_explorer_answers_in_the_columns_units_too(tmp_path):
    """GUI audit: the notes said "answers in normalised units" while the explorer answered 951 in the
    columns' units; the note now says both."""
    data = _budgeted_data(tmp_path, seed=0)
    out = tmp_path / "out"
    arguments = ["--columns", "a,b", "--bounds", "0", "10", "0", "10", "--epsilon", "1", "--delta", "1e-6"]
    assert main(["release", "distance", "--data", str(data), *arguments, "--out", str(out)]) == 0
    notes = json.loads((out / "manifest.json").read_text())["notes"]
    assert DistanceStructure.load(out).in_data_units
    assert any("explorer also give each answer in the columns' own units" in note for note in notes)


def test_huang_roth_online_releases_one_row_per_answered_query_in_order(tmp_path):
    g = np.random.default_rng(1)
    data = tmp_path / "d.csv"
    pd.DataFrame({"a": g.integers(0, 11, 200), "b": g.random(200)}).to_csv(data, index=False)
    queries = tmp_path / "q.csv"
    frame = pd.DataFrame({"a": [0.0, 5.0, 12.0, 3.0], "b": [0.5, 0.1, -1.0, 0.9]})
    frame.to_csv(queries, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10", "--delta", "1e-5"]) == 0
    out = tmp_path / "out"
    arguments = ["--columns", "a,b", "--bounds", "0", "10", "0", "1", "--epsilon", "1", "--delta", "1e-6"]
    arguments += ["--algorithm", "huang-roth-online", "--queries", str(queries), "--out", str(out)]
    arguments += ["--accept-warnings"]  # an 11-point grid and no useful accuracy at n = 200
    assert main(["release", "distance", "--data", str(data), *arguments]) == 0
    released = pd.read_csv(out / "release.csv")
    assert list(released.columns) == ["a", "b", "distance"] and len(released) == 4
    assert np.array_equal(released[["a", "b"]].to_numpy(), frame.to_numpy())
    assert not (out / STRUCTURE_FILE).exists()
    with pytest.raises(PreconditionFailed, match="public queries"):
        prepare(spec().with_algorithm("huang-roth-online"), 100)


def test_cli_bins_declare_the_distance_grid_and_its_cdf_route_support(tmp_path):
    data = _budgeted_data(tmp_path, seed=2)
    out = tmp_path / "out"
    arguments = ["--columns", "a,b", "--bounds", "0", "10", "0", "1", "--bins", "10", "--epsilon", "1"]
    arguments += ["--delta", "1e-6", "--algorithm", "cdf-route", "--out", str(out), "--accept-warnings"]
    assert main(["release", "distance", "--data", str(data), *arguments]) == 0
    parameters = json.loads((out / "manifest.json").read_text())["parameters"]
    assert parameters["domains"]["a"]["grid_points"] == parameters["domains"]["b"]["grid_points"] == 11
    assert parameters["algorithm_parameters"]["support"] == 11


@pytest.mark.parametrize("name", ["cdf-route", "huang-roth-offline", "huang-roth-online", "bourgain"])
def test_distance_algorithms_under_zcdp_are_not_badged_pure(name):
    info = get_algorithm(name)
    approximate, pure = (
        spec().with_algorithm(name),
        dataclasses.replace(spec(), delta=0.0).with_algorithm(name),
    )
    assert info.guarantee_for(approximate) is Guarantee.APPROXIMATE
    assert info.guarantee_for(pure) is Guarantee.PURE
    assert info.guarantee.badge == "pure/zCDP"


def test_cli_distance_uses_the_public_sample_it_is_given(tmp_path, capsys):
    """Issue 18: --public is used, never silently ignored: checked against the declared box before the
    charge (a sample mostly outside the bounds is refused unless accepted) and named in the manifest."""
    g = np.random.default_rng(2)
    data, public = tmp_path / "d.csv", tmp_path / "p.csv"
    pd.DataFrame({"a": g.integers(0, 11, 300), "b": g.random(300)}).to_csv(data, index=False)
    pd.DataFrame({"a": g.integers(50, 60, 100), "b": g.random(100) + 5}).to_csv(public, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    arguments = ["release", "distance", "--data", str(data), "--columns", "a,b", "--bounds", "0", "10"]
    arguments += ["0", "1", "--epsilon", "1", "--algorithm", "cdf-route", "--public", str(public)]
    assert main([*arguments, "--out", str(tmp_path / "refused")]) == 2
    assert "outside" in capsys.readouterr().err
    out = tmp_path / "out"
    assert main([*arguments, "--accept-warnings", "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["parameters"]["public_sample"]["file_name"] == "p.csv"


@pytest.mark.parametrize(
    ("bounds", "in_units"), [(("0", "10", "0", "10"), True), (("0", "10", "0", "1"), False)]
)
def test_per_query_answers_are_in_data_units_too_when_every_column_has_the_same_range(
    tmp_path, bounds, in_units
):
    g = np.random.default_rng(2)
    data = tmp_path / "d.csv"
    pd.DataFrame({"a": g.integers(0, 11, 300), "b": g.random(300)}).to_csv(data, index=False)
    queries = tmp_path / "q.csv"
    pd.DataFrame({"a": [0.0, 5.0], "b": [0.5, 0.1]}).to_csv(queries, index=False)
    assert main(["budget", "set", "--data", str(data), "--epsilon", "10"]) == 0
    out = tmp_path / "out"
    arguments = ["--columns", "a,b", "--bounds", *bounds, "--epsilon", "1", "--metric", "l2"]
    arguments += ["--algorithm", "laplace-per-query", "--queries", str(queries), "--out", str(out)]
    assert main(["release", "distance", "--data", str(data), *arguments]) == 0
    released = pd.read_csv(out / "release.csv")
    assert ("distance_in_data_units" in released.columns) is in_units
    if in_units:  # l2 on a box of side 10 is 10 times l2 on the unit box
        assert np.allclose(released["distance_in_data_units"], 10 * released["distance"], rtol=1e-12)


def test_a_normalised_distance_has_one_scale_only_for_equal_ranges_and_a_homogeneous_metric():
    lower, upper = np.array([0.0, 10.0]), np.array([40.0, 50.0])
    assert uniform_scale(lower, upper, "l2") == 40.0 and uniform_scale(lower, upper, "l1") == 40.0
    assert uniform_scale(lower, upper, "hamming") is None  # counts differing coordinates: no unit
    assert uniform_scale(lower, np.array([40.0, 51.0]), "l1") is None


def test_distance_columns_are_read_as_one_csv_line():
    """--columns a,b; a name holding a comma is quoted, as in the CSV header it comes from."""
    from dpgui.cli.arguments import column_list

    assert column_list("a,b") == ("a", "b")
    assert column_list('"pay, weekly", age') == ("pay, weekly", "age")
    with pytest.raises(argparse.ArgumentTypeError, match="no column named"):
        column_list(" , ")
