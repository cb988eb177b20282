"""``dpgui budget show|set``: the dataset's privacy budget in the ledger."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TextIO

from dpgui.cli import arguments
from dpgui.data.fingerprint import sha256_source
from dpgui.json_text import json_text
from dpgui.privacy.budget_words import budget_line, entry_status
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import (
    Account,
    BudgetState,
    DatasetRecord,
    Ledger,
    LedgerEntry,
    LedgerReadOnly,
    ReservationStatus,
)
from dpgui.privacy.ledger_store import ChainHead


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("budget", help="show or set a dataset's total privacy budget")
    actions = parser.add_subparsers(dest="budget_action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="the dataset's total, spent and remaining budget, and its ledger")
    show.add_argument("--data", required=True, type=arguments.given_path, help="the private data file")
    show.add_argument(
        "--json",
        action="store_true",
        help="print the budget as JSON: total, spent (the accountant's figure), spent_basic (basic "
        "composition), remaining, pending and the ledger entries",
    )
    show.set_defaults(handler=run_show)
    set_ = actions.add_parser("set", help="set the dataset's total budget (recorded in the ledger)")
    set_.add_argument("--data", required=True, type=arguments.given_path, help="the private data file")
    set_.add_argument("--epsilon", required=True, type=float, help="total epsilon for all releases")
    set_.add_argument("--delta", type=float, default=0.0, help="total delta for all releases (default 0)")
    set_.add_argument("--note", default="", help="why the total is set or changed (kept in the ledger)")
    set_.set_defaults(handler=run_set)
    link = actions.add_parser(
        "link",
        help="record a file as another version of a known dataset (the same people saved in another format "
        "or at another path): its releases then spend that dataset's budget",
    )
    link.add_argument("--data", required=True, type=arguments.given_path, help="the file new to the ledger")
    link.add_argument(
        "--to",
        required=True,
        type=Path,
        metavar="KNOWN",
        help="a file of the known dataset, or a path the ledger saw it at (`dpgui budget show` names it)",
    )
    link.set_defaults(handler=run_link)
    verify = actions.add_parser(
        "verify",
        help="check exported releases against this ledger: a ledger cut back, replaced by an older copy or "
        "by another history, or missing a release's commit, is named (exit 3)",
    )
    verify.add_argument(
        "releases",
        nargs="+",
        type=arguments.given_path,
        metavar="RELEASE",
        help="a release's folder or its manifest.json (a plan's folder: every release in it)",
    )
    verify.set_defaults(handler=run_verify)


def open_record(
    ledger: Ledger, data: Path, notes: TextIO | None = None, sha256: str | None = None
) -> DatasetRecord:
    """The dataset of ``data`` (registered if new); ``sha256``: the file's, when already computed."""
    if ledger.read_only:
        return known_record(ledger, data)
    record = ledger.open_dataset(data.resolve(), sha256 or sha256_source(data))
    if record.changed:
        print(f"note: {data.name} changed since the ledger last saw it; its budget continues.", file=notes)
    return record


def known_record(ledger: Ledger, data: Path) -> DatasetRecord:
    """The dataset of ``data`` as the ledger knows it, without writing (a read-only ledger)."""
    sha256, path = sha256_source(data), data.resolve()
    records = ledger.datasets()
    for candidates in ([r for r in records if r.sha256 == sha256], [r for r in records if r.path == path]):
        if candidates:
            return candidates[-1]
    raise LedgerReadOnly(
        f"{data.name} has no budget in the ledger, and {ledger.path.parent} cannot be written"
    )


def format_state(name: str, state: BudgetState) -> str:
    if state.total is None:
        return f"{name}: no total budget set (use `dpgui budget set --data FILE --epsilon E`)."
    return f"{name}: {budget_line(state)}" + (f"; pending {state.pending}" if state.pending.epsilon else "")


def _cost_json(cost: PrivacyCost | None) -> dict[str, float] | None:
    return None if cost is None else {"epsilon": cost.epsilon, "delta": cost.delta}


def _entry_json(entry: LedgerEntry) -> dict[str, object]:
    return {
        "time": entry.time.isoformat(),
        "status": entry.status.value,
        "status_words": entry_status(entry)[1],
        "release_id": entry.release_id,
        "touched": entry.touched,
        "description": entry.description,
        "cost": _cost_json(entry.cost),
        "curve": None if entry.curve is None else entry.curve.to_json(),
        "files": entry.files,
    }


def state_json(name: str, state: BudgetState, entries: list[LedgerEntry]) -> dict[str, object]:
    """The budget as numbers: ``spent`` is the accountant's figure, ``spent_basic`` basic composition."""
    return {
        "dataset": name,
        "total": _cost_json(state.total),
        "spent": _cost_json(state.spent),
        "spent_basic": _cost_json(state.spent_basic if state.spent_basic is not None else state.spent),
        "saving_epsilon": state.saving,
        "remaining": _cost_json(state.remaining),
        "pending": _cost_json(state.pending),
        "entries": [_entry_json(entry) for entry in entries],
    }


def run_show(args: argparse.Namespace) -> int:
    ledger = Ledger()
    record = open_record(ledger, args.data, sys.stderr if args.json else None)
    if ledger.read_only:
        print(
            f"note: {ledger.path.parent} is read-only: budgets can be shown, no release can run.",
            file=sys.stderr if args.json else None,
        )
    state = ledger.state(record.id)
    entries = ledger.entries(record.id)
    labels_only = (
        ledger.state(record.id, Account.LABELS_ONLY)
        if any(entry.account is Account.LABELS_ONLY for entry in entries)
        else None
    )
    if args.json:
        document = state_json(record.name, state, entries)
        document["labels_only_spent"] = _cost_json(labels_only.spent if labels_only is not None else None)
        print(json_text(document, indent=2))
        return 0
    print(format_state(record.name, state))
    if labels_only is not None:
        print(
            f"  labels-only account (label-private learner; features not protected; counts every release "
            f"above too): spent {labels_only.spent}"
        )
    for entry in entries:
        when = entry.time.isoformat(timespec="seconds")
        form = f"[{entry.curve.form}] " if entry.curve is not None else ""
        account = "" if entry.account is Account.REPLACE_ONE else f"  [{entry.account.value}]"
        words, meaning = entry_status(entry)
        print(f"  {when}  {words:<10} {entry.cost!s:<22} {form}{entry.description}{account}")
        if meaning != words:
            print(f"      {meaning}")
        print_files_left(entry)
    return 0


def print_files_left(entry: LedgerEntry) -> None:
    """Under a committed release whose files are still where dpgui put them before the commit (a staging
    folder, or the app's copy of a release not exported), say where and what to do."""
    if entry.files is None:
        return
    from dpgui.release.export import MANIFEST_JSON  # pandas: only when a commit line names its files
    from dpgui.release.staging import files_left

    left = files_left(entry.files)
    if left is None:
        return
    if entry.status is ReservationStatus.UNRESOLVED:  # a run that stopped without its commit line
        complete = (left.folder / MANIFEST_JSON).is_file()
        print(
            f"      its run was writing its files into {left.folder} when it stopped: "
            + (
                f"they are complete (manifest.json is there); move them into {left.target}, the manifest last"
                if complete
                else "without manifest.json they are incomplete; they are DP outputs, not a release"
            )
        )
        return
    if left.kept_by_app:
        print(
            f"      its files are kept in {left.folder} until the app exports it; copy them where you "
            "need them"
        )
    else:
        print(
            f"      its files are still in {left.folder} (the run was charged; a crash or a failed move left "
            f"them there): move them into {left.target}, the manifest last"
        )


def _manifests(paths: list[Path]) -> list[Path]:
    """The manifest.json files named by ``paths``: a manifest itself, a release folder's, or those of a
    plan folder's releases."""
    from dpgui.release.export import MANIFEST_JSON

    found: list[Path] = []
    for path in paths:
        if path.is_dir():
            own = path / MANIFEST_JSON
            found.extend([own] if own.is_file() else sorted(path.glob(f"*/{MANIFEST_JSON}")))
        else:
            found.append(path)
    return found


def run_verify(args: argparse.Namespace) -> int:
    """Each exported release against the ledger (``Ledger.release_problem``): the ledger's hash chain
    shows edits, and its head file a cut; a ledger copied back together with its head file shows neither,
    but the releases exported since name lines it no longer has."""
    ledger = Ledger()
    problems = 0
    for manifest in _manifests(args.releases):
        try:
            document = json.loads(manifest.read_text(encoding="utf-8"))
            head = document["ledger_head"]
            problem = ledger.release_problem(ChainHead(head["seq"], head["hash"]), document["release_id"])
        except (OSError, ValueError, KeyError, TypeError) as error:
            problem = f"not a release manifest dpgui can check ({error})"
        problems += problem is not None
        print(
            f"{'ok' if problem is None else 'PROBLEM'}: {manifest}"
            + ("" if problem is None else f": {problem}")
        )
    return 3 if problems else 0


def run_set(args: argparse.Namespace) -> int:
    ledger = Ledger()
    sha256 = sha256_source(args.data)  # once: a large file takes a while to hash
    new = not ledger.read_only and ledger.find(args.data, sha256) is None
    record = open_record(ledger, args.data, sha256=sha256)
    if new:
        warn_look_alikes(ledger, args.data)
    ledger.set_total(record.id, PrivacyCost(args.epsilon, args.delta), args.note)
    state = ledger.state(record.id)
    print(format_state(record.name, state))
    if state.spent.epsilon > args.epsilon:  # allowed (a total is a policy), but never silently (CLI fuzz)
        print(
            f"note: the new total ε={args.epsilon:g} is below the ε={state.spent.epsilon:.6g} already "
            "spent: no release can run until it is raised; what was released stays released",
            file=sys.stderr,
        )
    return 0


def warn_look_alikes(ledger: Ledger, data: Path) -> None:
    """A note naming the known datasets a file new to the ledger may be a copy of (``look_alikes``)."""
    from dpgui.data.loaders import column_names  # pandas: only for a file new to the ledger
    from dpgui.privacy.look_alikes import look_alikes

    alikes = look_alikes(ledger, data, column_names(data) or ())
    if not alikes:
        return
    print(
        f"note: {data.name} is new to the ledger and starts its own budget, but it names the same columns as "
        + "; ".join(alike.describe() for alike in alikes)
        + ". If it holds the same people (a copy in another format or place), their budget is the one "
        f"already spent from: run `dpgui budget link --data {data} --to {alikes[0].record.path}` "
        "before any release",
        file=sys.stderr,
    )


def run_link(args: argparse.Namespace) -> int:
    ledger = Ledger()
    if ledger.read_only:
        raise LedgerReadOnly(f"{ledger.path.parent} cannot be written: nothing can be linked")
    known = args.to.resolve()
    target = ledger.find(known, sha256_source(known) if known.exists() else "")
    if target is None:
        raise ValueError(
            f"the ledger knows no dataset at {known}; name a file it has seen "
            "(`dpgui budget show --data FILE` shows whether it does)"
        )
    record = ledger.link(args.data.resolve(), sha256_source(args.data), target.id)
    print(f"{args.data.name} is now a version of {target.name}; its releases spend that budget.")
    print(format_state(record.name, ledger.state(record.id)))
    return 0
