"""Start-up benchmark (issue 18, "speed where users wait"): how long the commands that read no data take.

Each command runs in a fresh interpreter (the installed ``dpgui`` entry point, as a user types it) several
times; the table gives the median wall time and the largest peak RSS, and which heavy libraries the command
imported (pandas, pyarrow, Qt, SciPy, JAX: a command that reads no data should import none of them).
The commands run with Python's bytecode cache, as a user's do after ``pip install`` (which compiles the
package) or after the first run: the package is compiled first and ``PYTHONDONTWRITEBYTECODE`` is unset
for the children, so a shell that sets it does not time Python compiling every module on every run.

Run: python benchmarks/startup.py [--repeats 7]
Writes benchmarks/startup.md.
"""

from __future__ import annotations

import argparse
import compileall
import datetime
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

from reading import kept_reading

OUT = Path(__file__).with_suffix(".md")
ROOT = Path(__file__).resolve().parent.parent
DOMAINS = ROOT / "benchmarks" / "cps1988_domains.json"
HEAVY = ("pandas", "pyarrow", "PySide6", "scipy", "jax")
COMMANDS = (
    ("--version",),
    ("--help",),
    ("algorithms",),
    ("release", "cdf", "--help"),
    ("release", "table", "--help"),
    ("plan", "table", "--n", "28155", "--domains", str(DOMAINS), "--epsilon", "1", "--delta", "1e-6"),
)
PROBE = (
    "import sys, runpy, contextlib, io\n"
    "sys.argv = ['dpgui', *sys.argv[1:]]\n"
    "with contextlib.redirect_stdout(io.StringIO()):\n"
    "    try:\n"
    "        runpy.run_module('dpgui', run_name='__main__')\n"
    "    except SystemExit:\n"
    "        pass\n"
    f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
)


def cached_bytecode_env() -> dict[str, str]:
    """The environment of a user's run: the package compiled, its bytecode cache read (see the docstring)."""
    compileall.compile_dir(ROOT / "dpgui", quiet=1)
    return {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def timed(command: tuple[str, ...], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and peak RSS (MB, from ``os.wait4``: this child's own) of one run of ``dpgui``."""
    entry = Path(sys.executable).with_name("dpgui")
    start = time.perf_counter()
    child = subprocess.Popen(
        [str(entry), *command], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here, so Popen must not wait again
    if child.returncode != 0:
        raise RuntimeError(f"dpgui {' '.join(command)} failed")
    return seconds, usage.ru_maxrss / 1024


def imported(command: tuple[str, ...]) -> str:
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *command], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip().splitlines()[-1] if done.stdout.strip() else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    env = cached_bytecode_env()
    lines = [
        "# Start-up of the commands that read no data (benchmarks/startup.py)",
        "",
        f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}, "
        f"{os.cpu_count()} cores; {args.repeats} runs per command, each in a fresh process "
        "with the bytecode cache; "
        f"{datetime.date.today().isoformat()}.",
        "",
        "| command | median seconds | peak MB | heavy libraries imported |",
        "|---|---|---|---|",
    ]
    for command in COMMANDS:
        runs = [timed(command, env) for _ in range(args.repeats)]
        seconds = statistics.median(s for s, _ in runs)
        peak = max(p for _, p in runs)
        shown = " ".join(command).replace(str(ROOT) + "/", "")
        lines.append(f"| `dpgui {shown}` | {seconds:.2f} | {peak:.0f} | {imported(command) or 'none'} |")
        print(lines[-1], flush=True)
    reading = kept_reading(OUT)
    OUT.write_text("\n".join(lines) + "\n" + ("\n" + reading if reading else ""), encoding="utf-8")


if __name__ == "__main__":
    main()
