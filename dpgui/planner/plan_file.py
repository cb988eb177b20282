"""The release plan file (docs/plans.md): TOML read by :func:`load_plan` and written by :func:`plan_toml`.

The CLI (``dpgui plan batch``, ``dpgui release batch``) and the app's plan editor read and write the same
format, so a plan saved in the app runs from the command line and back. A plan holds only public facts:
tasks, columns, declared numeric grids, algorithms, parameters, weights or target errors, and a budget.
"""

from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

from dpgui.data.domain import CategoricalDomain, NumericDomain, declared_grid
from dpgui.planner.batch import PlanError, PlannedRelease, ReleasePlan
from dpgui.privacy.cost import PrivacyCost
from dpgui.tasks.spec import (
    AUTO,
    MAX_EPSILON,
    MIN_EPSILON,
    Domain,
    ParameterValue,
    TaskKind,
    TaskSpec,
    default_missing,
    epsilon_refusal,
)


def load_plan(path: Path) -> ReleasePlan:
    """Parse a plan file (see docs/plans.md); raises :class:`PlanError` naming the release at fault."""
    try:
        document = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise PlanError(f"{path}: {error}") from error
    entries = document.get("release", [])
    if not isinstance(entries, list) or not entries or not all(isinstance(e, dict) for e in entries):
        raise PlanError(f"{path}: no [[release]] tables; a plan lists at least one release")
    epsilon, delta = document.get("epsilon"), _read_number(f"{path}: delta", document.get("delta", 0.0))
    budget = None if epsilon is None else PrivacyCost(_read_number(f"{path}: epsilon", epsilon), delta)
    if budget is not None and not MIN_EPSILON <= budget.epsilon <= MAX_EPSILON:  # as each release's check
        raise PlanError(f"{path}: {epsilon_refusal(budget.epsilon)}")
    releases = tuple(_release(path, i, entry, delta) for i, entry in enumerate(entries, start=1))
    if budget is None and any(r.target_error is None for r in releases):
        missing = ", ".join(r.name for r in releases if r.target_error is None)
        raise PlanError(
            f"{path}: without a plan epsilon every release needs a target_error ({missing} has none)"
        )
    return ReleasePlan(releases, budget)


def _read_number(where: str, value: object) -> float:
    """A plan's number (an int or a float, not true or "one" or [1]); PlanError naming where otherwise: a
    CLI fuzz's `delta = [1]` raised TypeError and `epsilon = true` read as 1."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise PlanError(f"{where} must be a number, got {value!r}")
    return float(value)


def _parameters(where: str, value: object) -> dict[str, ParameterValue]:
    """``parameters = {name = value, ...}``: a table of numbers, texts and booleans (a nested table raised
    TypeError inside the task)."""
    scalars = isinstance(value, dict) and all(isinstance(v, int | float | str | bool) for v in value.values())
    if not scalars:
        raise PlanError(f"{where}: parameters must be a table of numbers, texts and booleans, got {value!r}")
    return dict(value)  # type: ignore[arg-type]


def _release(path: Path, index: int, entry: dict[str, object], delta: float) -> PlannedRelease:
    name = str(entry.get("name", f"release {index}"))
    where = f"{path}, release {name!r}"
    try:
        kind = TaskKind(entry["task"])
        columns = entry.get("columns", [entry["column"]] if "column" in entry else None)
        if not isinstance(columns, list) or not columns:
            raise PlanError(f'{where}: give column = "NAME" or columns = [...]')
        domains = _domains(where, entry, len(columns))
        parameters = _parameters(where, entry.get("parameters", {}))
        if "beta" in entry:
            parameters["beta"] = _read_number(f"{where}: beta", entry["beta"])
        spec = TaskSpec(
            kind=kind,
            columns=tuple(str(c) for c in columns),
            domains=domains,
            epsilon=1.0,
            delta=delta,
            algorithm=str(entry.get("algorithm", AUTO)),
            parameters=tuple(parameters.items()),
            label=None if entry.get("label") is None else str(entry["label"]),
            positive=None if entry.get("positive") is None else str(entry["positive"]),
            missing=default_missing(kind),
        )
        weight = _read_number(f"{where}: weight", entry.get("weight", 1.0))
        given = entry.get("target_error")
        target = None if given is None else _read_number(f"{where}: target_error", given)
    except PlanError:
        raise
    except KeyError as error:
        raise PlanError(f"{where}: no {error.args[0]!r} given") from error
    except (TypeError, ValueError, AttributeError) as error:
        raise PlanError(f"{where}: {error}") from error
    if not (math.isfinite(weight) and weight > 0):
        raise PlanError(f"{where}: weight must be > 0, got {weight}")
    if target is not None and not target > 0:
        raise PlanError(f"{where}: target_error must be > 0, got {target}")
    return PlannedRelease(name, spec, weight, target)


def _domains(where: str, entry: dict[str, object], columns: int) -> tuple[Domain, ...]:
    """``categories = [...]`` (and ``other = true``) for one categorical column, else numeric ``bounds``."""
    if "categories" in entry:
        categories = entry["categories"]
        if columns != 1 or not isinstance(categories, list):
            raise PlanError(f"{where}: categories = [...] declares the one column of a categorical release")
        other = entry.get("other", False)
        if not isinstance(other, bool):  # other = 'no' read as true
            raise PlanError(f"{where}: other must be true or false, got {other!r}")
        return (CategoricalDomain(tuple(str(c) for c in categories), other=other),)
    bounds = entry["bounds"]
    if not isinstance(bounds, list) or len(bounds) != 2 * columns:
        raise PlanError(f"{where}: bounds needs one [lo, hi] pair per column, flattened")
    steps = _granularities(entry.get("granularity"), columns)
    return tuple(
        declared_grid(float(bounds[2 * c]), float(bounds[2 * c + 1]), granularity=steps[c])
        for c in range(columns)
    )


def _granularities(value: object, columns: int) -> list[float | None]:
    """``granularity``: absent (each column's default), one step for every column, or one per column."""
    if value is None:
        return [None] * columns
    if isinstance(value, list):
        if len(value) != columns:
            raise PlanError(f"granularity lists {len(value)} steps for {columns} columns")
        return [float(step) for step in value]
    return [float(value)] * columns  # type: ignore[arg-type]


# -- writing -------------------------------------------------------------------------------------------


def planned_release(
    name: str, spec: TaskSpec, weight: float = 1.0, target_error: float | None = None
) -> PlannedRelease:
    """A release for a plan from a task spec, refused (:class:`PlanError`) when the plan file cannot hold
    it: a plan declares numeric grids or the categories of one column, and no public sample or
    missing-value policy of its own."""
    where = f"release {name!r}"
    if not (_all_numeric(spec.domains) or _one_categorical(spec.domains)):
        raise PlanError(
            f"{where}: a plan declares numeric bounds, or the categories of a single column; this task "
            "mixes categorical and numeric columns"
        )
    if spec.public is not None:
        raise PlanError(f"{where}: a plan holds no public sample; close the public sample or pick auto")
    if spec.missing != default_missing(spec.kind):
        raise PlanError(
            f"{where}: a plan uses the task's default missing-value policy ("
            f"{default_missing(spec.kind).describe(spec.domains[0]).split(';')[0]}); choose it"
        )
    if not (math.isfinite(weight) and weight > 0):
        raise PlanError(f"{where}: weight must be > 0, got {weight}")
    if target_error is not None and not target_error > 0:
        raise PlanError(f"{where}: target_error must be > 0, got {target_error}")
    return PlannedRelease(name, spec, weight, target_error)


def plan_toml(plan: ReleasePlan) -> str:
    """The plan as the TOML :func:`load_plan` reads back to the same plan (numbers written exactly)."""
    lines = []
    if plan.budget is not None:
        lines.append(f"epsilon = {_number(plan.budget.epsilon)}")
    delta = plan.budget.delta if plan.budget is not None else plan.releases[0].spec.delta
    if delta > 0:
        lines.append(f"delta = {_number(delta)}")
    for release in plan.releases:
        lines += ["", "[[release]]", *_release_lines(release)]
    return "\n".join(lines) + "\n"


def save_plan(plan: ReleasePlan, path: Path) -> None:
    """Write the plan to ``path`` (raises OSError)."""
    Path(path).write_text(plan_toml(plan), encoding="utf-8")


def _release_lines(release: PlannedRelease) -> list[str]:
    spec = release.spec
    lines = [
        f"name = {_string(release.name)}",
        f"task = {_string(spec.kind.value)}",
        f"columns = [{', '.join(_string(column) for column in spec.columns)}]",
        *_domain_lines(release),
        f"algorithm = {_string(spec.algorithm)}",
    ]
    if spec.label is not None:
        lines.append(f"label = {_string(spec.label)}")
    if spec.positive is not None:
        lines.append(f"positive = {_string(spec.positive)}")
    if spec.parameters:
        pairs = ", ".join(f"{_string(name)} = {_value(value)}" for name, value in spec.parameters)
        lines.append(f"parameters = {{ {pairs} }}")
    lines.append(f"weight = {_number(release.weight)}")
    if release.target_error is not None:
        lines.append(f"target_error = {_number(release.target_error)}")
    return lines


def _all_numeric(domains: tuple[Domain, ...]) -> bool:
    return all(isinstance(domain, NumericDomain) for domain in domains)


def _one_categorical(domains: tuple[Domain, ...]) -> bool:
    return len(domains) == 1 and isinstance(domains[0], CategoricalDomain)


def _domain_lines(release: PlannedRelease) -> list[str]:
    domains = release.spec.domains
    if _one_categorical(domains):
        domain = domains[0]
        assert isinstance(domain, CategoricalDomain)
        categories = ", ".join(_string(category) for category in domain.categories)
        return [f"categories = [{categories}]", f"other = {'true' if domain.other else 'false'}"]
    numeric = [domain for domain in domains if isinstance(domain, NumericDomain)]
    if len(numeric) != len(domains):
        raise PlanError(
            f"release {release.name!r}: a plan declares numeric bounds or one column's categories"
        )
    bounds = ", ".join(_number(value) for domain in numeric for value in (domain.lower, domain.upper))
    steps = ", ".join(_number(float(domain.granularity)) for domain in numeric)
    return [f"bounds = [{bounds}]", f"granularity = [{steps}]"]


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def _number(value: float) -> str:
    """A float exactly as read back (``repr`` round-trips; TOML spells infinity ``inf``)."""
    return repr(float(value))


def _value(value: ParameterValue) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return _number(value)
    return _string(value)
