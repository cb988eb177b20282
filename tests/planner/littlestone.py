"""Littlestone and VC dimensions of small finite concept classes (spec 003 s2.4 and A7): a test oracle.

The planner states the thresholds' dimension in closed form (``floors.threshold_ldim``); the tests check it
against this brute-force calculator, which the app itself never needs.

A class is a sequence of concepts over points 0..N-1, each concept an int bitmask (bit x set iff c(x) = 1).
LDim uses the decision version with memoisation and the halving prune (spec 003 A7); the naive recursion
is far too slow on classes such as lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations


def _distinct(concepts: Iterable[int]) -> frozenset[int]:
    return frozenset(concepts)


def littlestone_dimension(concepts: Sequence[int], points: int) -> int:
    """The depth of the deepest complete mistake tree; -1 for the empty class."""
    cs = _distinct(concepts)
    if not cs:
        return -1

    @cache
    def shatters(subset: frozenset[int], depth: int) -> bool:
        if depth == 0:
            return len(subset) >= 1
        if len(subset) < 2**depth:
            return False
        need = 2 ** (depth - 1)
        for x in range(points):
            ones = frozenset(c for c in subset if c >> x & 1)
            zeros = subset - ones
            if min(len(ones), len(zeros)) < need:
                continue
            if shatters(ones, depth - 1) and shatters(zeros, depth - 1):
                return True
        return False

    depth = 0
    while shatters(cs, depth + 1):
        depth += 1
    return depth


def vc_dimension(concepts: Sequence[int], points: int) -> int:
    """The largest number of points the class shatters (brute force; small classes only)."""
    cs = _distinct(concepts)
    if not cs:
        return -1
    best = 0
    for size in range(1, points + 1):
        if 2**size > len(cs):
            break
        shattered = False
        for subset in combinations(range(points), size):
            mask = sum(1 << x for x in subset)
            if len({c & mask for c in cs}) == 2**size:
                shattered = True
                break
        if not shattered:
            break
        best = size
    return best


def thresholds(points: int) -> list[int]:
    """t_x(y) = 1 iff y >= x, for x in 0..points-1 (spec 003 s2.5: no all-zero concept)."""
    return [sum(1 << y for y in range(x, points)) for x in range(points)]


def point_functions(points: int, with_zero: bool = False) -> list[int]:
    return [1 << x for x in range(points)] + ([0] if with_zero else [])


def intervals(points: int, with_empty: bool = True) -> list[int]:
    spans = [sum(1 << y for y in range(a, b + 1)) for a in range(points) for b in range(a, points)]
    return spans + ([0] if with_empty else [])


def boxes_2d(side: int) -> list[int]:
    """Axis-parallel boxes on a side x side grid; point (i, j) has index i * side + j."""
    out = set()
    for a1 in range(side):
        for b1 in range(a1, side):
            for a2 in range(side):
                for b2 in range(a2, side):
                    out.add(sum(1 << (i * side + j) for i in range(a1, b1 + 1) for j in range(a2, b2 + 1)))
    return sorted(out)


def lines(p: int) -> list[int]:
    """Line_p: f_{a,b}(x, y) = 1 iff a x + b = y (mod p), over Z_p^2 with index x * p + y."""
    return [sum(1 << (x * p + (a * x + b) % p) for x in range(p)) for a in range(p) for b in range(p)]
