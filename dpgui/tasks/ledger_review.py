"""The review before a charge, of one release or of a plan, against the ledger's budget.

Composing it takes time the app's window must not wait for: the predicted error may simulate the
algorithm (``review.build_review``), and the ledger's answer to "does this fit" composes every earlier
release with the new ones (about a second on a ledger of 1,000 mixed releases). The app calls these in
its thread pool; the CLI's review gate states the same reviews. Books nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, Ledger
from dpgui.tasks.review import ReleaseReview, build_review
from dpgui.tasks.runner import PreparedRun, over_budget, reservation_request


def release_review(prepared: PreparedRun, ledger: Ledger, dataset_id: str | None) -> ReleaseReview:
    """The review of one release: the budget left on its account, and the ledger's refusal if it does not
    fit (``dataset_id`` None: the file is not in the ledger yet, so neither is known). A plan's releases
    are reviewed together (:func:`plan_reviews`)."""
    if dataset_id is None:
        return build_review(prepared, None)
    remaining = ledger.state(dataset_id, prepared.account).remaining
    refusal = over_budget(prepared, ledger, dataset_id)
    after = ledger.remaining_with(dataset_id, [reservation_request(prepared)], prepared.account)
    return build_review(prepared, remaining, refusal, after)


def plan_reviews(
    releases: Sequence[tuple[str, PreparedRun]], ledger: Ledger, dataset_id: str | None
) -> list[tuple[str, ReleaseReview]]:
    """The named review of each release of a plan, in order: each states the budget left on its account
    after the plan's earlier releases, and the ledger's refusal of the whole plan (which is reserved at
    once, all or nothing), if it does not fit."""
    if dataset_id is None:
        return [(name, build_review(prepared, None)) for name, prepared in releases]
    requests = [reservation_request(prepared) for _, prepared in releases]
    refusal = ledger.refusal_all(dataset_id, requests)
    left: dict[tuple[Account, int], PrivacyCost | None] = {}

    def left_after(account: Account, count: int) -> PrivacyCost | None:
        """The account's budget left after the plan's first ``count`` releases (each composed once)."""
        if (account, count) not in left:
            left[account, count] = ledger.remaining_with(dataset_id, requests[:count], account)
        return left[account, count]

    return [
        (name, build_review(prepared, left_after(prepared.account, index), refusal,
                            left_after(prepared.account, index + 1)))
        for index, (name, prepared) in enumerate(releases)
    ]  # fmt: skip
