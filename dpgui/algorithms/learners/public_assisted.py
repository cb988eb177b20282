"""Public-data-assisted threshold learning (paper 001, Bassily et al.; spec 001 s6, REVIEW-001-003-004 s4).

Candidates = thresholds cutting at the distinct values of a public (unlabelled) sample, in the chosen
direction(s), plus the two constant hypotheses; the exponential mechanism picks one with quality = rows
of the private labelled data classified correctly (sensitivity 1 under replace-one). For every fixed
public sample this is pure eps-DP in the private data; it is also the semi-private learner of paper 000
s6.2 (spec 000 s7.2). Utility: the empirical error is within (2/eps) ln(|H|/beta) rows of the best
candidate's, and the best candidate is within the private mass of one public gap of the best threshold
(same-distribution assumption: privacy holds for any public sample, utility does not).
"""

from __future__ import annotations

import math

import numpy as np

from dpgui.algorithms.learners.thresholds import (
    Direction,
    ThresholdRelease,
    cut_candidates,
    em_over_cuts,
)
from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.random import PrivateRandom


def public_candidate_count(public_grid: np.ndarray, size: int, direction: Direction) -> int:
    return sum(len(cut_candidates(public_grid, size, family)) for family in direction.families)


def public_em_excess(candidates: int, epsilon: float, beta: float) -> float:
    """Excess empirical error in rows over the best candidate: (2/eps) ln(|H|/beta) (Prop 2.25)."""
    return (2 / epsilon) * math.log(candidates / beta)


def public_em_threshold(
    public_grid: np.ndarray,
    values: np.ndarray,
    positives: np.ndarray,
    negatives: np.ndarray,
    size: int,
    direction: Direction,
    epsilon: float,
    rng: PrivateRandom,
) -> AlgorithmRun[ThresholdRelease]:
    """Release a threshold cutting at a public value; pure eps-DP in the private labelled rows."""
    count = public_candidate_count(public_grid, size, direction)
    yield Progress(0.2, f"scoring {count} thresholds at public cut points")
    hypothesis = em_over_cuts(public_grid, values, positives, negatives, size, direction, epsilon, rng)
    yield Progress(1.0, "threshold released", hypothesis)
    return ThresholdRelease(hypothesis)
