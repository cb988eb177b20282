"""A finished release: its DP outputs and everything its manifest states."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState
from dpgui.privacy.ledger_store import ChainHead
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.registry import AlgorithmInfo
from dpgui.tasks.spec import TaskSpec


@dataclass(frozen=True)
class DatasetInfo:
    """What a release says about its input: public facts only (the file's name, never its path; a keyed
    fingerprint, never its raw hash: dpgui.data.fingerprint)."""

    file_name: str
    fingerprint: str
    n_rows: int
    encoding: str | None = None
    """The text encoding the custodian declared for the file, None for the automatic reading."""


@dataclass(frozen=True)
class Release:
    """A finished, charged release: the DP outputs and everything the manifest states."""

    release_id: str
    created: datetime
    app: str
    app_version: str
    dataset: DatasetInfo
    spec: TaskSpec
    algorithm: AlgorithmInfo
    cost: PrivacyCost
    table: ReleaseTable
    private: bool
    randomness: str
    budget_before: BudgetState
    budget_after: BudgetState
    auto_reason: str | None = None
    aggregation_backend: str = "memory"
    """The engine that computed the aggregates (``Aggregator.name``): memory, embedded or spark."""
    error_bound: str = ""
    """The algorithm's a-priori error bound for the declaration and the public n, in the review's words,
    found when the release was made (public facts only; the report states it). Empty for a release made
    without one."""
    ledger_head: ChainHead | None = None
    """The ledger's chain head just before this release's commit (the commit line's ``prev``, unless another
    process appended in between): the manifest states it, so a ledger cut back to before this release is
    evident from the manifest. None for a release that was never booked in a ledger."""

    def exported_parameters(self) -> list[tuple[str, object]]:
        """The chosen algorithm's parameters as exports state them: only those it takes (a value the spec
        carries for another algorithm of the task had no effect), and a file by its name, never its path
        (a path names the custodian's folders; the file's name is what a reader can match)."""
        taken = {parameter.name: parameter for parameter in self.algorithm.parameters}
        return [
            (name, Path(str(value)).name if taken[name].path and value else value)
            for name, value in self.spec.parameters
            if name in taken
        ]
