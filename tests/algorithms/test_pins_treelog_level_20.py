"""Pins TreeLog's level step: when it recurses, what it trims and what each step receives (mutation scan 20).

Paper 002 Alg. 1 (spec 002 s4; REVIEW-000-002 s4a): a level trims the t smallest and t largest points (so
add/remove neighbours stay neighbours after trimming), walks the random path on the trimmed points, builds
D from them, recurses, then lifts. The branch to the base exponential mechanism depends on the public n
only: at level l the public size is n - 3 t l, and the base EM runs when it is at most 3t (or at depth N).

Survivors this pins (non-keyword lines of treelog.py): the branch test written ``< 3t``, ``<= 2t`` or
``<= 4t``, and the trim ``points[t : size + t]`` (only the bottom trimmed: the random path would then
see the top t points, which the path argument excludes).
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import treelog as module
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import TreeLogParameters


def steered(
    monkeypatch: pytest.MonkeyPatch, n: int, missing: int = 0
) -> tuple[dict, TreeLogParameters, np.ndarray]:
    log: dict[str, list] = {"em": [], "path": [], "lift": []}

    def em(values, counts, domain, eps, rng):
        log["em"].append((np.repeat(values, counts).tolist(), domain, eps))
        yield from ()

        class Out:
            index = 1

        return Out()

    def sample_path(trimmed, bits, t, eps0, rng):
        log["path"].append((trimmed.tolist(), bits, t, eps0))
        return 2, 3

    def lift(points, trimmed, bits, level, heavy, eps, rng):
        log["lift"].append((points.tolist(), trimmed.tolist(), bits, level))
        return 77

    monkeypatch.setattr(module, "em_interior_point", em)
    monkeypatch.setattr(module, "sample_path", sample_path)
    monkeypatch.setattr(module, "lift", lift)
    params = TreeLogParameters.build(1.0, 1e-3, 0.3, 16, n, 1)
    rng = np.random.default_rng(n)
    values, counts = np.unique(rng.integers(0, 2**16, size=n - missing).astype(np.uint64), return_counts=True)
    points = np.repeat(values, counts)
    out = run_to_end(module.treelog(values, counts, params, None, allow_below_requirement=True))  # type: ignore[arg-type]
    log["out"] = [out.index]
    return log, params, points


def test_public_size_of_exactly_3t_runs_the_base_mechanism(monkeypatch: pytest.MonkeyPatch) -> None:
    """n = 1374 gives t = 458, so n = 3t: the base EM over the whole 16-bit domain at level 0."""
    log, params, points = steered(monkeypatch, 1374)
    assert (params.t, params.depth) == (458, 1)
    assert not log["path"] and not log["lift"]
    assert log["em"] == [(points.tolist(), 1 << 16, params.eps0)]
    assert log["out"] == [1]


def test_public_size_above_3t_recurses_on_the_trimmed_points(monkeypatch: pytest.MonkeyPatch) -> None:
    """n = 1375 = 3t + 1: trim t points at each end, walk the path on them, recurse on the n - 3t smallest
    fall-off levels (base EM over the 5-bit level domain at depth 1), then lift at min(level, 16)."""
    log, params, points = steered(monkeypatch, 1375)
    t = params.t
    assert t == 458
    trimmed = points[t : points.size - t]
    assert log["path"] == [(trimmed.tolist(), 16, t, params.eps0)]
    database = module.next_database(trimmed, 16, 2, 3, points.size - 3 * t)
    assert log["em"] == [(database.tolist(), 1 << module.next_bits(16), params.eps0)]
    assert log["lift"] == [(points.tolist(), trimmed.tolist(), 16, 1)]
    assert log["out"] == [77]


@pytest.mark.parametrize("missing", [1, 3])
def test_a_smaller_database_than_the_public_n_gives_no_negative_size(
    monkeypatch: pytest.MonkeyPatch, missing: int
) -> None:
    """The branch follows the public n = 3t + 1, the sizes follow len(S) (REVIEW-000-002 s4a runs TreeLog
    on n - 1 points): with 3t or fewer points D keeps max(len(S) - 3t, 0) = 0 levels, never a negative
    count, so the base EM sees an empty database (uniform over the level domain)."""
    log, params, points = steered(monkeypatch, 1375, missing)
    assert points.size == 3 * params.t + 1 - missing
    assert log["em"] == [([], 1 << module.next_bits(16), params.eps0)]
