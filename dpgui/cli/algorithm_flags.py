"""CLI flags generated from the algorithms' ``ParameterSpec`` registry, the source the app's forms use.

Every parameter an algorithm of a task takes gets a ``--name`` flag on that task's ``release`` parser and on
``dpgui plan`` (its type, choices and help from the spec; its range is checked in the core by
``check_parameters``, before any charge). The parsers write no parameter flag by hand. A flag given for a
parameter the chosen algorithm does not take is refused (exit 2), never silently ignored; so is a flag beside
the file flag whose rows set its value (``--query-count`` with ``--queries``).
"""

from __future__ import annotations

import argparse
import dataclasses
from collections.abc import Iterable

from dpgui.numbers import readable
from dpgui.tasks.registry import AlgorithmInfo, ParameterSpec, algorithms, get_algorithm, set_twice
from dpgui.tasks.spec import AUTO, ParameterValue, TaskKind, TaskSpec

DEST_PREFIX = "parameter_"
"""Namespace attribute of a generated flag's value (None when the flag is not given)."""


def flag_of(name: str) -> str:
    """The CLI flag of the parameter ``name`` (underscores become dashes)."""
    return "--" + name.replace("_", "-")


def task_parameters(kinds: TaskKind | Iterable[TaskKind]) -> dict[str, ParameterSpec]:
    """Every parameter any algorithm of ``kinds`` takes, by name (the first spec of a name)."""
    found: dict[str, ParameterSpec] = {}
    for kind in [kinds] if isinstance(kinds, TaskKind) else kinds:
        for info in algorithms(kind):
            for spec in info.parameters:
                found.setdefault(spec.name, spec)
    return found


def _help(spec: ParameterSpec) -> str:
    """The spec's help, its default (none for an empty one) and range written plainly (16,777,216, not
    1.67772e+07)."""
    bounds = "" if spec.minimum is None else f"; {readable(spec.minimum)} to {readable(spec.maximum)}"
    default = "none" if spec.default == "" else spec.default
    text = f"{spec.help.rstrip('.')} (default {default}{bounds}; only for the algorithms that take it)"
    return text.replace("%", "%%")  # argparse formats help with %


def add_algorithm_flags(parser: argparse.ArgumentParser, kinds: TaskKind | Iterable[TaskKind]) -> None:
    """Add a flag (``flag_of``) for every parameter of the algorithms of ``kinds`` that ``parser``
    lacks, the first declaration of each name."""
    present = {option for action in parser._actions for option in action.option_strings}
    generated: list[str] = []
    for kind in [kinds] if isinstance(kinds, TaskKind) else kinds:
        for spec in task_parameters(kind).values():
            flag = flag_of(spec.name)
            if flag in present or spec.name in generated:
                continue
            options: dict[str, object] = {
                "dest": DEST_PREFIX + spec.name,
                "default": None,
                "help": _help(spec),
            }
            if spec.kind is bool:
                options["action"] = argparse.BooleanOptionalAction
            else:
                options |= {"metavar": flag.removeprefix("--").replace("-", "_").upper(), "type": spec.kind}
                if spec.choices:
                    options["choices"] = spec.choices
            parser.add_argument(flag, **options)  # type: ignore[arg-type]
            present.add(flag)
            generated.append(spec.name)
    parser.set_defaults(generated_parameters=tuple(generated))


def given_parameters(args: argparse.Namespace) -> dict[str, ParameterValue]:
    """The generated flags given on the command line, by parameter name."""
    return {
        name: value
        for name in getattr(args, "generated_parameters", ())
        if (value := getattr(args, DEST_PREFIX + name)) is not None
    }


def _flags(names: Iterable[str]) -> str:
    return ", ".join(flag_of(name) for name in sorted(names))


def with_algorithm_flags(spec: TaskSpec, args: argparse.Namespace) -> TaskSpec:
    """``spec`` with the generated flags' given values; ValueError (exit 2) for a flag the chosen algorithm
    does not take, or with ``auto`` that no algorithm of the task takes (``dpgui plan`` has every task's
    flags), and for a flag given beside the file flag that sets its value (``--query-count`` with
    ``--queries``). With ``auto`` the others are kept: ``refuse_flags_auto_ignores`` checks them once auto
    chose."""
    given = given_parameters(args)
    if spec.algorithm != AUTO:
        taken = {parameter.name for parameter in get_algorithm(spec.algorithm).parameters}
        who = f"{spec.algorithm} does not take"
    else:
        taken = set(task_parameters(spec.kind))
        who = f"no {spec.kind.value} algorithm takes"
    foreign = set(given) - taken
    if foreign:
        raise ValueError(
            f"{who} {_flags(foreign)}; leave it out or choose an algorithm that does "
            "('dpgui algorithms' lists each algorithm's parameters)"
        )
    conflict = set_twice(given, task_parameters(spec.kind).values(), flag_of)
    if conflict:
        raise ValueError(conflict)
    return dataclasses.replace(spec, parameters=(*spec.parameters, *given.items())) if given else spec


def refuse_flags_auto_ignores(chosen: AlgorithmInfo, args: argparse.Namespace) -> None:
    """ValueError (exit 2, before any charge) for a flag given with ``--algorithm auto`` that the algorithm
    auto chose does not take: the release would silently go without it."""
    unused = set(given_parameters(args)) - {parameter.name for parameter in chosen.parameters}
    if unused:
        takers = sorted(
            {info.name for info in algorithms(chosen.task) for p in info.parameters if p.name in unused}
        )
        raise ValueError(
            f"auto chose {chosen.name}, which does not take {_flags(unused)}: give --algorithm "
            f"{' or '.join(takers)} to use it, or leave it out"
        )
