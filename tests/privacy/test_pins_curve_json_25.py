"""The ledger stores each release's privacy curve as JSON and composes the parsed curve on replay: every
field that sets the privacy loss must survive the round trip.

Mutation scan h25a: writing (or reading) a DpSteps' count as 1, or a NoiseRounds' sensitivity as 1, went
unnoticed, because the round-trip tests only used one Gaussian curve of sensitivity 1 and curves without
steps. Such a ledger under-counts after a restart: SanPoints' I choosing runs, the per-query baseline's sums
of sensitivity Delta > 1, the quantiles' m exponential mechanisms would each be charged as one run of
sensitivity 1. Here the curves the tasks record (steps with count > 1, pure and approximate; noise of
sensitivity > 1; zCDP) round-trip exactly, and a replayed ledger charges exactly what was charged before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from dpgui.privacy.accountant import BookedRelease, compose
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.curve import DpSteps, NoiseKind, NoiseRounds, PrivacyCurve
from dpgui.privacy.ledger import Ledger
from tests.privacy.test_ledger_accounting import gaussian_curve, ledger_with_total

CURVES = [
    # the per-query distance baseline: k sums of integer sensitivity Delta, discrete Laplace k Delta / eps
    (PrivacyCost(0.3), PrivacyCurve((NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 40.0, 3, 4),))),
    # m quantiles, each an exponential mechanism at eps / m
    (PrivacyCost(0.2), PrivacyCurve.pure_steps(0.05, 4)),
    # SanPoints: I discrete Laplace counts and I choosing runs at (eps_t, delta_t)
    (
        PrivacyCost(0.6, 5e-9),
        PrivacyCurve(
            (NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 10.0, 1, 5),),
            steps=(DpSteps(PrivacyCost(0.02, 1e-9), 5),),
        ),
    ),
    # SanThresholds: 2c discrete Laplace counts, c exponential mechanisms and c choosing runs
    (
        PrivacyCost(0.9, 3e-9),
        PrivacyCurve(
            (NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 10.0, 1, 6),),
            steps=(DpSteps(PrivacyCost(0.1), 3), DpSteps(PrivacyCost(0.1, 1e-9), 3)),
        ),
    ),
    # noise of two kinds of rounds in one release
    (
        PrivacyCost(0.25),
        PrivacyCurve(
            (
                NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 20.0, 1, 2),
                NoiseRounds(NoiseKind.DISCRETE_LAPLACE, 40.0, 2, 3),
            )
        ),
    ),
    # the Gaussian tree: 2h discrete Gaussian answers and their rho
    (PrivacyCost(0.5, 1e-7), gaussian_curve()),
]


@pytest.mark.parametrize(("cost", "curve"), CURVES)
def test_a_curve_round_trips_through_json_and_composes_the_same(
    cost: PrivacyCost, curve: PrivacyCurve
) -> None:
    parsed = PrivacyCurve.from_json(curve.to_json())
    assert parsed == curve
    before = compose([BookedRelease(cost, curve)] * 3, 1e-6).spent
    after = compose([BookedRelease(cost, parsed)] * 3, 1e-6).spent
    assert after == before


def test_a_replayed_ledger_charges_what_it_charged_before(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger, dataset = ledger_with_total(path, PrivacyCost(10.0, 1e-6))
    for cost, curve in CURVES:
        ledger.commit(ledger.reserve(dataset, cost, "release", curve=curve))
    before = ledger.state(dataset)
    replayed = Ledger(path)
    assert [e.curve for e in replayed.entries(dataset)] == [curve for _, curve in CURVES]
    assert replayed.state(dataset).spent == before.spent
