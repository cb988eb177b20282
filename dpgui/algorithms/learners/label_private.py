"""The generic label-private learner for thresholds (paper 000 s6.1, Fig. 13, Thm 6.2; spec 000 s7.1;
REVIEW-000-002 s6).

Rows are split by a public rule: S1 = the first ``split`` rows, S2 = the rest. The hypotheses are the
thresholds realising every labelling of S1's distinct feature values (S1's labels are never read); the
exponential mechanism picks one with quality = S2 rows labelled correctly (sensitivity 1 in one label).
For every fixed feature vector the map labels -> output is pure eps-DP: LABEL PRIVACY ONLY. The features
are not protected and the released threshold is one of the data's feature values.

With a public unlabelled sample instead of S1 (the semi-private learner, paper 000 s6.2, spec 000 s7.2)
every labelled row is protected (features and labels): that is :mod:`public_assisted`.
"""

from __future__ import annotations

import math

import numpy as np

from dpgui.algorithms.learners.thresholds import Direction, ThresholdRelease, em_over_cuts
from dpgui.algorithms.progress import AlgorithmRun, Progress
from dpgui.privacy.random import PrivateRandom

LABEL_PRIVACY_NOTE = (
    "label privacy only: the feature values are NOT protected; the released threshold is one of the "
    "data's feature values"
)


def label_private_split(alpha: float, beta: float) -> int:
    """The public size of S1: n = ceil((64/alpha)(VC ln(128/alpha) + ln(8/beta))) with VC = 1 for
    thresholds (spec 000 s7.1, "constant slip" fix); smaller n keeps privacy and only weakens the utility
    guarantee."""
    return math.ceil((64 / alpha) * (math.log(128 / alpha) + math.log(8 / beta)))


def label_private_min_n(alpha: float, beta: float, epsilon: float) -> int:
    """m >= n + (8/(alpha min(eps, 1)))(n + ln(4/beta)) (spec 000 s7.1: events E1-E3)."""
    n = label_private_split(alpha, beta)
    return math.ceil(n + (8 / (alpha * min(epsilon, 1.0))) * (n + math.log(4 / beta)))


def label_private_threshold(
    features: np.ndarray,
    labels: np.ndarray,
    split: int,
    size: int,
    direction: Direction,
    epsilon: float,
    rng: PrivateRandom,
) -> AlgorithmRun[ThresholdRelease]:
    """features: grid indices in row order; labels: booleans in row order. Pure eps-DP in the labels."""
    features = np.asarray(features, dtype=np.uint64)
    labels = np.asarray(labels, dtype=bool)
    yield Progress(0.2, f"hypotheses from the features of the first {split} rows")
    candidates = np.unique(features[:split])
    values, inverse = np.unique(features[split:], return_inverse=True)
    positives = np.bincount(inverse, weights=labels[split:], minlength=values.size).astype(np.int64)
    negatives = np.bincount(inverse, minlength=values.size).astype(np.int64) - positives
    hypothesis = em_over_cuts(candidates, values, positives, negatives, size, direction, epsilon, rng)
    yield Progress(1.0, "threshold released (" + LABEL_PRIVACY_NOTE + ")", hypothesis)
    return ThresholdRelease(hypothesis)
