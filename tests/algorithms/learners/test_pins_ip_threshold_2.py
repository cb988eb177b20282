"""Pins what the IP reduction hands TreeLog and what it releases on TreeLog's bottom (mutation scan 19).

Survivors this pins: TreeLog built for a public count of 3k or 4k instead of |S| = 2k (its delta0 and
requirement are sized by that count), and TreeLog's bottom mapped to cut -1 or 1 instead of the
always-negative hypothesis, cut 0 (module doc; spec 002 s7 [derived]).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.algorithms.learners import ip_threshold as module
from dpgui.algorithms.learners.ip_threshold import InteriorSolver, IPThresholdParameters, ip_threshold
from dpgui.algorithms.progress import run_to_end
from dpgui.algorithms.treelog import TreeLogParameters, TreeLogRelease
from tests.recording import RecordingRandom

EPSILON, DELTA, BETA, SIZE, N = 2.0, 1e-6, 0.05, 99, 10**6


def run_with_treelog(
    monkeypatch: pytest.MonkeyPatch, index: int | None
) -> tuple[list[tuple[TreeLogParameters, int]], int]:
    """The TreeLog parameters the reduction builds and the cut it releases when TreeLog returns ``index``
    (realizable data: half positives at 10, half negatives at 50; the count noise is 0)."""
    seen: list[tuple[TreeLogParameters, int]] = []

    def treelog(values, counts, tree, rng):
        seen.append((tree, int(np.sum(counts))))
        return TreeLogRelease(index)
        yield  # a generator, like the real one

    monkeypatch.setattr(module, "treelog", treelog)
    params = IPThresholdParameters(N, SIZE, EPSILON, DELTA, BETA, InteriorSolver.TREELOG)
    release = run_to_end(
        ip_threshold(
            np.array([10, 50], dtype=np.uint64),
            np.array([N // 2, 0]),
            np.array([0, N // 2]),
            params,
            RecordingRandom(zero=True),
        )
    )
    return seen, release.hypothesis.cut


def test_treelog_is_built_for_the_public_size_2k_of_s(monkeypatch) -> None:
    """S is k positives and k negatives, so TreeLog's public n is 2k; its (eps2/2, delta/(1 + e^{eps2/2}),
    beta/2) and the cuts' bit-width are the reduction's (module doc)."""
    seen, _ = run_with_treelog(monkeypatch, 40)
    params = IPThresholdParameters(N, SIZE, EPSILON, DELTA, BETA, InteriorSolver.TREELOG)
    [(tree, size_of_s)] = seen
    assert size_of_s == 2 * params.k
    step = 3 * EPSILON / 8
    expected = TreeLogParameters.build(step, DELTA / (1 + math.exp(step)), BETA / 2, 7, 2 * params.k)
    assert tree == expected


def test_treelog_bottom_releases_the_always_negative_cut_0(monkeypatch) -> None:
    """TreeLog's bottom (no interior point) becomes h_0, labelling every point negative (post-processing);
    an interior index j becomes the cut j."""
    assert run_with_treelog(monkeypatch, None)[1] == 0
    assert run_with_treelog(monkeypatch, 40)[1] == 40
