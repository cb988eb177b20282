"""The sparse vector technique: AboveThreshold and its c-fold repetition.

AboveThreshold (Dwork-Roth 2014, Alg. 1; paper 002 Thm 4.2): rho ~ Lap(2/eps) once, each query gets
nu_i ~ Lap(4/eps), answer "above" when f_i(S) + nu_i >= T + rho and halt. It is eps-DP for any number of
"below" answers when every f_i has sensitivity 1. The proof shifts rho by 1 and one nu by 2; integer shifts
are bijections of Z, so discrete Laplace noise (used here) keeps the proof intact for real-valued queries.
The comparison is exact (f_i - T >= rho - nu_i in rationals, the noises kept as integers): a floating-point
sum could round f_i + nu_i and T + rho differently for neighbouring inputs. The proof still needs each f_i to
move by at most 1 exactly; a caller whose f_i is computed in floating point passes it as an exact
``Fraction`` (Huang-Roth's test).

Accuracy: with probability >= 1 - beta over m queries, "above" implies f >= T - alpha and "below" implies
f <= T + alpha, alpha = (8/eps) ln(2m/beta).

:class:`SparseVector` allows up to ``max_above`` "above" answers by restarting AboveThreshold with
eps / max_above each time (Dwork-Roth Alg. 2, basic composition), and refuses further queries after that.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from dpgui.privacy.random import PrivateRandom


class SparseVectorExhausted(RuntimeError):
    """Raised when a query arrives after the last permitted "above" answer."""


@dataclass(frozen=True)
class SparseVectorParameters:
    threshold: float
    epsilon: float
    max_above: int = 1

    def __post_init__(self) -> None:
        if not (math.isfinite(self.epsilon) and self.epsilon > 0):
            raise ValueError("epsilon must be > 0")
        if self.max_above < 1:
            raise ValueError("max_above must be >= 1")

    @property
    def epsilon_per_round(self) -> float:
        return self.epsilon / self.max_above

    @property
    def threshold_scale(self) -> float:
        """The discrete Laplace scale of rho, 2 / eps per round."""
        return 2 / self.epsilon_per_round

    @property
    def query_scale(self) -> float:
        """The discrete Laplace scale of each nu_i, 4 / eps per round."""
        return 4 / self.epsilon_per_round

    def accuracy(self, queries: int, beta: float) -> float:
        """alpha = (8 c / eps) ln(2 m c / beta) for m queries and c rounds (union bound over rounds)."""
        return (8 / self.epsilon_per_round) * math.log(2 * queries * self.max_above / beta)


class SparseVector:
    """An online sparse-vector session: ask sensitivity-1 queries one at a time."""

    def __init__(self, params: SparseVectorParameters, rng: PrivateRandom) -> None:
        self.params = params
        self._rng = rng
        self.above_count = 0
        self._threshold = Fraction(self.params.threshold)
        self._threshold_noise = self._draw_threshold_noise()

    def _draw_threshold_noise(self) -> int:
        return int(self._rng.discrete_laplace(self.params.threshold_scale, 1)[0])

    @property
    def exhausted(self) -> bool:
        return self.above_count >= self.params.max_above

    def is_above(self, value: float | int | Fraction) -> bool:
        """One query: True for "above" (which may end the session), False for "below"; ``value`` is f_i(S),
        compared exactly (module doc)."""
        if self.exhausted:
            raise SparseVectorExhausted(
                f"the sparse vector has given its {self.params.max_above} 'above' answers; "
                "no more queries can be answered within its budget"
            )
        noise = int(self._rng.discrete_laplace(self.params.query_scale, 1)[0])
        above = Fraction(value) - self._threshold >= self._threshold_noise - noise
        if above:
            self.above_count += 1
            if not self.exhausted:
                self._threshold_noise = self._draw_threshold_noise()
        return above
