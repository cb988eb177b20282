"""Mapping failures to exit codes with one clear line on stderr: no input ends in a traceback or exit 1.

Expected errors get their own code (2 usage or input, 3 budget, 4 precondition, 130 cancelled); a closed
stdout (``dpgui ... | head -1``) is not an error (exit 0); anything else is reported in one line with exit
2, with the traceback only when ``DPGUI_DEBUG`` is set.
"""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Callable

from dpgui.cli.stdout import silence_stdout
from dpgui.data.errors import DataError
from dpgui.privacy.ledger import LedgerBusy, LedgerError, LedgerReadOnly, LedgerTampered
from dpgui.tasks.runner import PreconditionFailed

EXIT_OK = 0
EXIT_USAGE = 2
EXIT_BUDGET = 3
EXIT_PRECONDITION = 4
EXIT_INTERRUPTED = 130
DEBUG_ENV = "DPGUI_DEBUG"


def run_guarded(command: Callable[[], int]) -> int:
    """Run a subcommand, turning the errors a user can act on into an exit code and one message."""
    try:
        return command()
    except KeyboardInterrupt:
        print("dpgui: cancelled (a run that had read the private data stays charged)", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        silence_stdout()
        return EXIT_OK
    except PreconditionFailed as failure:
        needed = f" (minimum n: {failure.min_n})" if failure.min_n is not None else ""
        print(f"dpgui: refused before reading the data: {failure}{needed}", file=sys.stderr)
        return EXIT_USAGE if failure.parameters_unusable else EXIT_PRECONDITION
    except (LedgerReadOnly, LedgerBusy) as refusal:
        print(f"dpgui: error: {refusal}", file=sys.stderr)
        return EXIT_USAGE
    except LedgerTampered as damage:
        print(f"dpgui: the ledger cannot be trusted: {damage}", file=sys.stderr)
        return EXIT_BUDGET
    except LedgerError as refusal:
        print(f"dpgui: budget refused: {refusal}", file=sys.stderr)
        return EXIT_BUDGET
    except (DataError, ValueError, KeyError) as error:
        message = error.args[0] if isinstance(error, KeyError) and error.args else error
        print(f"dpgui: error: {message}", file=sys.stderr)
        return EXIT_USAGE
    except OSError as error:
        print(f"dpgui: error: {describe_os_error(error)}", file=sys.stderr)
        return EXIT_USAGE
    except MemoryError:
        if os.environ.get(DEBUG_ENV):
            traceback.print_exc()
        print("dpgui: error: out of memory; use a coarser grid, fewer rows or --max-memory", file=sys.stderr)
        return EXIT_USAGE
    except Exception as error:
        if os.environ.get(DEBUG_ENV):
            traceback.print_exc()
        print(
            f"dpgui: error: {type(error).__name__}: {error} (unexpected; set {DEBUG_ENV}=1 for details "
            "and report it)",
            file=sys.stderr,
        )
        return EXIT_USAGE


def describe_os_error(error: OSError) -> str:
    """'<file>: <reason>' for an OSError, whatever it carries."""
    reason = error.strerror or str(error) or type(error).__name__
    where = error.filename if error.filename is not None else ""
    return f"{where}: {reason}" if where else reason
