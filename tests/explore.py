"""Exact output laws of randomized algorithms, by enumerating every sequence of random choices.

A :class:`ScriptedRandom` answers each random request from a script of choice indices; when the script
runs out it raises :class:`NeedChoice` with the number of options, and :func:`output_law` explores every
extension depth first. Each branch's probability is the product of the probabilities of its choices,
computed from what the algorithm asked for (the scale it requested, the log-weights it handed over), so
the law is the algorithm's own, not a re-derivation.

Discrete Laplace draws are enumerated over -K..K with the two tails lumped into -K and K: exact as long as
every comparison the algorithm makes with the noise has its threshold strictly inside (-K, K - 1), which
tests ensure by the size of their inputs.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Hashable

import numpy as np

from dpgui.privacy.random import SeededRandom, discrete_laplace_tail
from tests.exact import discrete_laplace_pmf, log_probabilities


class NeedChoice(Exception):
    def __init__(self, options: int) -> None:
        super().__init__(options)
        self.options = options


class Impossible(Exception):
    """The scripted choice has probability 0: the branch contributes nothing."""


class ScriptedRandom(SeededRandom):
    """Randomness whose every draw is the next scripted choice; records what was asked for."""

    def __init__(self, script: tuple[int, ...], tail: int) -> None:
        super().__init__(0)
        self.script, self.position, self.tail = script, 0, tail
        self.probability = 1.0
        self.laplace_scales: list[float] = []
        self.log_weights: list[np.ndarray] = []

    def choose(self, probabilities: np.ndarray) -> int:
        if self.position == len(self.script):
            raise NeedChoice(len(probabilities))
        index = self.script[self.position]
        self.position += 1
        self.probability *= float(probabilities[index])
        if self.probability == 0.0:
            raise Impossible
        return index

    def discrete_laplace(self, scale: float, size: int) -> np.ndarray:
        self.laplace_scales.append(scale)
        values = np.arange(-self.tail, self.tail + 1)
        law = discrete_laplace_pmf(values, scale)
        law[0] = law[-1] = discrete_laplace_tail(self.tail, scale)  # P(Z <= -K) = P(Z >= K)
        return np.array([values[self.choose(law)] for _ in range(size)], dtype=np.int64)

    def randbelow(self, n: int) -> int:
        return self.choose(np.full(n, 1.0 / n))

    def gumbel_max(self, log_weights: np.ndarray) -> int:
        """Stands in for ``dpgui.privacy.exponential.gumbel_max`` (tests patch it to call this)."""
        self.log_weights.append(np.asarray(log_weights, dtype=np.float64))
        return self.choose(np.exp(log_probabilities(log_weights)))


def output_law(
    run: Callable[[ScriptedRandom], Hashable], tail: int = 8
) -> tuple[dict[Hashable, float], list[ScriptedRandom]]:
    """Every output of ``run`` with its exact probability, and the finished randoms (for their records)."""
    law: dict[Hashable, float] = defaultdict(float)
    finished: list[ScriptedRandom] = []
    stack: list[tuple[int, ...]] = [()]
    while stack:
        script = stack.pop()
        rng = ScriptedRandom(script, tail)
        try:
            output = run(rng)
        except NeedChoice as need:
            stack.extend((*script, i) for i in range(need.options))
            continue
        except Impossible:
            continue
        law[output] += rng.probability
        finished.append(rng)
    total = math.fsum(law.values())
    assert abs(total - 1.0) < 1e-9, f"the enumerated law sums to {total}"
    return dict(law), finished
