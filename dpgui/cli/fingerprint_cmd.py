"""``dpgui fingerprint FILE``: the keyed fingerprint a release of FILE states in its manifest.

Exports never hold a data file's raw SHA-256 (dpgui.data.fingerprint); this command lets the custodian
match an export to a file on the installation that made it. It reads the file's bytes only, no budget.
"""

from __future__ import annotations

import argparse

from dpgui.cli import arguments
from dpgui.data.fingerprint import keyed_fingerprint, sha256_source


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "fingerprint", help="print the keyed fingerprint that releases of a file state (no budget)"
    )
    parser.add_argument("file", type=arguments.given_path, help="a data file")
    parser.set_defaults(handler=run_fingerprint)


def run_fingerprint(args: argparse.Namespace) -> int:
    print(f"{keyed_fingerprint(sha256_source(args.file))}  {args.file.name}")
    return 0
