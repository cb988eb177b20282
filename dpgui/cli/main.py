"""Argument parsing and dispatch for the ``dpgui`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from dpgui import __version__


def build_parser() -> argparse.ArgumentParser:
    # The subcommands import the registry, pandas and numpy: only when a command needs its parser.
    from dpgui.cli import algorithms_cmd, budget_cmd, fingerprint_cmd, plan_cmd, query_cmd, release_cmd
    from dpgui.cli.arguments import NumberFriendlyParser

    parser = NumberFriendlyParser(
        prog="dpgui",
        description="Differentially private releases of a sensitive dataset. Without a command: the GUI "
        "(`dpgui FILE [--public FILE]` opens it on a private file).",
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
    fingerprint_cmd.add_parser(commands)
    return parser


def build_open_parser() -> argparse.ArgumentParser:
    """``dpgui FILE [--public FILE]``: the GUI on a private file (and a public sample)."""
    from dpgui.cli.arguments import given_path

    parser = argparse.ArgumentParser(prog="dpgui", description="Open the GUI on a private data file.")
    parser.add_argument("file", type=given_path, help="the private data file to open")
    parser.add_argument("--public", type=given_path, help="an optional public sample to open beside it")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if arguments == ["--version"]:  # argparse's text and exit, without importing the subcommands
        from dpgui.cli.stdout import print_version

        raise SystemExit(print_version(f"dpgui {__version__}"))
    from dpgui.cli.arguments import split_negative_assignments
    from dpgui.cli.errors import run_guarded

    arguments = split_negative_assignments(arguments)
    parser = build_parser()
    if arguments and not arguments[0].startswith("-") and arguments[0] not in _commands(parser):
        if not _is_a_path(arguments[0]):
            parser.error(_neither_command_nor_file(arguments[0], _commands(parser)))
        opened = build_open_parser().parse_args(arguments)
        return run_guarded(lambda: _open_in_gui(opened))
    args, extra = parser.parse_known_args(arguments)
    if extra:  # what parse_args would refuse; a flag of another task's algorithms is named as plan names it
        foreign = _other_tasks_flags(args, extra)
        if foreign:
            parser.exit(2, f"dpgui: error: no {args.task} algorithm takes {', '.join(foreign)}; leave it out "
                        "('dpgui algorithms' lists each algorithm's parameters)\n")  # fmt: skip
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if args.command is None:
        return run_guarded(lambda: _start_gui(args))
    return run_guarded(lambda: args.handler(args))


def _is_a_path(word: str) -> bool:
    """Whether ``word`` names an existing file or folder; False where the system cannot say (a name too
    long, a folder not searchable), which raised a traceback before the command line was read."""
    try:
        return Path(word).exists()
    except (OSError, ValueError):
        return False


def _other_tasks_flags(args: argparse.Namespace, extra: list[str]) -> list[str]:
    """The words of ``extra`` that are algorithm flags of another task than the release's (``--q`` given to
    ``release cdf``), which ``dpgui plan`` refuses by name; [] outside ``release``."""
    if getattr(args, "command", None) != "release":
        return []
    from dpgui.cli.algorithm_flags import flag_of, task_parameters
    from dpgui.tasks.spec import TaskKind

    flags = {flag_of(name) for kind in TaskKind for name in task_parameters(kind)}
    return [word.split("=")[0] for word in extra if word.split("=")[0] in flags]


def _neither_command_nor_file(word: str, commands: set[str]) -> str:
    """What to say of a first word that names no command and no file ('relase', a mistyped command)."""
    import difflib

    close = difflib.get_close_matches(word, sorted(commands), n=1)
    guess = f"did you mean {close[0]!r}? " if close else ""
    return (
        f"{word!r} is neither a command nor an existing file: {guess}the commands are "
        f"{', '.join(sorted(commands))}, and `dpgui FILE [--public FILE]` opens the app on a file"
    )


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    return {
        name
        for action in parser._actions
        if isinstance(action, argparse._SubParsersAction)
        for name in action.choices
    }


def _open_in_gui(args: argparse.Namespace) -> int:
    for path in (args.file, args.public):
        if path is not None and not path.exists():
            raise FileNotFoundError(f"{path} does not exist")
    from dpgui.ui.app import run_gui

    return run_gui(args.file, args.public)


def _start_gui(args: argparse.Namespace) -> int:
    import os

    from dpgui.paths import demo_private_path, demo_public_path

    if args.screenshot:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from dpgui.ui.app import run_gui

    screenshot = Path(args.screenshot) if args.screenshot else None
    if args.demo:
        return run_gui(demo_private_path(), demo_public_path(), screenshot, demo=True)
    return run_gui(None, None, screenshot)
