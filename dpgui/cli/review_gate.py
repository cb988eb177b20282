"""The review before every charge, on the command line: printed on stderr before the reservation.

A failed check refuses the release (exit 2, nothing reserved, nothing read) unless ``--accept-warnings``
is given. The review itself is built in ``dpgui.tasks.review`` from public information only.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, Ledger
from dpgui.tasks.review import ReleaseReview, build_review
from dpgui.tasks.runner import prepare, refuse_private_inputs
from dpgui.tasks.spec import TaskSpec

if TYPE_CHECKING:
    from dpgui.data.dataset import Dataset, DatasetHandle


def add_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--accept-warnings",
        action="store_true",
        help="charge and run even when a check of the review printed before the charge fails",
    )


def remaining_budget(
    ledger: Ledger, dataset: Dataset | DatasetHandle, account: Account
) -> PrivacyCost | None:
    """The remaining budget of the dataset's ``account`` as the ledger knows it, without registering it."""
    path = dataset.path.resolve()
    for record in ledger.datasets():
        if record.sha256 == dataset.sha256 or record.path == path:
            return ledger.state(record.id, account).remaining
    return None


def review_or_refuse(
    spec: TaskSpec, dataset: Dataset | DatasetHandle, ledger: Ledger, accept_warnings: bool
) -> ReleaseReview | None:
    """Print the review on stderr; None (refused) when a check failed and warnings were not accepted.

    A public input with the private file's bytes is refused (DataError) before the review, whose figures
    it would otherwise have been read for."""
    prepared = prepare(spec, dataset.n_rows)
    refuse_private_inputs(prepared, dataset)
    review = build_review(prepared, remaining_budget(ledger, dataset, prepared.account))
    for line in review.lines():
        print(line, file=sys.stderr)
    if review.failures and not accept_warnings:
        print(
            "dpgui: refused before charging: a check failed (see the review above); fix the declaration "
            "or pass --accept-warnings to charge and run anyway",
            file=sys.stderr,
        )
        return None
    return review
