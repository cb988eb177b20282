"""The registry: every algorithm with the metadata the GUI forms, the CLI and the docs are built from."""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dpgui.algorithms.progress import AlgorithmRun
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.curve import DpSteps, PrivacyCurve
from dpgui.privacy.ledger import Account
from dpgui.privacy.random import PrivateRandom
from dpgui.tasks.outputs import ReleaseTable
from dpgui.tasks.spec import AUTO, TaskKind, TaskSpec

if TYPE_CHECKING:  # pandas: only the runs read data, so listing or planning algorithms does not import it
    from dpgui.data.aggregate import Aggregator


class Guarantee(enum.Enum):
    PURE = "pure ε-DP"
    APPROXIMATE = "approximate (ε, δ)-DP"
    PURE_OR_ZCDP = "pure ε-DP at δ = 0; ρ-zCDP, hence approximate (ε, δ)-DP, at δ > 0"

    @property
    def badge(self) -> str:
        return {Guarantee.PURE: "pure", Guarantee.APPROXIMATE: "approx"}.get(self, "pure/zCDP")


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
    choices: tuple[str, ...] = ()
    """The only values allowed (a drop-down in the GUI, ``choices=`` in the CLI, checked in the core)."""
    advanced: bool = False
    """A tuning knob with a sound default (the GUI keeps it in a collapsed "Advanced" section)."""
    set_by: str = ""
    """Another parameter naming a file whose rows set this one (``queries`` sets ``query_count``): giving
    both is refused (``set_twice``), and the GUI leaves this one out while that file is named."""


def set_twice(
    values: Mapping[str, object], declared: Iterable[ParameterSpec], name_of: Callable[[str], str]
) -> str | None:
    """Why ``values`` (parameters by name) may not be used, when they hold a declared parameter beside the
    file that sets it (``ParameterSpec.set_by``), else None; ``name_of`` names a parameter (a CLI flag, or
    the parameter's own name)."""
    for parameter in declared:
        if parameter.set_by and parameter.name in values and str(values.get(parameter.set_by, "")):
            return (
                f"{name_of(parameter.set_by)} and {name_of(parameter.name)} were both given: the "
                f"{parameter.set_by} file's rows set the {parameter.name.replace('_', ' ')}; leave out "
                f"{name_of(parameter.name)}"
            )
    return None


@dataclass(frozen=True)
class PreconditionFailure:
    """Why an algorithm refuses to run at this n (before the data is read)."""

    message: str
    min_n: int | None = None
    parameter: bool = False
    """The parameters themselves are unusable (the CLI's usage error, exit 2), whatever n is."""


def each_column_once(columns: tuple[str, ...]) -> tuple[PreconditionFailure, ...]:
    """The refusal of a column listed twice (a table would model it twice, a distance count it twice)."""
    repeated = sorted({column for column in columns if columns.count(column) > 1})
    if not repeated:
        return ()
    message = f"each column may appear once; {', '.join(repeated)} is repeated"
    return (PreconditionFailure(message, parameter=True),)


Runner = Callable[[TaskSpec, "Aggregator", PrivateRandom], AlgorithmRun[ReleaseTable]]

REPLACE_ONE = "replace one record; row count public"
"""The neighbouring relation of every algorithm unless it declares another (the manifest states it)."""


def replace_one(spec: TaskSpec) -> str:
    return REPLACE_ONE


@dataclass(frozen=True)
class ErrorPart:
    """One part of a predicted error (e.g. one measured marginal of a synthetic table)."""

    part: str
    how: str
    """What the prediction assumes (noise and scale, budget share, when it applies)."""
    error: float
    unit: str


def no_parts(spec: TaskSpec, n: int) -> tuple[ErrorPart, ...]:
    return ()


def no_curve(spec: TaskSpec) -> PrivacyCurve | None:
    """An algorithm that knows no more than its (epsilon, delta) as one step (see ``recorded_curve``)."""
    return None


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
    error_parts: Callable[[TaskSpec, int], tuple[ErrorPart, ...]] = no_parts
    """The predicted error part by part (the planner shows them under ``predicted_error``)."""
    curve: Callable[[TaskSpec], PrivacyCurve | None] = no_curve
    """The release's privacy curve when the mechanism knows more than ``cost`` as one step (its noise, its
    zCDP rho, its steps); the ledger records it (``recorded_curve``) and its accountant composes it tightly.
    It must imply ``cost``."""
    public_assisted: bool = False
    """Reads the public sample (cut points, candidates): its fit to the grid is checked before a run."""
    account: Callable[[TaskSpec], Account] = lambda spec: Account.REPLACE_ONE
    """The ledger account the cost is booked on: anything but replace-one is never picked by ``auto``."""

    calibrated: bool = False
    """``auto`` ranks it by its simulated mean error (``tasks.simulation.expected_error``) instead of its
    a-priori bound: for algorithms whose bounds' slack differs (or, data-adaptive, that have none)."""
    finishes_on_request: bool = False
    """Its run takes ``progress.FINISH_NOW`` and ends early with its result (the app's Finish now)."""
    sparse: bool = False
    """It never walks the declared grid (only the values present in the data, and at most a public number
    of released rows): its memory, work and export do not scale with the grid's size."""
    bytes_per_record: int = 0
    """Memory it holds for each record besides the aggregates (AQ and JointExp: each record's tie-breaking
    offset, ``tie_breaking.BYTES_PER_RECORD``): the pre-charge memory check counts it at the public n."""
    pure_when: Callable[[TaskSpec], bool] = lambda spec: False
    """For an approximate-DP algorithm: the specs whose runs are pure ε-DP all the same, decided from public
    values (RecConcave with one level is one exponential mechanism); its cost must then charge δ = 0."""

    def recorded_curve(self, spec: TaskSpec) -> PrivacyCurve:
        """The curve the ledger records: the mechanism's own (``curve``), else its cost as one step in the
        form it has, pure epsilon or (epsilon, delta)."""
        own = self.curve(spec)
        if own is not None:
            return own
        cost = self.cost(spec)
        return PrivacyCurve(steps=(DpSteps(cost),))

    def guarantee_for(self, spec: TaskSpec) -> Guarantee:
        """The guarantee of a run of this spec: pure or approximate (resolving PURE_OR_ZCDP by its cost,
        and an approximate one by ``pure_when``)."""
        if self.guarantee is Guarantee.APPROXIMATE and self.pure_when(spec):
            return Guarantee.PURE
        if self.guarantee is not Guarantee.PURE_OR_ZCDP:
            return self.guarantee
        return Guarantee.PURE if self.cost(spec).is_pure else Guarantee.APPROXIMATE


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
