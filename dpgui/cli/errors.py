"""Mapping failures to exit codes with one clear line on stderr (no tracebacks for expected errors)."""

from __future__ import annotations

import sys
from collections.abc import Callable

from dpgui.data.errors import DataError
from dpgui.privacy.ledger import LedgerError
from dpgui.tasks.runner import PreconditionFailed

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_BUDGET = 3
EXIT_PRECONDITION = 4
EXIT_INTERRUPTED = 130


def run_guarded(command: Callable[[], int]) -> int:
    """Run a subcommand, turning the errors a user can act on into an exit code and one message."""
    try:
        return command()
    except KeyboardInterrupt:
        print("dpgui: cancelled (a run that had read the private data stays charged)", file=sys.stderr)
        return EXIT_INTERRUPTED
    except PreconditionFailed as failure:
        needed = f" (minimum n: {failure.min_n})" if failure.min_n is not None else ""
        print(f"dpgui: refused before reading the data: {failure}{needed}", file=sys.stderr)
        return EXIT_USAGE if failure.parameters_unusable else EXIT_PRECONDITION
    except LedgerError as refusal:
        print(f"dpgui: budget refused: {refusal}", file=sys.stderr)
        return EXIT_BUDGET
    except (DataError, ValueError, KeyError, FileNotFoundError, IsADirectoryError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"dpgui: error: {message}", file=sys.stderr)
        return EXIT_USAGE
