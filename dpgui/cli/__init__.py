"""The ``dpgui`` command: the GUI with no arguments, headless releases and budget commands otherwise.

Exit codes: 0 success; 2 usage or input error (anything found before the budget is charged, and any
unexpected error: never a traceback or exit 1); 3 budget refused; 4 an algorithm's precondition failed;
130 cancelled with Ctrl-C. A closed stdout exits 0.
"""

from dpgui.cli.main import main

__all__ = ["main"]
