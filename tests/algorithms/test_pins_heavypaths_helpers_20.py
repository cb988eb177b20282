"""Pins HeavyPaths' data-side steps to their definitions (mutation scan 20).

HeavyPaths (paper 002 Alg. 2-6; spec 002 s6) builds the databases S_1..S_M along deterministic heavy paths,
asks a StoppingPoint (sparse vector) about each database's largest multiplicity, then runs HeavyBin
(d_hat = 1) or OneRandomPath on S_{d_hat - 1} followed by LevelUps back to S_1. The privacy proof
(spec 002 s6.2-s6.5) composes exactly these calls with these inputs: HeavyBin on the element counts of S,
the random path on the t-trimmed S_d, HeavyBin over the fall-off level counts, and one lift per database.

Survivors this pins (non-keyword lines of heavypaths.py): slips in ``heavy_path``'s heavier-child rule and
stopping test, ``construct_paths``' trimming and chain, ``max_multiplicity``, and the data flow of
``heavypaths`` (which database, which bits, which trimmed slice, which level and HeavyBin each call gets).
"""

from __future__ import annotations

import numpy as np
import pytest

from dpgui.algorithms import heavypaths as module
from dpgui.algorithms.heavypaths import HeavyPathsParameters, heavypaths_min_n
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import fall_off_levels


def heavy_path_brute(points: list[int], bits: int, t: int) -> tuple[int, int]:
    """Alg. 2 step 4: from the root, go to the heavier child (ties to the left) while weight > t."""
    level, prefix = 0, 0
    members = list(points)
    while level < bits and len(members) > t:
        left = [x for x in members if (x >> (bits - level - 1)) & 1 == 0]
        right = [x for x in members if (x >> (bits - level - 1)) & 1 == 1]
        step = int(len(right) > len(left))
        members = right if step else left
        prefix, level = 2 * prefix + step, level + 1
    return level, prefix


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("t", [0, 2, 9, 30])
def test_heavy_path_follows_the_heavier_child(seed: int, t: int) -> None:
    """The deterministic heavy path of ConstructPaths, ties to the left child, stopping at weight <= t."""
    rng = np.random.default_rng(seed)
    bits = 5
    raw = rng.integers(0, 2**bits, size=40) if seed % 2 else rng.choice([3, 4, 4, 20, 21, 21], size=40)
    points = np.sort(raw.astype(np.uint64))
    assert module.heavy_path(points, bits, t) == heavy_path_brute(points.tolist(), bits, t)


def test_heavy_path_breaks_a_tie_to_the_left() -> None:
    """Equal children: the path goes left (Alg. 2 step 4 "ties to the left")."""
    points = np.array([0, 1, 2, 3], dtype=np.uint64)
    assert module.heavy_path(points, 2, 0) == (2, 0)
    assert module.heavy_path(points, 2, 1) == (2, 0)
    assert module.heavy_path(points, 2, 2) == (1, 0)


@pytest.mark.parametrize(("bits", "t", "size"), [(8, 3, 60), (8, 10, 60), (16, 5, 200), (8, 25, 60)])
def test_construct_paths_builds_each_database_from_the_trimmed_previous_one(
    bits: int, t: int, size: int
) -> None:
    """S_{d+1} = the |S_d| - 3t smallest fall-off levels of the t-trimmed S_d along its heavy path, on
    chain[d] bits (Alg. 2; spec 002 s6.1)."""
    rng = np.random.default_rng(bits + t)
    points = np.sort(rng.choice(np.arange(0, 2**bits, 7), size=size).astype(np.uint64))
    chain = module.bit_chain(bits)
    got = module.construct_paths(points, chain, t)
    expected = [points]
    for b in chain[:-1]:
        current = expected[-1]
        trimmed = current[t : max(current.size - t, t)]
        length, prefix = heavy_path_brute(trimmed.tolist(), b, t)
        levels = np.sort(fall_off_levels(trimmed, b, length, prefix)).astype(np.uint64)
        expected.append(levels[: max(current.size - 3 * t, 0)])
    assert len(got) == len(chain)
    for g, e in zip(got, expected, strict=True):
        assert g.tolist() == e.tolist()


def test_max_multiplicity() -> None:
    """f_d = the largest multiplicity in S_d, 0 when S_d is empty (Alg. 3; sensitivity 1)."""
    assert module.max_multiplicity(np.array([1, 2, 2, 5, 5, 5, 9], dtype=np.uint64)) == 3
    assert module.max_multiplicity(np.array([7], dtype=np.uint64)) == 1
    assert module.max_multiplicity(np.array([], dtype=np.uint64)) == 0


class StopAt:
    """StoppingPoint stand-in: "above" first at database ``d``; records what it is asked."""

    def __init__(self, d: int) -> None:
        self.d, self.values = d, []
        self.params: list[object] = []

    def __call__(self, params: object, rng: object) -> StopAt:
        self.params.append(params)
        return self

    def is_above(self, value: float) -> bool:
        self.values.append(value)
        return len(self.values) == self.d


def steered(monkeypatch: pytest.MonkeyPatch, stop: int, path: tuple[int, int] = (3, 5)) -> dict:
    """Run HeavyPaths on 16-bit data (chain 16, 5, 3: M = 3) with d_hat = ``stop``, every mechanism
    replaced by a recorder that returns a fixed answer."""
    log: dict[str, list] = {"heavy_bin": [], "sample_path": [], "lift": []}
    stopper = StopAt(stop)

    def heavy_bin(counts, params, rng):
        log["heavy_bin"].append((np.asarray(counts).tolist(), params))
        return len(counts) - 1

    def sample_path(trimmed, bits, t, eps, rng):
        log["sample_path"].append((trimmed.tolist(), bits, t, eps))
        return path

    def lift(points, trimmed, bits, level, heavy, epsilon, rng):
        log["lift"].append((points.tolist(), trimmed.tolist(), bits, level, heavy, epsilon))
        return 3 if len(log["lift"]) == 1 else 7

    monkeypatch.setattr(module, "SparseVector", stopper)
    monkeypatch.setattr(module, "heavy_bin", heavy_bin)
    monkeypatch.setattr(module, "sample_path", sample_path)
    monkeypatch.setattr(module, "lift", lift)
    n = heavypaths_min_n(3.0, 1e-2, 0.05, 16)
    params = HeavyPathsParameters.build(3.0, 1e-2, 0.05, 16, n)
    rng = np.random.default_rng(16)
    raw = np.concatenate([rng.integers(0, 2**16, size=n // 2), np.full(n - n // 2, 40000)])
    values, counts = np.unique(raw.astype(np.uint64), return_counts=True)
    out = run_to_end(module.heavypaths(values, counts, params, None, allow_below_requirement=True))  # type: ignore[arg-type]
    points = np.repeat(values, counts)
    log.update(out=out.index, params=params, stopper=stopper, points=points, values=values, counts=counts)
    log["databases"] = module.construct_paths(points, params.chain, params.t)
    return log


def test_stop_at_one_runs_heavy_bin_on_the_element_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """d_hat = 1: HeavyBin over S's distinct elements at (eps/4, delta_rest/2, replace-one); the output is
    the chosen element (spec 002 s6.5). The StoppingPoint runs at threshold k/2 and eps/4."""
    log = steered(monkeypatch, 1)
    params = log["params"]
    (counts, heavy), *rest = log["heavy_bin"]
    assert not rest and not log["sample_path"] and not log["lift"]
    assert counts == log["counts"].tolist()
    assert heavy == params.first_level_heavy_bin
    assert log["out"] == int(log["values"][-1])
    (svt,) = log["stopper"].params
    assert (svt.threshold, svt.epsilon) == (params.k / 2, params.eps_svt)
    assert log["stopper"].values == [module.max_multiplicity(log["databases"][0])]


@pytest.mark.parametrize("stop", [2, 3])
def test_one_random_path_then_level_ups_get_the_right_databases(
    monkeypatch: pytest.MonkeyPatch, stop: int
) -> None:
    """d_hat >= 2: OneRandomPath on S_{d_hat - 1} (chain[d_hat - 2] bits): a random path on its t-trimmed
    slice, HeavyBin over the counts of the |S| - 3t smallest fall-off levels, a lift at min(level, bits);
    then one LevelUp per database S_{d_hat - 2}, ..., S_1 at level min(y, bits) (spec 002 s6.3-s6.4)."""
    log = steered(monkeypatch, stop)
    params, t, chain, dbs = log["params"], log["params"].t, log["params"].chain, log["databases"]
    assert log["stopper"].values == [module.max_multiplicity(db) for db in dbs[:stop]]
    d = stop - 1
    current, bits = dbs[d - 1], chain[d - 1]
    trimmed = current[t : current.size - t]
    ((path_trimmed, path_bits, path_t, path_eps),) = log["sample_path"]
    assert (path_trimmed, path_bits, path_t, path_eps) == (trimmed.tolist(), bits, t, params.eps_path)
    level_db = np.sort(fall_off_levels(trimmed, bits, 3, 5))[: max(current.size - 3 * t, 0)]
    levels, level_counts = np.unique(level_db, return_counts=True)
    ((counts, heavy),) = log["heavy_bin"]
    assert counts == level_counts.tolist() and len(counts) >= 2
    assert heavy == params.one_random_path_heavy_bin
    first, *ups = log["lift"]
    assert first == (
        current.tolist(),
        trimmed.tolist(),
        bits,
        min(int(levels[-1]), bits),
        params.one_random_path_heavy_bin,
        params.eps_path,
    )
    assert len(ups) == stop - 2
    y = 3
    for up, d_up in zip(ups, range(stop - 2, 0, -1), strict=True):
        current, bits = dbs[d_up - 1], chain[d_up - 1]
        trimmed = current[t : current.size - t]
        expected = (
            current.tolist(),
            trimmed.tolist(),
            bits,
            min(y, bits),
            params.level_up_heavy_bin,
            params.eps_level_up,
        )
        assert up == expected
        y = 7
    assert log["out"] == (3 if stop == 2 else 7)
