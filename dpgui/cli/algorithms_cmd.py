"""``dpgui algorithms``: list the registry."""

from __future__ import annotations

import argparse

from dpgui.tasks.registry import algorithms


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("algorithms", help="list every algorithm with its paper and guarantee")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    for info in algorithms():
        print(f"{info.task.value:<16} {info.name:<14} {info.guarantee.badge:<7} {info.title}")
        print(f"{'':<16} {info.paper}, {info.section}")
        for parameter in info.parameters:
            print(f"{'':<16}   --{parameter.name} (default {parameter.default}): {parameter.help}")
    return 0
