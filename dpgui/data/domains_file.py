"""DOMAINS.json: each column mapped to its declared (public) domain, in the file's key order.

The file ``dpgui release table --domains`` and ``dpgui plan table`` read, and the Task page loads and saves,
so a declaration made in one is the same in the other. An entry is ``{"lower": a, "upper": b, "bins": m}``
or ``{"lower": a, "upper": b, "granularity": g}`` for a numeric column (optionally ``"unit": "USD"``): m
equal bins with a value at each middle, or the points a, a + g, ... (``NumericDomain.binned``),
``{"categories": [...]}`` for a categorical one. A categorical column has an "other" cell for undeclared
values unless ``"other": false``; with it, a listed "other" names that cell rather than a category.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dpgui.data.domain import OTHER, CategoricalDomain, NumericDomain, cell_text, declared_grid
from dpgui.data.errors import DataError

Domain = NumericDomain | CategoricalDomain


def _finite(category: str | int | float) -> bool:
    """Not NaN, nor a JSON number too large for a double (1e400 reads as inf: it became a category "inf")."""
    return not isinstance(category, float) or math.isfinite(category)


def _categorical(column: str, entry: dict[str, Any]) -> CategoricalDomain:
    categories, other = entry["categories"], entry.get("other", True)
    if set(entry) - {"categories", "other"}:
        raise DataError(f'domain of {column!r}: a categorical column takes "categories" and "other" only')
    if not isinstance(categories, list) or not categories:
        raise DataError(f'domain of {column!r}: "categories" must be a non-empty list')
    if not isinstance(other, bool):
        raise DataError(f'domain of {column!r}: "other" must be true or false')
    unfit = [c for c in categories if not isinstance(c, str | int | float) or not _finite(c)]
    if unfit:  # a JSON null read as the text "None" (a missing value's spelling), a list as "['a']"
        blank = " (a missing cell needs no category)" if unfit[0] is None else ""
        blank = " (a number too large for a 64-bit float)" if unfit[0] in (math.inf, -math.inf) else blank
        raise DataError(
            f"domain of {column!r}: a category must be a text, a number or true/false, got "
            f"{json.dumps(unfit[0])}{blank}"
        )
    texts = [cell_text(c) for c in categories]  # as cells are compared: a JSON 3.0 is the code 3
    if "" in texts:
        raise DataError(f"domain of {column!r}: a category cannot be blank (a blank cell is a missing value)")
    named = tuple(text for text in texts if not (other and text == OTHER))
    if not named:
        raise DataError(f'domain of {column!r}: "categories" lists no category besides "{OTHER}"')
    try:
        return CategoricalDomain(named, other=other)
    except ValueError as error:  # the domain's own checks (distinct categories), naming the column
        raise DataError(f"domain of {column!r}: {error}") from error


def domain_entry(column: str, entry: Any) -> Domain:
    """The domain one entry of DOMAINS.json declares; a DataError naming the column otherwise."""
    if not isinstance(entry, dict):
        raise DataError(f'domain of {column!r}: expected an object such as {{"lower": 0, "upper": 10}}')
    if "categories" in entry:
        return _categorical(column, entry)
    unknown = set(entry) - {"lower", "upper", "bins", "granularity", "unit"}
    if unknown or not {"lower", "upper"} <= set(entry):
        raise DataError(
            f'domain of {column!r}: give "lower", "upper" and "bins" or "granularity", optionally "unit" '
            f'(or "categories"); got {sorted(entry)}'
        )
    numbers = {key: entry[key] for key in ("lower", "upper", "bins", "granularity") if key in entry}
    if not all(isinstance(value, int | float) and not isinstance(value, bool) for value in numbers.values()):
        raise DataError(f"domain of {column!r}: bounds, bins and granularity must be numbers; got {numbers}")
    if not float(numbers.get("bins", 1)).is_integer():
        raise DataError(f"domain of {column!r}: bins must be a whole number, got {numbers['bins']}")
    try:
        return declared_grid(
            float(entry["lower"]),
            float(entry["upper"]),
            granularity=entry.get("granularity"),
            bins=entry.get("bins"),
            unit=entry.get("unit", ""),
            binned=True,  # m bins with a value at each middle (a granularity stays points)
        )
    except ValueError as error:  # the domain's own checks (DataError among them), naming the column
        raise DataError(f"domain of {column!r}: {error}") from error


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are distinct: ``json`` keeps the last of two equal keys, which silently
    dropped a column's first declaration."""
    keys = [key for key, _ in pairs]
    twice = sorted({key for key in keys if keys.count(key) > 1})
    if twice:
        raise DataError(
            f"{', '.join(map(repr, twice))} is declared twice; each column, and each key of its entry, may "
            "appear once"
        )
    return dict(pairs)


def read_domains(path: Path) -> tuple[tuple[str, ...], tuple[Domain, ...]]:
    """Columns (in the file's key order) and their declared domains from DOMAINS.json."""
    try:  # utf-8-sig: an editor's byte-order mark (Notepad writes one) is not part of the JSON
        declared = json.loads(path.read_text(encoding="utf-8-sig"), object_pairs_hook=_once_each)
    except UnicodeDecodeError as error:
        raise DataError(
            f"{path}: cannot read the domains: the file is not UTF-8 text ({error}); save it as UTF-8"
        ) from error
    except (OSError, json.JSONDecodeError) as error:
        raise DataError(f"{path}: cannot read the domains ({error})") from error
    except RecursionError:  # 100,000 nested brackets (a CLI fuzz): no domain is written so
        raise DataError(f"{path}: cannot read the domains (nested too deeply to be DOMAINS.json)") from None
    except DataError as error:
        raise DataError(f"{path}: {error}") from None
    if not isinstance(declared, dict) or not declared:
        raise DataError(f"{path}: expected an object mapping each column to its domain")
    try:
        return tuple(declared), tuple(domain_entry(column, entry) for column, entry in declared.items())
    except OverflowError as error:  # a 400-digit bound: float() overflows (a CLI fuzz)
        raise DataError(f"{path}: a number there is too large for a bound or a count ({error})") from None


def entry_of(domain: Domain) -> dict[str, Any]:
    """The DOMAINS.json entry that ``domain_entry`` reads back as ``domain``."""
    if isinstance(domain, CategoricalDomain):
        return {"categories": list(domain.categories), "other": domain.other}
    entry: dict[str, Any] = {"lower": float(domain.lower), "upper": float(domain.upper)}
    entry |= {"bins": domain.size} if domain.binned else {"granularity": float(domain.granularity)}
    return {**entry, "unit": domain.unit} if domain.unit else entry


def write_domains(path: Path, columns: Sequence[str], domains: Sequence[Domain]) -> None:
    """Save the declaration as DOMAINS.json (public facts only: bounds, grids, categories, units)."""
    declared = {column: entry_of(domain) for column, domain in zip(columns, domains, strict=True)}
    path.write_text(json.dumps(declared, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
