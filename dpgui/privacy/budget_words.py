"""How a dataset's spent and remaining budget are said, in the app and on the command line alike.

Under tight composition the ledger's spent figure is epsilon at the total's delta (``BudgetState``): one
guarantee for all releases together, whose delta equals the total's. Said as a plain cost, it reads as
"delta used up" beside a remaining delta that is not; so it is said as one guarantee, and the remaining
delta as what no release has booked yet (releases fit on epsilon).
"""

from __future__ import annotations

from collections.abc import Callable

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState, LedgerEntry, ReservationStatus

CostText = Callable[[PrivacyCost | None], str]
"""How the caller writes a plain cost ("ε = 1, δ = 1e-06" in the app, "ε=1, δ=1e-06" in the CLI)."""


def _one_guarantee(state: BudgetState) -> bool:
    return state.tight and state.total is not None and state.remaining is not None


def spent_words(state: BudgetState, cost_text: CostText) -> str:
    """The spent budget: a plain cost, or under tight composition one guarantee at the total's delta."""
    if not _one_guarantee(state):
        return cost_text(state.spent)
    return f"ε = {state.spent.epsilon:.6g} at δ = {state.spent.delta:.3g} (all releases as one guarantee)"


def remaining_words(state: BudgetState, cost_text: CostText) -> str:
    """What remains: a plain cost, or under tight composition epsilon and the delta not yet booked."""
    remaining, total = state.remaining, state.total
    if remaining is None or total is None or not _one_guarantee(state):
        return cost_text(remaining)
    return f"ε = {remaining.epsilon:.6g}; δ not yet booked: {remaining.delta:.3g} of {total.delta:.3g}"


def saving_text(state: BudgetState) -> str:
    """' (basic composition: ε=5, δ=1e-06; saved ε=3.8)' when the accountant charges less, the sums beside
    the words that they exceed the total's δ when only the accountant's figure fits, else ''."""
    if not state.tight or state.spent_basic is None:
        return ""
    if state.basic_beyond_delta:
        return f" (basic composition: {state.spent_basic}, beyond the total's δ)"
    return f" (basic composition: {state.spent_basic}; saved ε={state.saving:.6g})"


def entry_status(entry: LedgerEntry) -> tuple[str, str]:
    """A ledger entry's status in a few words and a sentence saying what it means: a charge without a
    result, a spent reservation whose run read the data or one merely held, a refund and why. The command
    line printed a cancelled run's charge as a plain "committed", the app as "committed, no result"."""
    status = entry.status
    if status is ReservationStatus.COMMITTED and entry.release_id is None:  # settle_unfinished's commit
        return (
            "committed, no result",
            "charged without a result: the run was cancelled, or failed, after it read the private data",
        )
    if status is ReservationStatus.UNRESOLVED:
        if entry.touched:
            return (
                "unresolved/spent",
                "charged: its run read the private data in another dpgui process, which is still running it "
                "or ended without a result",
            )
        return (
            "unresolved/held",
            "held by another dpgui process that is still running and has not read the data yet (or booked "
            "by a dpgui too old to say which process): counted as spent until that process settles it",
        )
    if status is ReservationStatus.REFUNDED and entry.reason:
        return "refunded", f"refunded: {entry.reason}"
    return status.value, status.value


def budget_line(state: BudgetState) -> str:
    """'total ...; spent ... (basic composition ...); remaining ...': the command line's budget line, which a
    plan's report states too."""
    spent, remaining = spent_words(state, str), remaining_words(state, str)
    return f"total {state.total}; spent {spent}{saving_text(state)}; remaining {remaining}"
