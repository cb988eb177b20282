"""The review before every charge, on the command line: printed on stderr before the reservation.

A failed check refuses the release (exit 2, nothing reserved, nothing read) unless ``--accept-warnings``
is given. The review itself is built in ``dpgui.tasks.review`` from public information only.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from dpgui.privacy.ledger import BudgetExceeded, Ledger
from dpgui.tasks.ledger_review import release_review
from dpgui.tasks.review import ReleaseReview
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


def review_or_refuse(
    spec: TaskSpec,
    dataset: Dataset | DatasetHandle,
    ledger: Ledger,
    accept_warnings: bool,
    *,
    alone: bool = True,
) -> ReleaseReview | None:
    """Print the review on stderr; None (refused) when a check failed and warnings were not accepted.

    A release run ``alone`` that does not fit the budget left raises :class:`BudgetExceeded` (exit 3) right
    after its review, which says so: the reservation would refuse it, and nothing is reserved. A plan's
    releases are reserved together, and the plan's reservation words the refusal for all of them.

    A public input with the private file's bytes is refused (DataError) before the review, whose figures
    it would otherwise have been read for."""
    prepared = prepare(spec, dataset.n_rows)
    refuse_private_inputs(prepared, dataset)
    record = ledger.find(dataset.path, dataset.sha256)  # the dataset the reservation will book on
    review = release_review(prepared, ledger, None if record is None else record.id, alone=alone)
    for line in review.lines():
        print(line, file=sys.stderr)
    if review.over_budget is not None:  # exit 3, as the reservation's refusal would, before any booking
        raise BudgetExceeded(review.over_budget)
    if review.failures and not accept_warnings:
        print(
            "dpgui: refused before charging: a check failed (see the review above); fix the declaration "
            "or pass --accept-warnings to charge and run anyway",
            file=sys.stderr,
        )
        return None
    return review
