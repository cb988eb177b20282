"""JSON as every parser reads it: Python writes an infinite or undefined float as Infinity or NaN, which
are not JSON (RFC 8259), so a strict reader (JavaScript's, jq, Go's) refuses the whole document. Such a
number, an infeasible algorithm's predicted error for instance, is written as null."""

from __future__ import annotations

import json
import math
from typing import Any


def finite_json(value: Any) -> Any:
    """``value`` (dicts, lists and tuples of JSON values) with every non-finite float replaced by None."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {key: finite_json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [finite_json(item) for item in value]
    return value


def json_text(value: Any, **options: Any) -> str:
    """``json.dumps`` of ``finite_json(value)``, refusing any non-finite number left (``allow_nan=False``)."""
    return json.dumps(finite_json(value), allow_nan=False, **options)
