"""The review before every charge, on the command line: printed on stderr before the reservation.

A failed check refuses the release (exit 2, nothing reserved, nothing read) unless ``--accept-warnings``
is given. The review itself is built in ``dpgui.tasks.review`` from public information only.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from dpgui.privacy.ledger import BudgetExceeded, Ledger
from dpgui.tasks.ledger_review import plan_reviews, release_review
from dpgui.tasks.review import ReleaseReview
from dpgui.tasks.runner import PreparedRun, prepare, refuse_private_inputs
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
    spec: TaskSpec, dataset: Dataset | DatasetHandle, ledger: Ledger, accept_warnings: bool
) -> ReleaseReview | None:
    """Print the review on stderr; None (refused) when a check failed and warnings were not accepted.

    A release that does not fit the budget left raises :class:`BudgetExceeded` (exit 3) right after its
    review, which says so: the reservation would refuse it, and nothing is reserved.

    A public input with the private file's bytes is refused (DataError) before the review, whose figures
    it would otherwise have been read for."""
    prepared = prepare(spec, dataset.n_rows)
    refuse_private_inputs(prepared, dataset)
    record = ledger.find(dataset.path, dataset.sha256)  # the dataset the reservation will book on
    review = release_review(prepared, ledger, None if record is None else record.id)
    return review if _printed_and_passed([review.lines()], [review], accept_warnings) else None


def plan_reviewed(
    releases: Sequence[tuple[str, PreparedRun]], dataset: Dataset | DatasetHandle, ledger: Ledger,
    accept_warnings: bool,
) -> bool:  # fmt: skip
    """A plan's review of each release (``ledger_review.plan_reviews``: each states the budget left after
    the plan's earlier ones, and why auto chose its algorithm) printed on stderr; False (refused) when a
    check failed and warnings were not accepted. A plan that does not fit raises :class:`BudgetExceeded`
    (exit 3) after the reviews, as its reservation, all or nothing, would."""
    for _, prepared in releases:
        refuse_private_inputs(prepared, dataset)
    record = ledger.find(dataset.path, dataset.sha256)
    reviews = plan_reviews(releases, ledger, None if record is None else record.id)
    texts = [[f"{name}:", *review.lines()] for name, review in reviews]
    return _printed_and_passed(texts, [review for _, review in reviews], accept_warnings)


def _printed_and_passed(texts: list[list[str]], reviews: list[ReleaseReview], accept_warnings: bool) -> bool:
    """Print the reviews' ``texts``; raise the ledger's refusal if they do not fit, else whether every check
    passed or warnings were accepted (saying what to do when not)."""
    for line in (line for text in texts for line in text):
        print(line, file=sys.stderr)
    refusal = next((review.over_budget for review in reviews if review.over_budget is not None), None)
    if refusal is not None:  # exit 3, as the reservation's refusal would, before any booking
        raise BudgetExceeded(refusal)
    if any(review.failures for review in reviews) and not accept_warnings:
        print(
            "dpgui: refused before charging: a check failed (see the review above); fix the declaration "
            "or pass --accept-warnings to charge and run anyway",
            file=sys.stderr,
        )
        return False
    return True
