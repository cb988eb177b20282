"""What a custodian asks for: a frozen, validated task specification."""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field

from dpgui.data.domain import NumericDomain
from dpgui.data.missing import MissingPolicy

AUTO = "auto"


class TaskKind(enum.Enum):
    """The tasks a custodian can pick."""

    MEDIAN = "median"
    INTERIOR_POINT = "interior-point"

    @property
    def title(self) -> str:
        return {TaskKind.MEDIAN: "Private median", TaskKind.INTERIOR_POINT: "Interior point"}[self]


ParameterValue = float | int | str | bool


@dataclass(frozen=True)
class TaskSpec:
    """One release request. Everything here is public: nothing in it may come from the private data.

    ``parameters`` holds algorithm-specific settings as sorted (name, value) pairs so the spec stays
    hashable (the planner caches per spec).
    """

    kind: TaskKind
    columns: tuple[str, ...]
    domain: NumericDomain
    epsilon: float
    delta: float = 0.0
    algorithm: str = AUTO
    missing: MissingPolicy = field(default_factory=MissingPolicy)
    parameters: tuple[tuple[str, ParameterValue], ...] = ()

    def __post_init__(self) -> None:
        if not (math.isfinite(self.epsilon) and self.epsilon > 0):
            raise ValueError(f"epsilon must be a number > 0, got {self.epsilon}")
        if not 0 <= self.delta < 1:
            raise ValueError(f"delta must be in [0, 1), got {self.delta}")
        if not self.columns:
            raise ValueError("a task needs at least one column")
        object.__setattr__(self, "parameters", tuple(sorted(self.parameters)))

    def parameter(self, name: str, default: ParameterValue) -> ParameterValue:
        return dict(self.parameters).get(name, default)

    def with_algorithm(self, algorithm: str) -> TaskSpec:
        return TaskSpec(
            self.kind,
            self.columns,
            self.domain,
            self.epsilon,
            self.delta,
            algorithm,
            self.missing,
            self.parameters,
        )
