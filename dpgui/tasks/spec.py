"""What a custodian asks for: a frozen, validated task specification."""

from __future__ import annotations

import dataclasses
import enum
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.errors import POSITIVE_FIELD
from dpgui.data.missing import MissingKind, MissingPolicy

if TYPE_CHECKING:  # a spec only holds a sample; reading one (pandas) is for the code that uses it
    from dpgui.data.public import PublicSample

AUTO = "auto"

Domain = NumericDomain | CategoricalDomain


class TaskKind(enum.Enum):
    """The tasks a custodian can pick."""

    MEDIAN = "median"
    INTERIOR_POINT = "interior-point"
    QUANTILES = "quantiles"
    CDF = "cdf"
    HISTOGRAM = "histogram"
    SYNTHETIC = "synthetic"
    THRESHOLD = "threshold"
    POINT = "point"
    RECTANGLE = "rectangle"
    DISTANCE = "distance"
    TABLE = "table"

    @property
    def title(self) -> str:
        return _TITLES[self]


_TITLES = {
    TaskKind.MEDIAN: "Private median",
    TaskKind.INTERIOR_POINT: "Interior point",
    TaskKind.QUANTILES: "Private quantiles",
    TaskKind.CDF: "CDF (all threshold queries)",
    TaskKind.HISTOGRAM: "Histogram (point queries)",
    TaskKind.SYNTHETIC: "Synthetic records",
    TaskKind.THRESHOLD: "Threshold learning",
    TaskKind.POINT: "Point learning",
    TaskKind.RECTANGLE: "Rectangle learning",
    TaskKind.DISTANCE: "Distance release",
    TaskKind.TABLE: "Synthetic table (all columns)",
}

_SUBJECTS = {
    TaskKind.MEDIAN: ("median", "of"),
    TaskKind.INTERIOR_POINT: ("interior point", "of"),
    TaskKind.QUANTILES: ("quantiles", "of"),
    TaskKind.CDF: ("CDF", "of"),
    TaskKind.HISTOGRAM: ("histogram", "of"),
    TaskKind.SYNTHETIC: ("synthetic records", "of"),
    TaskKind.THRESHOLD: ("threshold", "on"),
    TaskKind.POINT: ("point", "on"),
    TaskKind.RECTANGLE: ("rectangle", "on"),
    TaskKind.DISTANCE: ("distances", "over"),
    TaskKind.TABLE: ("synthetic table", "of"),
}
"""What a release of each task is, and the word that joins it to its columns, mid-sentence
(``TaskSpec.subject``). The titles are names that stand alone: 'Released Private quantiles of wage' and
'Released Distance release of …' put one mid-sentence."""

ParameterValue = float | int | str | bool

MIN_EPSILON = 1e-6
"""Below ε = 10^-6 the noise scales of some mechanisms approach the 64-bit bound or stop being finite."""
MAX_EPSILON = 100.0
"""Beyond ε = 100 a guarantee says nothing (odds ×e^100) and the report's arithmetic overflows."""


def epsilon_refusal(epsilon: float) -> str:
    """The words refusing an ε outside [MIN_EPSILON, MAX_EPSILON] (the pre-flight check; a spec itself
    refuses only ε <= 0 and non-finite ones, in the same words)."""
    return (
        f"epsilon must be a number in [{MIN_EPSILON:g}, {MAX_EPSILON:g}], got {epsilon:g} (below "
        f"{MIN_EPSILON:g} noise scales approach the 64-bit integer bound; above {MAX_EPSILON:g} the "
        "guarantee says nothing)"
    )


def default_missing(kind: TaskKind) -> MissingPolicy:
    """A task's missing-value policy unless one is chosen: a synthetic table keeps missing values as blanks
    (a "missing" cell per column); every other task replaces them by the lower bound."""
    return MissingPolicy(MissingKind.KEEP) if kind is TaskKind.TABLE else MissingPolicy()


LABELLED_KINDS = (TaskKind.THRESHOLD, TaskKind.POINT, TaskKind.RECTANGLE)
"""Tasks that learn from a label column (the Task page's label picker, the planner's placeholder label, and
``runner.prepare``'s refusal of such a spec without one, before anything is charged)."""


@dataclass(frozen=True)
class TaskSpec:
    """One release request. Everything here is public: nothing in it may come from the private data.

    ``columns`` are the data columns the task reads, with one declared domain each in ``domains``.
    ``label`` (with ``positive``, the label value that counts as 1) is the label column of learning tasks.
    ``public`` is the optional public sample (public data; never mixed into private aggregates).
    ``parameters`` holds algorithm-specific settings as sorted (name, value) pairs so the spec stays
    hashable (the planner caches per spec).
    """

    kind: TaskKind
    columns: tuple[str, ...]
    domains: tuple[Domain, ...]
    epsilon: float
    delta: float = 0.0
    algorithm: str = AUTO
    missing: MissingPolicy = field(default_factory=MissingPolicy)
    parameters: tuple[tuple[str, ParameterValue], ...] = ()
    label: str | None = None
    positive: str | None = None
    public: PublicSample | None = None
    pinned_files: tuple[tuple[str, str], ...] = ()
    """(path, SHA-256) of each PUBLIC file a parameter names (a queries file), as the run was priced on it:
    set by ``runner.prepare`` (``dpgui.tasks.public_files``), never by the custodian, and not saved with a
    project. A run reads these files only with these bytes."""

    def __post_init__(self) -> None:
        if not (math.isfinite(self.epsilon) and self.epsilon > 0):
            raise ValueError(epsilon_refusal(self.epsilon))
        if not 0 <= self.delta < 1:
            raise ValueError(f"delta must be in [0, 1), got {self.delta}")
        if not self.columns:
            raise ValueError("a task needs at least one column")
        if self.label is not None and self.label in self.columns:  # a label read as its own feature
            raise ValueError(
                f"column {self.label!r} is both a feature and the label: the label must be another column"
            )
        if self.positive is not None and not self.positive.strip():  # no cell reads it: every row negative
            raise ValueError(
                "the positive label value is empty: name the value that counts as positive, or leave it out "
                f"({POSITIVE_FIELD}) for 0/1, true/false or yes/no labels"
            )
        if isinstance(self.domains, NumericDomain | CategoricalDomain):
            object.__setattr__(self, "domains", (self.domains,))
        if len(self.domains) != len(self.columns):
            raise ValueError(f"need one declared domain per column: {len(self.columns)} columns")
        if self.missing.kind is MissingKind.KEEP and self.kind is not TaskKind.TABLE:
            raise ValueError(
                "missing values can be kept as a cell of their own only in a synthetic table; "
                "replace them by a declared value or stop at the first one"
            )
        if self.kind is TaskKind.CDF:  # cdf(v) must be the share of records <= v at every grid point v
            snapped = tuple(d.snapped_up() if isinstance(d, NumericDomain) else d for d in self.domains)
            object.__setattr__(self, "domains", snapped)
        object.__setattr__(self, "parameters", tuple(sorted(self.parameters)))

    @property
    def domain(self) -> NumericDomain:
        """The first column's domain (the only one for one-column numeric tasks)."""
        first = self.domains[0]
        if not isinstance(first, NumericDomain):
            raise TypeError(f"column {self.columns[0]!r} has a categorical domain, not a numeric one")
        return first

    @property
    def subject(self) -> str:
        """What the spec releases, mid-sentence: 'quantiles of wage', 'threshold on wage for parttime'."""
        noun, joint = _SUBJECTS[self.kind]
        label = f" for {self.label}" if self.label is not None else ""
        return f"{noun} {joint} {', '.join(self.columns)}{label}"

    def parameter(self, name: str, default: ParameterValue) -> ParameterValue:
        return dict(self.parameters).get(name, default)

    def with_algorithm(self, algorithm: str) -> TaskSpec:
        return dataclasses.replace(self, algorithm=algorithm)

    def pinned_sha256(self, path: str) -> str | None:
        """The SHA-256 ``path`` was priced with (None: not pinned, as in a spec the custodian is editing)."""
        return dict(self.pinned_files).get(path)
