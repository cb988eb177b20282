"""Known datasets that a file new to the ledger may be a copy of: a budget set on a copy says so.

The ledger knows a dataset by every SHA-256 and path it was seen with (``Ledger._find``). The same people
saved in another format, exported again with other quoting, or edited and saved under a new name, have new
bytes at a new path: the ledger would start a fresh budget for them while the original's releases have
spent part of theirs, and the two budgets together would promise those people less than either says.

No rule tells a copy from another table with the same columns (next month's extract of other people), so
this module only finds the candidates: known datasets whose file is still where the ledger last saw it and
whose header names the same columns, in any order. ``dpgui budget set`` names them, and the app asks before
a first total, so that the custodian links the file to the dataset it copies (``Ledger.link``) or confirms
it holds other people. A dataset whose file was moved or deleted since cannot be compared: its columns are
not in the ledger, which keeps no fact of a dataset beyond its name, path and hash.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dpgui.data.loaders import column_names
from dpgui.privacy.ledger import BudgetState, DatasetRecord, Ledger


@dataclass(frozen=True)
class LookAlike:
    """A known dataset with the same columns as the new file, and its budget as the ledger has it."""

    record: DatasetRecord
    state: BudgetState

    def describe(self) -> str:
        """'cps1988.csv (at /data/cps1988.csv; ε=1.5 of 10 spent)' or '...; no total set'."""
        spent, total = self.state.spent, self.state.total
        budget = "no total set" if total is None else f"ε={spent.epsilon:.4g} of {total.epsilon:g} spent"
        return f"{self.record.name} (at {self.record.path}; {budget})"


def look_alikes(ledger: Ledger, path: Path, names: Sequence[str]) -> list[LookAlike]:
    """The known datasets, other than the one ``path`` would open as, whose file is where the ledger last saw
    it and names the same set of columns as ``names`` (``path``'s: the app has them from the open file,
    the command line reads them, ``column_names``); newest registration first."""
    if not names:
        return []
    wanted = set(names)
    path = path.resolve()
    found = []
    for record in reversed(ledger.datasets()):
        if record.path == path or not record.path.exists():
            continue
        current = ledger.find(record.path, record.sha256)
        if current is None or current.id != record.id:  # left behind by a link: its file opens as another
            continue
        theirs = column_names(record.path)
        if theirs is not None and set(theirs) == wanted:
            found.append(LookAlike(record, ledger.state(record.id)))
    return found
