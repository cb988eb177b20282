"""``dpgui release``'s order of events: pre-flight, then charge, then publish.

Everything that can fail without producing a DP output fails before the ledger reserves anything, with
exit 2: the parameters and predicted work and memory (``dpgui.tasks.preflight``), the algorithm's
preconditions (exit 4), the output folder (``dpgui.release.staging``), a complete pass over the data's
columns (``dpgui.data.checks``: its counts are printed on stderr, custodian-only) and a writable ledger.
Then the run is reserved, run, its outputs staged beside ``--out``, committed, and moved into place.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dpgui.cli.algorithm_flags import refuse_flags_auto_ignores
from dpgui.data.errors import DataError
from dpgui.privacy.ledger import Ledger, LedgerReadOnly
from dpgui.release.release import Release
from dpgui.release.staging import OutFolder, discard, prepare_out
from dpgui.tasks.preflight import GIB, Limits, check_limits, check_parameters, estimate
from dpgui.tasks.runner import prepare
from dpgui.tasks.spec import TaskSpec

if TYPE_CHECKING:  # the data layer and the exporters (pandas) load when a release runs, not for --help
    from dpgui.data.backends import OpenedData
    from dpgui.data.checks import DataCheck
    from dpgui.release.export import ExportedFiles


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The flags of the pre-flight: resource limits and replacing an earlier release in ``--out``."""
    parser.add_argument(
        "--max-memory",
        type=float,
        default=Limits().max_memory / GIB,
        metavar="GIB",
        help="refuse a run predicted to need more memory than this (GiB; default 4)",
    )
    parser.add_argument(
        "--max-seconds",
        type=float,
        default=Limits().max_seconds,
        metavar="S",
        help="refuse a run predicted to take longer than this (seconds; default 600). A synthetic table's "
        "time cannot be predicted: AIM (unless --time-limit is given) ends its rounds in time to finish "
        "about its --time-limit default (100 s) after the marginals are counted, or this if lower",
    )
    parser.add_argument(
        "--overwrite",
        action="store_true",
        help="replace an earlier release in --out (its files are removed once the new one is committed)",
    )


MAX_MEMORY_GIB = 1 << 32
"""The largest --max-memory (GiB): 2^62 bytes, within the 64-bit integers the limit is compared in."""
MAX_SECONDS = 365 * 24 * 3600
"""The largest --max-seconds: a year (a larger number would only say 'no limit', which is not offered)."""


def limits(args: argparse.Namespace) -> Limits:
    memory = getattr(args, "max_memory", Limits().max_memory / GIB)
    seconds = getattr(args, "max_seconds", Limits().max_seconds)
    if not (0 < memory <= MAX_MEMORY_GIB and 0 < seconds <= MAX_SECONDS):  # nan fails too
        raise ValueError(
            f"--max-memory must be in (0, {MAX_MEMORY_GIB:,}] GiB and --max-seconds in (0, {MAX_SECONDS:,}] "
            f"(a year), got {memory:g} and {seconds:g}"
        )
    return Limits(int(memory * GIB), seconds)


def before_opening(spec: TaskSpec) -> None:
    """The checks that need nothing but the spec."""
    check_parameters(spec)


def before_charging(
    spec: TaskSpec, opened: OpenedData, args: argparse.Namespace, ledger: Ledger
) -> OutFolder:
    """The checks that need the public row count, the output folder, the data and the ledger; returns the
    checked ``--out`` with its staging folder (the caller discards it if the run does not happen)."""
    n = opened.dataset.n_rows
    prepared = prepare(spec, n)  # preconditions (exit 4) before anything else is done
    refuse_flags_auto_ignores(prepared.algorithm, args)
    concrete = spec.with_algorithm(prepared.algorithm.name)  # auto's choice: SanPoints walks no grid
    predicted = estimate(concrete, n)
    check_limits(concrete, predicted, limits(args))
    out = prepare_out(
        args.out,
        overwrite=getattr(args, "overwrite", False),
        needed_bytes=predicted.output_bytes,
        private=opened.dataset.path,
    )
    try:
        say_how_it_is_read(opened, getattr(args, "encoding", None))
        report_data(data_check(spec, opened), args.accept_warnings)
        if ledger.read_only:
            raise LedgerReadOnly(
                f"the ledger's folder {ledger.path.parent} cannot be written, so no release can be charged; "
                "make it writable or point DPGUI_HOME at a writable copy of the ledger"
            )
    except BaseException:
        discard(out)
        raise
    return out


def data_check(spec: TaskSpec, opened: OpenedData) -> DataCheck:
    from dpgui.data.checks import check_data

    return check_data(
        opened.dataset,
        opened.aggregator,
        spec.columns,
        spec.domains,
        spec.missing,
        label=spec.label,
        positive=spec.positive,
    )


def say_how_it_is_read(opened: OpenedData, encoding: str | None) -> None:
    """One line on stderr saying how the file is read (its encoding and delimiter, or the workbook's sheet
    and those it skips), as the app's Data page does: the command line said nothing of a workbook's other
    sheets (a loader audit)."""
    from dpgui.data.text_format import describe_file_format

    path = opened.dataset.path
    if path.exists():  # not a Spark catalog table
        print(f"{opened.dataset.name}: read as {describe_file_format(path, encoding)}", file=sys.stderr)


def report_data(check: DataCheck, accept_warnings: bool) -> None:
    """Print the counts (custodian-only) on stderr, then refuse the file if the check found a blocker: the
    first refusal is the error line (``run_guarded``), the others are printed above it (each refusal was
    printed twice, once here and once as the error). A doubt (``DataCheck.doubts``: a label value no cell
    holds, a column all but entirely outside its bounds or categories) refuses too unless
    ``accept_warnings``, as the app asks the custodian to acknowledge it: an audit's typo in --positive
    charged a release whose every row counted as negative. Other warnings (cells to impute, some values
    clipped) are printed and the release goes on."""
    for line in check.lines(with_refusals=False):
        print(line, file=sys.stderr)
    for refusal in check.refusals[1:]:
        print(f"also refused: {refusal}", file=sys.stderr)
    check.raise_if_refused()
    if check.doubts and not accept_warnings:
        raise DataError(
            "refused before charging: the data check found what is almost surely a mistake (the warning "
            "above); fix the declaration, or pass --accept-warnings to charge and run anyway"
        )


@dataclass
class Stager:
    """The ``stage`` callback of ``dpgui.tasks.runner.finish``: writes every output into the staging folder
    and says where for the commit line."""

    out: OutFolder
    plots: Callable[[Release], dict[str, bytes]] | None = None
    staged: ExportedFiles | None = field(default=None, init=False)
    started: bool = field(default=False, init=False)
    """Whether the run got as far as writing its outputs (it is then charged, written or not)."""

    def __call__(self, release: Release) -> str:
        from dpgui.release.export import export_release

        self.started = True
        plots = self.plots(release) if self.plots is not None else None
        self.staged = export_release(release, self.out.staging, plots)
        return self.out.describe()
