"""``dpgui budget show|set``: the dataset's privacy budget in the ledger."""

from __future__ import annotations

import argparse
from pathlib import Path

from dpgui.data.fingerprint import sha256_file
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetState, DatasetRecord, Ledger


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
    record = ledger.open_dataset(data.resolve(), sha256_file(data))
    if record.changed:
        print(f"note: {data.name} changed since the ledger last saw it; its budget continues.")
    return record


def format_state(name: str, state: BudgetState) -> str:
    if state.total is None:
        return f"{name}: no total budget set (use `dpgui budget set --data FILE --epsilon E`)."
    return f"{name}: total {state.total}; spent {state.spent}; remaining {state.remaining}" + (
        f"; pending {state.pending}" if state.pending.epsilon else ""
    )


def run_show(args: argparse.Namespace) -> int:
    ledger = Ledger()
    record = open_record(ledger, args.data)
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
