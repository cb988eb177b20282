"""``dpgui plan batch PLAN.toml`` and ``dpgui release batch PLAN.toml``: several releases under one budget."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from dpgui.algorithms.progress import run_to_end
from dpgui.cli import arguments, preflight, review_gate
from dpgui.cli.budget_cmd import format_state
from dpgui.cli.errors import EXIT_USAGE
from dpgui.data.engines import Engine
from dpgui.json_text import json_text
from dpgui.planner.batch import BatchPlan, split_plan
from dpgui.planner.plan import check_plan_inputs
from dpgui.planner.plan_file import load_plan
from dpgui.privacy.ledger import Ledger, LedgerReadOnly
from dpgui.privacy.random import SecureRandom
from dpgui.release.batch_export import NamedRelease, export_one, write_summary
from dpgui.release.export import ExportedFiles
from dpgui.release.manifest import PlanPosition
from dpgui.release.release import Release
from dpgui.release.staging import OutFolderError, claimed_plan_folder, discard, prepare_out
from dpgui.tasks.batch_run import NamedRun, execute_batch
from dpgui.tasks.preflight import check_limits, estimate

if TYPE_CHECKING:
    from dpgui.data.backends import OpenedData


def add_release_parser(tasks: argparse._SubParsersAction) -> None:
    parser = tasks.add_parser(
        "batch", help="run a release plan: reserve it whole, one ledger entry per release, one folder"
    )
    parser.add_argument(
        "plan_file", type=arguments.given_path, metavar="PLAN.toml", help="the release plan (docs/plans.md)"
    )
    parser.add_argument("--data", required=True, type=arguments.given_path, help="the private data file")
    arguments.add_encoding_argument(parser)
    parser.add_argument(
        "--engine",
        choices=[engine.value for engine in Engine],
        default=Engine.AUTO.value,
        help="where aggregates are computed (as for one release)",
    )
    parser.add_argument(
        "--out",
        required=True,
        type=arguments.given_path,
        help="a new (or empty) folder for every release and the report",
    )
    parser.add_argument("--max-memory", type=float, default=4.0, metavar="GIB", help="per release (GiB)")
    parser.add_argument("--max-seconds", type=float, default=600.0, metavar="S", help="per release (seconds)")
    review_gate.add_argument(parser)
    parser.set_defaults(handler=run_release_batch)


def plan_json(batch: BatchPlan) -> dict[str, object]:
    return {
        "objective": batch.objective,
        "total": {"epsilon": batch.total.epsilon, "delta": batch.total.delta},
        "charged": {"epsilon": batch.charged.epsilon, "delta": batch.charged.delta},
        "largest_weighted_error": batch.largest_weighted_error,
        "releases": [
            {
                "name": r.name,
                "task": r.spec.kind.value,
                "columns": list(r.spec.columns),
                "algorithm": r.prepared.algorithm.name,
                "epsilon": r.cost.epsilon,
                "delta": r.cost.delta,
                "predicted_error": r.predicted_error,
                "error_unit": r.error_unit,
                "weight": r.weight,
                "target_error": r.target_error,
            }
            for r in batch.releases
        ],
    }


def print_plan(batch: BatchPlan) -> None:
    line = "{:<24}{:<16}{:>12}{:>11}{:>16}  {}"
    print(f"split for {batch.objective}")
    print(line.format("release", "algorithm", "ε", "δ", "predicted error", "unit"))
    for r in batch.releases:
        print(
            line.format(
                r.name[:23], r.prepared.algorithm.name, f"{r.cost.epsilon:.4g}", f"{r.cost.delta:.3g}",
                f"{r.predicted_error:.4g}", r.error_unit,
            )
        )  # fmt: skip
    print(f"total (basic composition): {batch.total}; the ledger's accountant charges {batch.charged}")


def run_plan_batch(args: argparse.Namespace) -> int:
    check_plan_inputs(args.n)
    batch = split_plan(load_plan(args.plan_file), args.n)
    if args.json:
        print(json_text(plan_json(batch), indent=2))
    else:
        print_plan(batch)
    return 0


def check_before_charging(
    batch: BatchPlan, opened: OpenedData, args: argparse.Namespace, ledger: Ledger
) -> None:
    """The pre-flight of ``dpgui release`` for every release of the plan, before anything is reserved:
    parameters, predicted work and memory, a pass over the data's columns, a writable ledger, and an empty
    ``--out`` (a plan's folder is written whole, never merged into an earlier one)."""
    n = opened.dataset.n_rows
    if ledger.read_only:  # the cheap refusals first: the data pass below can take a while
        raise LedgerReadOnly(
            f"the ledger's folder {ledger.path.parent} cannot be written, so no release can be charged"
        )
    out = Path(args.out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise OutFolderError(f"--out {out} exists and is not an empty folder; name a new folder for the plan")
    preflight.say_how_it_is_read(opened, args.encoding)
    for release in batch.releases:
        preflight.before_opening(release.spec)
        check_limits(release.spec, estimate(release.spec, n), preflight.limits(args))
        preflight.report_data(preflight.data_check(release.spec, opened), args.accept_warnings)
    needed = sum(estimate(release.spec, n).output_bytes for release in batch.releases)
    discard(prepare_out(out, needed_bytes=needed, private=opened.dataset.path))  # as for one release


def _named(batch: BatchPlan, releases: list[Release]) -> list[NamedRelease]:
    """The plan's first ``len(releases)`` releases with their names and predicted errors."""
    return [
        NamedRelease(r.name, release, f"{r.predicted_error:.4g} {r.error_unit}")
        for r, release in zip(batch.releases, releases, strict=False)
    ]


def run_release_batch(args: argparse.Namespace) -> int:
    from dpgui.data.backends import open_aggregator  # pandas: only once a plan is released

    plan = load_plan(args.plan_file)
    opened = open_aggregator(args.data, args.engine, encoding=args.encoding)
    dataset = opened.dataset
    batch = split_plan(plan, dataset.n_rows)  # the row count is public
    print_plan(batch)
    ledger = Ledger()
    check_before_charging(batch, opened, args, ledger)
    with claimed_plan_folder(Path(args.out)):  # until its last file: another plan into it is refused
        return _review_run_and_export(batch, opened, args, ledger)


def _review_run_and_export(
    batch: BatchPlan, opened: OpenedData, args: argparse.Namespace, ledger: Ledger
) -> int:
    """The review, then the whole plan reserved, run and written into ``--out`` (its exit code)."""
    dataset = opened.dataset
    named = [(r.name, r.prepared) for r in batch.releases]
    if not review_gate.plan_reviewed(named, dataset, ledger, args.accept_warnings):
        return EXIT_USAGE  # the last step before the reservation: nothing is charged
    runs = [NamedRun(r.name, r.prepared) for r in batch.releases]
    completed: list[Release] = []
    written: list[ExportedFiles] = []

    def stage(index: int, run: NamedRun, release: Release) -> str:
        """Each release is written into its folder before its commit: a crash cannot lose a charged one."""
        written.append(export_one(release, args.out, PlanPosition(run.name, index + 1, len(runs))))
        return f"written to {written[-1].folder}"

    try:
        releases = run_to_end(
            execute_batch(
                runs,
                dataset,
                ledger,
                SecureRandom(),
                aggregator=opened.aggregator,
                engine_choice=opened.engine_choice,
                completed=completed,
                stage=stage,
            )
        )
    except BaseException:
        if completed:  # committed, so charged: their folders are written; the summary names them
            write_summary(_named(batch, completed), written[: len(completed)], args.out)
            print(
                f"dpgui: the plan stopped; its {len(completed)} committed release(s) are in {args.out}",
                file=sys.stderr,
            )
        raise
    write_summary(_named(batch, releases), written, args.out)
    print(f"released {len(releases)} releases into {args.out} (report.html, plan.json, one folder each)")
    last = releases[-1]
    print(
        format_state(dataset.name + last.algorithm.account(last.spec).named(), last.budget_after),
        file=sys.stderr,
    )
    return 0
