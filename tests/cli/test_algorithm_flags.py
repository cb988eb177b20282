"""One registry drives the CLI too: every algorithm parameter is a release flag, checked in the core."""

from __future__ import annotations

import argparse
import json

from dpgui.cli import main
from dpgui.cli.algorithm_flags import DEST_PREFIX, flag_of, task_parameters
from dpgui.cli.main import build_parser
from dpgui.tasks.registry import algorithms
from dpgui.tasks.spec import TaskKind
from dpgui.ui.parameter_form import ParameterForm, _value


def release_parsers() -> dict[str, argparse.ArgumentParser]:
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    release = commands.choices["release"]
    tasks = next(a for a in release._actions if isinstance(a, argparse._SubParsersAction))
    return tasks.choices


def test_every_parameter_of_every_algorithm_is_a_flag_and_a_form_field_with_its_default(qtbot):
    """Walks the registry: the flag exists on the task's release parser; the form's field starts at the
    spec's default (a generated flag's None stands for that same default)."""
    parsers = release_parsers()
    form = ParameterForm()
    qtbot.addWidget(form)
    for kind in TaskKind:
        options = {o for action in parsers[kind.value]._actions for o in action.option_strings}
        for info in algorithms(kind):
            form.set_parameters(info.parameters)
            for spec in info.parameters:
                assert flag_of(spec.name) in options, (kind.value, info.name, spec.name)
                assert _value(form.editors[spec.name], spec.kind) == spec.default, (info.name, spec.name)


def cdf(wages_csv, tmp_path, *extra: str) -> int:
    return main(
        ["release", "cdf", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "20000",
         "--bins", "1024", "--epsilon", "1", "--out", str(tmp_path / "out"), *extra]
    )  # fmt: skip


def test_a_generated_flag_reaches_the_release_and_its_manifest(wages_csv, tmp_path, capsys):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    assert cdf(wages_csv, tmp_path, "--algorithm", "privtree", "--tree-share", "0.3") == 0
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["parameters"]["algorithm_parameters"]["tree_share"] == 0.3


def test_a_flag_the_chosen_algorithm_does_not_take_is_refused_before_any_charge(wages_csv, tmp_path, capsys):
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    capsys.readouterr()
    assert cdf(wages_csv, tmp_path, "--algorithm", "tree-laplace", "--tree-share", "0.3") == 2
    assert "tree-laplace does not take --tree-share" in capsys.readouterr().err
    assert cdf(wages_csv, tmp_path, "--algorithm", "privtree", "--tree-share", "1.5") == 2  # range: the core
    assert "tree_share" in capsys.readouterr().err
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    assert "remaining ε=5" in capsys.readouterr().out


def _plan_parser() -> argparse.ArgumentParser:
    commands = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return commands.choices["plan"]


def test_no_parser_writes_a_parameter_flag_by_hand():
    """Every registry parameter's flag, on every release parser and on plan, is the generated one (its
    value lands in ``parameter_<name>``)."""
    parsers = {**release_parsers(), "plan": _plan_parser()}
    for name, parser in parsers.items():
        if name == "batch":
            continue
        flags = {o: action.dest for action in parser._actions for o in action.option_strings}
        kinds = list(TaskKind) if name == "plan" else [TaskKind(name)]
        for spec in task_parameters(kinds).values():
            flag = flag_of(spec.name)
            assert flags.get(flag) == DEST_PREFIX + spec.name, (name, flag, flags.get(flag))


def test_plan_takes_the_release_flags_and_checks_them_in_the_core(capsys):
    base = ["plan", "cdf", "--n", "28155", "--bounds", "0", "20000", "--epsilon", "1", "--json"]
    assert main(base) == 0
    default = json.loads(capsys.readouterr().out)["algorithms"]
    assert main([*base, "--branching", "64"]) == 0
    wide = json.loads(capsys.readouterr().out)["algorithms"]
    error = {row["algorithm"]: row["predicted_error"] for row in default}
    assert any(row["predicted_error"] != error[row["algorithm"]] for row in wide)
    quantiles = ["plan", "quantiles", "--n", "1000", "--bounds", "0", "20", "--epsilon", "1"]
    assert main([*quantiles, "--q", "0.5,2"]) == 2
    assert "every quantile must lie in [0, 1]" in capsys.readouterr().err


def test_a_flag_auto_would_not_use_is_refused_before_any_charge(wages_csv, tmp_path, capsys):
    """Without a public sample auto cannot choose pap, the only CDF algorithm taking --max-cells: the
    release went ahead without it, as if the flag had not been given."""
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    capsys.readouterr()
    assert cdf(wages_csv, tmp_path, "--max-cells", "64") == 2
    assert "which does not take --max-cells: give --algorithm pap to use it" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    assert "remaining ε=5" in capsys.readouterr().out
    assert cdf(wages_csv, tmp_path, "--branching", "4") == 0  # taken by whichever tree auto chooses


def test_plan_refuses_a_flag_no_algorithm_of_the_task_takes(capsys):
    """``dpgui plan`` has every task's flags; one of another task's algorithms was silently ignored."""
    plan = ["plan", "cdf", "--n", "1000", "--bounds", "0", "100", "--epsilon", "1"]
    assert main([*plan, "--k", "3"]) == 2
    assert "no cdf algorithm takes --k" in capsys.readouterr().err
    assert main([*plan, "--tree-share", "0.4"]) == 0


def distance(tmp_path, *extra: str) -> int:
    data = tmp_path / "points.csv"
    data.write_text("a,b\n" + "".join(f"{i % 10},{i % 7}\n" for i in range(200)))
    assert main(["budget", "set", "--data", str(data), "--epsilon", "5"]) == 0
    return main(
        ["release", "distance", "--data", str(data), "--columns", "a,b", "--bounds", "0", "10", "0", "10",
         "--epsilon", "1", "--accept-warnings", "--out", str(tmp_path / "out"), *extra]
    )  # fmt: skip


def test_the_distance_support_is_refused_by_an_algorithm_without_one(tmp_path, capsys):
    """--support was passed as the support parameter whatever the algorithm, so the per-query baselines
    and the Huang-Roth structures silently went without it."""
    assert distance(tmp_path, "--algorithm", "huang-roth-offline", "--support", "10") == 2
    assert "huang-roth-offline does not take --support" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_the_largest_grid_by_bins_gives_the_largest_support(tmp_path, capsys):
    """--bins 65536 declares 65,537 grid points: the support it implies was refused as 'must be in
    [2, 65,536], got 65,537', a value the user never typed; it is now the largest support."""
    assert distance(tmp_path, "--algorithm", "cdf-route", "--bins", "65536") == 0
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert manifest["parameters"]["algorithm_parameters"]["support"] == 65536
