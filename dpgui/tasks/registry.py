"""The registry: every algorithm with the metadata the GUI forms, the CLI and the docs are built from."""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass

from dpgui.algorithms.progress import AlgorithmRun
from dpgui.data.aggregate import Aggregator
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.random import PrivateRandom
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.spec import AUTO, TaskKind, TaskSpec


class Guarantee(enum.Enum):
    PURE = "pure ε-DP"
    APPROXIMATE = "approximate (ε, δ)-DP"

    @property
    def badge(self) -> str:
        return "pure" if self is Guarantee.PURE else "approx"


@dataclass(frozen=True)
class ParameterSpec:
    """A typed algorithm parameter: a form field in the GUI and a flag in the CLI."""

    name: str
    kind: type
    default: float | int | str | bool
    help: str
    minimum: float | None = None
    maximum: float | None = None
    path: bool = False
    """The value names a PUBLIC file (the GUI offers a file picker beside the text)."""


@dataclass(frozen=True)
class PreconditionFailure:
    """Why an algorithm refuses to run at this n (before the data is read)."""

    message: str
    min_n: int | None = None


Runner = Callable[[TaskSpec, Aggregator, PrivateRandom], AlgorithmRun[ReleaseTable]]

REPLACE_ONE = "replace one record; row count public"
"""The neighbouring relation of every algorithm unless it declares another (the manifest states it)."""


def replace_one(spec: TaskSpec) -> str:
    return REPLACE_ONE


@dataclass(frozen=True)
class AlgorithmInfo:
    """One registered algorithm."""

    name: str
    title: str
    task: TaskKind
    paper: str
    section: str
    guarantee: Guarantee
    summary: str
    cost: Callable[[TaskSpec], PrivacyCost]
    predicted_error: Callable[[TaskSpec, int], float]
    error_unit: str
    run: Runner
    parameters: tuple[ParameterSpec, ...] = ()
    preconditions: Callable[[TaskSpec, int], tuple[PreconditionFailure, ...]] = lambda spec, n: ()
    neighbouring: Callable[[TaskSpec], str] = replace_one
    """The neighbouring relation the guarantee is stated for, given the spec."""
    calibrated: bool = False
    """``auto`` ranks it by its simulated mean error (``tasks.simulation.expected_error``) instead of its
    a-priori bound: for algorithms whose bounds' slack differs (or, data-adaptive, that have none)."""


_REGISTRY: dict[str, AlgorithmInfo] = {}


def register(info: AlgorithmInfo) -> AlgorithmInfo:
    if info.name in _REGISTRY or info.name == AUTO:
        raise ValueError(f"algorithm name {info.name!r} is taken")
    _REGISTRY[info.name] = info
    return info


def algorithms(task: TaskKind | None = None) -> list[AlgorithmInfo]:
    """Registered algorithms (of one task if given), in registration order."""
    _load_catalog()
    return [info for info in _REGISTRY.values() if task is None or info.task is task]


def get_algorithm(name: str) -> AlgorithmInfo:
    _load_catalog()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise KeyError(f"unknown algorithm {name!r}; known: {known}") from None


def _load_catalog() -> None:
    """Import the modules that register algorithms (kept lazy to avoid import cycles)."""
    from dpgui.tasks import catalog  # noqa: F401
