"""Argument parsing and dispatch for the ``dpgui`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from dpgui import __version__


def build_parser() -> argparse.ArgumentParser:
    # The subcommands import the registry, pandas and numpy: only when a command needs its parser.
    from dpgui.cli import algorithms_cmd, budget_cmd, plan_cmd, query_cmd, release_cmd

    parser = argparse.ArgumentParser(
        prog="dpgui",
        description="Differentially private releases of a sensitive dataset. Without a command: the GUI.",
    )
    parser.add_argument("--version", action="version", version=f"dpgui {__version__}")
    parser.add_argument("--demo", action="store_true", help="start the GUI on the bundled demo data")
    parser.add_argument(
        "--screenshot", metavar="PNG", help="render the main window offscreen to this PNG and exit"
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    release_cmd.add_parser(commands)
    budget_cmd.add_parser(commands)
    algorithms_cmd.add_parser(commands)
    plan_cmd.add_parser(commands)
    query_cmd.add_parser(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments == ["--version"]:  # argparse's text and exit, without importing the subcommands
        print(f"dpgui {__version__}")
        raise SystemExit(0)
    from dpgui.cli.errors import run_guarded

    args = build_parser().parse_args(arguments)
    if args.command is None:
        return run_guarded(lambda: _start_gui(args))
    return run_guarded(lambda: args.handler(args))


def _start_gui(args: argparse.Namespace) -> int:
    import os
    from pathlib import Path

    from dpgui.paths import demo_private_path, demo_public_path

    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from dpgui.ui.app import run_gui

    screenshot = Path(args.screenshot) if args.screenshot else None
    if args.demo:
        return run_gui(demo_private_path(), demo_public_path(), screenshot, demo=True)
    return run_gui(None, None, screenshot)
