"""``dpgui budget show|set``: the dataset's privacy budget in the ledger."""

from __future__ import annotations

import argparse
from pathlib import Path

from dpgui.data.fingerprint import sha256_file
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetState, DatasetRecord, Ledger, LedgerReadOnly


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser("budget", help="show or set a dataset's total privacy budget")
    actions = parser.add_subparsers(dest="budget_action", metavar="ACTION", required=True)
    show = actions.add_parser("show", help="the dataset's total, spent and remaining budget, and its ledger")
    show.add_argument("--data", required=True, type=Path, help="the private data file")
    show.set_defaults(handler=run_show)
    set_ = actions.add_parser("set", help="set the dataset's total budget (recorded in the ledger)")
    set_.add_argument("--data", required=True, type=Path, help="the private data file")
    set_.add_argument("--epsilon", required=True, type=float, help="total epsilon for all releases")
    set_.add_argument("--delta", type=float, default=0.0, help="total delta for all releases (default 0)")
    set_.add_argument("--note", default="", help="why the total is set or changed (kept in the ledger)")
    set_.set_defaults(handler=run_set)


def open_record(ledger: Ledger, data: Path) -> DatasetRecord:
    if ledger.read_only:
        return known_record(ledger, data)
    record = ledger.open_dataset(data.resolve(), sha256_file(data))
    if record.changed:
        print(f"note: {data.name} changed since the ledger last saw it; its budget continues.")
    return record


def known_record(ledger: Ledger, data: Path) -> DatasetRecord:
    """The dataset of ``data`` as the ledger knows it, without writing (a read-only ledger)."""
    sha256, path = sha256_file(data), data.resolve()
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
    return f"{name}: total {state.total}; spent {state.spent}; remaining {state.remaining}" + (
        f"; pending {state.pending}" if state.pending.epsilon else ""
    )


def run_show(args: argparse.Namespace) -> int:
    ledger = Ledger()
    record = open_record(ledger, args.data)
    if ledger.read_only:
        print(f"note: {ledger.path.parent} is read-only: budgets can be shown, no release can run.")
    print(format_state(record.name, ledger.state(record.id)))
    entries = ledger.entries(record.id)
    if any(entry.account is Account.LABELS_ONLY for entry in entries):
        labels_only = ledger.state(record.id, Account.LABELS_ONLY)
        print(
            f"  labels-only account (label-private learner; features not protected): "
            f"spent {labels_only.spent}"
        )
    for entry in entries:
        when = entry.time.isoformat(timespec="seconds")
        account = "" if entry.account is Account.REPLACE_ONE else f"  [{entry.account.value}]"
        print(f"  {when}  {entry.status.value:<10} {entry.cost!s:<22} {entry.description}{account}")
    return 0


def run_set(args: argparse.Namespace) -> int:
    ledger = Ledger()
    record = open_record(ledger, args.data)
    ledger.set_total(record.id, PrivacyCost(args.epsilon, args.delta), args.note)
    print(format_state(record.name, ledger.state(record.id)))
    return 0
