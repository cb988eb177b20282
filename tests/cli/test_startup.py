"""Commands that read no data start fast: ``import dpgui.cli`` imports neither pandas nor Qt."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dpgui import __version__

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("pandas", "PySide6", "pyqtgraph", "numpy", "opendp", "dpgui.tasks.registry")


def run_python(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True
    )
    return done.stdout


def test_importing_the_cli_and_asking_its_version_imports_nothing_heavy():
    out = run_python(
        "import sys\n"
        "from dpgui.cli import main\n"
        "try:\n"
        "    main(['--version'])\n"
        "except SystemExit as done:\n"
        f"    print(done.code, [m for m in {HEAVY!r} if m in sys.modules])\n"
    )
    assert out.splitlines() == [f"dpgui {__version__}", "0 []"]


def test_the_fast_version_says_what_argparse_would_say(capsys):
    from dpgui.cli.main import build_parser

    with pytest.raises(SystemExit):
        build_parser().parse_args(["--version"])
    assert capsys.readouterr().out == f"dpgui {__version__}\n"


@pytest.mark.parametrize(
    "command",
    [["--help"], ["algorithms"], ["release", "table", "--help"], ["plan", "table", "--help"]],
)
def test_commands_that_read_no_data_import_neither_pandas_nor_pyarrow_nor_qt(command: list[str]):
    """The parsers need the registry (numpy), not the data layer: pandas and pyarrow alone took 0.25 s; nor
    the ledger's lock and folder libraries (0.02 s), imported when a ledger is opened."""
    out = run_python(
        "import sys, contextlib, io\n"
        "from dpgui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({command!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print([m for m in ('pandas', 'pyarrow', 'PySide6', 'scipy', 'jax', 'filelock', 'platformdirs') "
        "if m in sys.modules])\n"
    )
    assert out.splitlines()[-1] == "[]"


def test_planning_a_table_with_a_categorical_column_imports_no_pandas(tmp_path: Path):
    """``dpgui plan table`` reads a DOMAINS.json, no data: its categories are read as cells are compared
    without the data layer (pandas took 0.4 s of the plan's start-up when the rule lived there)."""
    domains = tmp_path / "domains.json"
    domains.write_text('{"age": {"lower": 0, "upper": 99, "bins": 10}, "sex": {"categories": [1.0, 2.0]}}')
    command = ["plan", "table", "--n", "1000", "--domains", str(domains), "--epsilon", "1", "--delta", "1e-6"]
    out = run_python(
        "import sys, contextlib, io\n"
        "from dpgui.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    code = main({command!r})\n"
        "print(code, [m for m in ('pandas', 'pyarrow', 'PySide6', 'scipy', 'jax') if m in sys.modules])\n"
    )
    assert out.splitlines()[-1] == "0 []"
