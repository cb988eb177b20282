"""Labelled rows as the learners read them, and the replace-one neighbours of a small labelled dataset."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from tests.exact import max_log_ratio


def labelled_counts(xs: np.ndarray, ys: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows (feature grid index, label) as the learners take them: distinct values, positives, negatives."""
    values, inverse = np.unique(np.asarray(xs).astype(np.uint64), return_inverse=True)
    positives = np.bincount(inverse, weights=ys, minlength=values.size).astype(np.int64)
    return values, positives, np.bincount(inverse, minlength=values.size).astype(np.int64) - positives


def worst_replace_one_ratio(
    law: Callable[[np.ndarray, np.ndarray], Mapping[object, float]],
    xs: np.ndarray,
    ys: np.ndarray,
    size: int,
    step: int = 3,
) -> float:
    """The largest max_o |ln P(o) - ln P'(o)| between the law on (xs, ys) and on each dataset with one row
    replaced by (x, y), x every ``step``-th grid point, y either label."""
    base, worst = law(xs, ys), 0.0
    for i in range(len(xs)):
        for x in range(0, size, step):
            for y in (False, True):
                xs2, ys2 = xs.copy(), ys.copy()
                xs2[i], ys2[i] = x, y
                worst = max(worst, max_log_ratio(base, law(xs2, ys2)))
    return worst
