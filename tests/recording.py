"""Randomness that records what a mechanism asks of it, so a privacy test checks the law the code samples.

A privacy test built on these never re-derives a mechanism's constants from the textbook: it runs the code,
reads the noise scales, the Gumbel-max log-weights and (by steering the noise) the thresholds the code
actually uses, and checks the resulting exact output law against the (epsilon, delta) the user asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import NamedTuple

import numpy as np

from dpgui.privacy.random import PrivateRandom, SeededRandom, discrete_laplace_tail


class NoiseRequest(NamedTuple):
    """One noise draw the code asked for: ``kind`` is "laplace" or "gaussian"."""

    kind: str
    scale: float
    size: int


class RecordingRandom(SeededRandom):
    """Seeded randomness that records every noise request and every Gumbel-max choice.

    With ``zero=True`` every noise value is 0, so a run releases the exact statistic (the law's centre).
    ``noise`` hands out those values first (in request order), then zeros or seeded noise.
    """

    def __init__(self, seed: int = 0, *, zero: bool = False, noise: list[int] | None = None) -> None:
        super().__init__(seed)
        self.requests: list[NoiseRequest] = []
        self.log_weights: list[np.ndarray] = []
        self.zero = zero
        self._fixed = list(noise or [])
        self._sampling = False

    def _draw(
        self, kind: str, scale: float, size: int, sample: Callable[[float, int], np.ndarray]
    ) -> np.ndarray:
        if self._sampling:  # a sampler's own draws (the discrete Gaussian's Laplace proposals): not requests
            return sample(scale, size)
        self.requests.append(NoiseRequest(kind, float(scale), size))
        taken, self._fixed = self._fixed[:size], self._fixed[size:]
        rest = size - len(taken)
        self._sampling = True
        try:
            tail = np.zeros(rest, dtype=np.int64) if self.zero or not rest else sample(scale, rest)
        finally:
            self._sampling = False
        return np.concatenate([np.asarray(taken, dtype=np.int64), tail])

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        return self._draw("laplace", scale, size, super().discrete_laplace)

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        return self._draw("gaussian", sigma, size, super().discrete_gaussian)

    def choose_index(self, log_weights: np.ndarray) -> int:
        self.log_weights.append(np.array(log_weights, dtype=np.float64, copy=True))
        return super().choose_index(log_weights)

    def scales(self, kind: str = "laplace") -> list[float]:
        """The scales (or sigmas) requested, in order, one per request."""
        return [r.scale for r in self.requests if r.kind == kind]

    @property
    def laplace_scales(self) -> list[float]:
        return self.scales("laplace")


def chosen_law(log_weights: np.ndarray) -> np.ndarray:
    """The probabilities Gumbel-max samples from, exp(w_i) / sum_j exp(w_j), from recorded log-weights."""
    w = np.asarray(log_weights, dtype=np.float64)
    top = np.max(w)
    p = np.exp(w - top)
    return p / p.sum()


def smallest_releasing_noise(releases: Callable[[int], bool], low: int = -(10**6), high: int = 10**6) -> int:
    """The smallest integer noise value z for which ``releases(z)`` holds (monotone in z), by bisection.

    A mechanism that releases when ``statistic + Z >= tau`` exposes its integer threshold this way:
    tau = statistic + smallest_releasing_noise(...). This observes the code, not its formula.
    """
    if releases(low) or not releases(high):
        raise AssertionError("the release decision is not monotone on the searched range")
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if releases(middle) else (middle, high)
    return high


class SteeredRandom(RecordingRandom):
    """Zero noise (after the values of ``noise``), and every selection (Gumbel-max index, uniform integer)
    taken from ``path``, then the first possible one.

    ``trace`` records each selection: ("choose", probabilities, taken) or ("below", n, taken).
    """

    def __init__(self, path: tuple[int, ...], noise: list[int] | None = None) -> None:
        super().__init__(zero=True, noise=noise)
        self._path = list(path)
        self.trace: list[tuple[str, object, int]] = []

    def _next(self, default: int = 0) -> int:
        return self._path.pop(0) if self._path else default

    def choose_index(self, log_weights: np.ndarray) -> int:
        self.log_weights.append(np.array(log_weights, dtype=np.float64, copy=True))
        law = chosen_law(log_weights)
        taken = self._next(int(np.flatnonzero(law > 0)[0]))
        self.trace.append(("choose", law, taken))
        return taken

    def randbelow(self, n: int) -> int:
        taken = self._next()
        self.trace.append(("below", n, taken))
        return taken


def steered_runs(
    run: Callable[[SteeredRandom], object], max_leaves: int = 100_000, noise: list[int] | None = None
) -> Iterator[tuple[SteeredRandom, object, float]]:
    """Every path of a selection sampler's choices: (its steered randomness, output, probability).

    Each run follows a path of selections; its probability is the product of the probabilities the code
    computed for them (Gumbel-max: its recorded log-weights; a uniform integer below n: 1/n). The first
    selection past the path branches into all of its alternatives. Noise draws are ``noise``, then zero.
    """
    stack: list[tuple[int, ...]] = [()]
    leaves = 0
    while stack:
        path = stack.pop()
        rng = SteeredRandom(path, noise)
        output = run(rng)
        probability = 1.0
        for depth, (kind, what, taken) in enumerate(rng.trace):
            if depth == len(path):
                options = (
                    np.flatnonzero(np.asarray(what) > 0).tolist() if kind == "choose" else range(int(what))
                )
                stack.extend((*path, int(i)) for i in options if i != taken)
            probability *= float(np.asarray(what)[taken]) if kind == "choose" else 1 / int(what)
            path = (*path, taken) if depth >= len(path) else path
        yield rng, output, probability
        leaves += 1
        if leaves > max_leaves:
            raise AssertionError("too many paths to enumerate: use a smaller instance")


def enumerated_law(
    run: Callable[[SteeredRandom], object], max_leaves: int = 100_000, noise: list[int] | None = None
) -> dict[object, float]:
    """The exact output law of a selection sampler, by steering it down every path of its choices."""
    law: dict[object, float] = {}
    for _, output, probability in steered_runs(run, max_leaves, noise):
        law[output] = law.get(output, 0.0) + probability
    return law


class UnreachablePath(Exception):
    """Raised by a steered stand-in when a replayed path takes an outcome of probability 0 on its input."""


def selection_laws(rng: SteeredRandom) -> list[np.ndarray]:
    """The probability vectors of the Gumbel-max selections a steered run made, in order."""
    return [np.asarray(what) for kind, what, _ in rng.trace if kind == "choose"]


def paired_selection_laws(
    first: Callable[[SteeredRandom], object], second: Callable[[SteeredRandom], object]
) -> Iterator[list[tuple[np.ndarray, np.ndarray]]]:
    """For every path of either run (two neighbouring inputs), the laws of their i-th selections on it.

    Each path one run can take is replayed on the other, so the i-th pair is the two laws the code
    samples its i-th selection from after the same earlier outcomes (adaptive composition). A replay that
    raises :class:`UnreachablePath` is compared up to that selection.
    """
    for this, other in ((first, second), (second, first)):
        for rng, _, _ in steered_runs(this):
            replay = SteeredRandom(tuple(taken for _, _, taken in rng.trace))
            try:
                other(replay)
                laws = selection_laws(rng)
            except UnreachablePath:  # the rest of the path has probability 0 on the other input
                laws = selection_laws(rng)[: len(selection_laws(replay))]
            pairs = list(zip(laws, selection_laws(replay), strict=True))
            if any(a.shape != b.shape for a, b in pairs):
                raise AssertionError("neighbouring runs made different selections on the same path")
            yield pairs


def noisy_count_law(run: Callable[[SteeredRandom], object], reach: int = 10**4) -> dict[object, float]:
    """The exact output law of a sampler that first draws one discrete Laplace value Z (a noisy count
    compared with thresholds) and then makes selections.

    The run with Z = z falls in one of a few regimes, ordered in z (its number of selections, or its output
    when it makes none); the regime boundaries are found by bisection over steered z, each regime's law is
    :func:`enumerated_law` at its first z, weighted by P(Z in regime) at the scale the code requested.
    """

    def regime(z: int) -> object:
        rng = SteeredRandom((), noise=[z])
        output = run(rng)
        return len(rng.trace) if rng.trace else ("output", output)

    probe = RecordingRandom(zero=True)
    run(probe)
    scale = probe.requests[0].scale
    starts = [-reach]
    while regime(starts[-1]) != regime(reach):
        first = regime(starts[-1])
        starts.append(smallest_releasing_noise(lambda z, first=first: regime(z) != first, starts[-1], reach))
    law: dict[object, float] = {}
    for start, end in zip(starts, [*starts[1:], None], strict=True):
        below_end = 1.0 - at_least(end, scale) if end is not None else 1.0
        mass = below_end - (1.0 - at_least(start, scale) if start != starts[0] else 0.0)
        for output, probability in enumerated_law(run, noise=[start]).items():
            law[output] = law.get(output, 0.0) + mass * probability
    return law


def at_least(k: int, scale: float) -> float:
    """P(Z >= k) for Z discrete Laplace of ``scale`` and any integer k."""
    return discrete_laplace_tail(k, scale) if k >= 0 else 1 - discrete_laplace_tail(1 - k, scale)


class ScriptedRandom(PrivateRandom):
    """A generator for pins that script the draws they steer: each sampler a pin does not override fails the
    test, so the code under test cannot draw something the pin did not expect."""

    is_private = False
    description = "scripted"

    def uniform01(self, size: int) -> np.ndarray:
        raise AssertionError("not used")

    def randbelow(self, n: int) -> int:
        raise AssertionError("not used")

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        raise AssertionError("not used")

    def discrete_gaussian(self, sigma: float, size: int) -> np.ndarray:
        raise AssertionError("not used")


class Captured(Exception):
    """Raised by :func:`captured_call`'s stand-in to stop a run once it has recorded its call."""


def captured_call(monkeypatch, module: object, name: str, run: Callable[[], object]) -> tuple[tuple, dict]:
    """The positional and keyword arguments the code passes to ``module.name`` (replaced, via
    ``monkeypatch``, by a stand-in that records them and stops the run): what an algorithm is asked for."""
    seen: list[tuple[tuple, dict]] = []

    def stand_in(*args: object, **kwargs: object) -> object:
        seen.append((args, kwargs))
        raise Captured

    monkeypatch.setattr(module, name, stand_in)
    try:
        outcome = run()
        if hasattr(outcome, "send"):  # an algorithm run: drive it until the stand-in stops it
            while True:
                outcome.send(None)
    except (Captured, StopIteration):
        pass
    if not seen:
        raise AssertionError(f"{name} was never called")
    return seen[0]
