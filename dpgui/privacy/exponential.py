"""The exponential mechanism, sampled in log space.

* Over explicit candidates: P(i) proportional to exp(eps * q_i / (2 Delta)) (McSherry-Talwar 2007;
  paper 000 Prop. 2.25; paper 002 Lemma 2.2), drawn by Gumbel-max so nothing overflows.
* Over a piecewise-constant score on an ordered integer domain of up to 2^64 points (spec 002 s3.1,
  spec 000 s3.2, REVIEW-000-002 s5): each piece [start, end] with score v gets the log-weight
  ln(end - start + 1) + eps v / (2 Delta); a piece is chosen by Gumbel-max and then a uniform integer
  inside it. This is exactly the exponential mechanism over the whole domain, in O(#pieces), never
  enumerating the domain.

Both are eps-DP when the score has sensitivity Delta under the neighbouring relation in use.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dpgui.privacy.random import PrivateRandom


def gumbel_max(log_weights: np.ndarray, rng: PrivateRandom) -> int:
    """Index i drawn with probability exp(w_i) / sum_j exp(w_j); entries of -inf are never chosen."""
    log_weights = np.asarray(log_weights, dtype=np.float64)
    if log_weights.ndim != 1 or log_weights.size == 0:
        raise ValueError("need a non-empty 1-D array of log-weights")
    if np.isnan(log_weights).any() or np.isposinf(log_weights).any():
        raise ValueError("log-weights must be finite or -inf")
    if np.isneginf(log_weights).all():
        raise ValueError("at least one candidate must have positive weight")
    return rng.choose_index(log_weights)


def exponential_mechanism(
    scores: np.ndarray, epsilon: float, rng: PrivateRandom, sensitivity: float = 1.0
) -> int:
    """Index of the chosen candidate; eps-DP for a score of the given sensitivity."""
    _check_epsilon(epsilon)
    return gumbel_max(epsilon * np.asarray(scores, dtype=np.float64) / (2 * sensitivity), rng)


@dataclass(frozen=True)
class PiecewiseScore:
    """A score that is constant on each piece [starts[i], ends[i]] (inclusive) of an integer domain.

    ``starts`` and ``ends`` are uint64 arrays (the domain is at most [0, 2^64 - 1]); the pieces are
    sorted, non-empty, and tile [starts[0], ends[-1]] without gaps or overlaps.
    """

    starts: np.ndarray
    ends: np.ndarray
    scores: np.ndarray

    def __post_init__(self) -> None:
        starts = np.asarray(self.starts, dtype=np.uint64)
        ends = np.asarray(self.ends, dtype=np.uint64)
        scores = np.asarray(self.scores, dtype=np.float64)
        if not (starts.shape == ends.shape == scores.shape and starts.ndim == 1 and starts.size > 0):
            raise ValueError("starts, ends and scores must be 1-D arrays of one non-zero length")
        if np.any(ends < starts):
            raise ValueError("every piece must be non-empty (end >= start)")
        last = np.uint64(2**64 - 1)  # only the last piece may end there: ends + 1 would wrap around to 0
        if starts.size > 1 and (np.any(ends[:-1] == last) or np.any(starts[1:] != ends[:-1] + np.uint64(1))):
            raise ValueError("pieces must tile the domain: each starts right after the previous ends")
        if not np.isfinite(scores).all():
            raise ValueError("scores must be finite")
        object.__setattr__(self, "starts", starts)
        object.__setattr__(self, "ends", ends)
        object.__setattr__(self, "scores", scores)

    @property
    def lengths(self) -> np.ndarray:
        """Piece lengths as float64 (exact below 2^53, correctly rounded above: only logs are taken)."""
        return (self.ends - self.starts).astype(np.float64) + 1.0

    def log_weights(self, epsilon: float, sensitivity: float = 1.0) -> np.ndarray:
        return np.log(self.lengths) + epsilon * self.scores / (2 * sensitivity)


@dataclass(frozen=True)
class PiecewiseChoice:
    """The outcome of :func:`sample_piecewise`: the released point and the piece it came from."""

    point: int
    piece: int


def sample_piecewise(
    score: PiecewiseScore, epsilon: float, rng: PrivateRandom, sensitivity: float = 1.0
) -> PiecewiseChoice:
    """The exponential mechanism over every integer of the scored domain, in O(#pieces).

    P(y) = exp(eps q(y) / (2 Delta)) / Z for each integer y: pick a piece with probability proportional
    to its length times its weight, then a uniform point of the piece (REVIEW-000-002 s5).
    """
    _check_epsilon(epsilon)
    piece = gumbel_max(score.log_weights(epsilon, sensitivity), rng)
    start, end = int(score.starts[piece]), int(score.ends[piece])
    return PiecewiseChoice(point=start + rng.randbelow(end - start + 1), piece=piece)


def _check_epsilon(epsilon: float) -> None:
    if not (np.isfinite(epsilon) and epsilon > 0):
        raise ValueError(f"epsilon must be a finite number > 0, got {epsilon!r}")
