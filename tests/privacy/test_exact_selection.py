"""Selection on private data is exact: ``SecureRandom.choose_index`` is OpenDP's Gumbel noisy max over the
finite log-weights, not floating-point Gumbel noise from 53-bit uniforms, whose lattice never chose a
candidate more than 40.4 below the best (an infinite likelihood ratio between neighbours)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from dpgui.privacy import random as module
from dpgui.privacy.random import SecureRandom, SeededRandom


def test_the_floating_point_gumbel_noise_is_bounded_which_is_why_private_selection_does_not_use_it():
    """The largest and smallest variates 53-bit uniforms can give: a gap above their spread is never
    crossed, so the float sampler gives probability 0 where the exponential mechanism gives e^-41."""
    extremes = module._uniform_from_uint64(np.array([0, 2**64 - 1], dtype=np.uint64))
    lowest, highest = -np.log(-np.log(extremes))
    assert highest - lowest < 40.4
    assert np.argmax(np.array([0.0, -41.0]) + np.array([lowest, highest])) == 0  # even the best case


def test_private_selection_is_opendp_noisy_max_over_the_finite_weights(monkeypatch):
    seen: list[list[float]] = []

    def noisy_max(weights: list[float]) -> int:
        seen.append(weights)
        return int(np.argmax(weights))

    monkeypatch.setattr(module, "_opendp_noisy_max", lambda: noisy_max)
    weights = np.array([-np.inf, 1.0, 3.0, -np.inf, 2.0])
    assert SecureRandom().choose_index(weights) == 2
    assert seen == [[1.0, 3.0, 2.0]]
    assert SecureRandom().choose_index(np.array([-np.inf, 0.5])) == 1 and len(seen) == 1  # no draw needed


def test_the_apps_cancellable_generator_keeps_the_exact_selection(monkeypatch):
    """The app's runs draw through ``CancellableRandom``: it used the base class's floating-point
    Gumbel-max, so the exact sampler served the command line only."""
    from dpgui.privacy.cancellable import CancellableRandom

    seen: list[list[float]] = []
    monkeypatch.setattr(module, "_opendp_noisy_max", lambda: lambda weights: seen.append(weights) or 1)
    assert CancellableRandom(SecureRandom(), lambda: False).choose_index(np.array([0.0, 2.0])) == 1
    assert seen == [[0.0, 2.0]]


def test_private_selection_samples_the_softmax():
    weights = np.array([0.0, math.log(2.0), math.log(5.0), -np.inf])
    draws = 6_000
    counts = np.bincount([SecureRandom().choose_index(weights) for _ in range(draws)], minlength=4)
    expected = np.array([1, 2, 5, 0]) / 8
    assert counts[3] == 0
    assert np.all(np.abs(counts / draws - expected) <= 4 * np.sqrt(expected * (1 - expected) / draws))


def test_the_opendp_sampler_reads_gumbel_noise_of_scale_one():
    """Scale 1: index 1 of (0, ln 3) comes out 3 times in 4 (a scale of 2 would give 0.63)."""
    sampler = module._opendp_noisy_max()
    draws = 6_000
    share = sum(sampler([0.0, math.log(3.0)]) for _ in range(draws)) / draws  # type: ignore[operator]
    assert share == pytest.approx(0.75, abs=4 * math.sqrt(0.75 * 0.25 / draws))


def test_seeded_selection_keeps_its_reproducible_floating_point_draw():
    weights = np.array([0.0, 1.0, 2.0])
    assert SeededRandom(3).choose_index(weights) == SeededRandom(3).choose_index(weights)
