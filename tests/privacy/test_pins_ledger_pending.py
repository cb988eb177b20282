"""Pin found by the mutation scan: the pending figure under tight composition (shown by `dpgui budget` and
the budget panel as "+ ... running") is what the open runs add to the accountant's spent figure."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from dpgui.privacy.cost import PrivacyCost, zcdp_rho_for
from dpgui.privacy.curve import NoiseKind, NoiseRounds, PrivacyCurve
from dpgui.privacy.ledger import Ledger

COST = PrivacyCost(0.5, 1e-7)
TOTAL = PrivacyCost(4.0, 1e-6)


def gaussian_curve(height: int = 6) -> PrivacyCurve:
    sigma = math.sqrt(2 * height / (2 * zcdp_rho_for(COST)))
    return PrivacyCurve.gaussian_rounds(NoiseRounds(NoiseKind.DISCRETE_GAUSSIAN, sigma, 1, 2 * height))


def test_pending_is_what_the_open_runs_add_to_the_tight_figure(tmp_path: Path) -> None:
    """ledger.py state(): the accountant branch `pending = PrivacyCost(max(0.0, used.epsilon -
    spent.spent.epsilon), ...)` (mutants: `+` for `-`, `min` for `max`) and its guard `if used ==
    composed.basic and spent.spent == spent.basic:` (mutants: `if True:`, `or`)."""
    ledger = Ledger(tmp_path / "ledger.jsonl")
    dataset = ledger.open_dataset(tmp_path / "data.csv", "c" * 64).id
    ledger.set_total(dataset, TOTAL)
    for _ in range(4):
        ledger.commit(ledger.reserve(dataset, COST, "committed", curve=gaussian_curve()))
    running = ledger.reserve(dataset, COST, "running", curve=gaussian_curve())
    state = ledger.state(dataset)
    assert state.spent_basic is not None and state.spent.epsilon < state.spent_basic.epsilon  # tight
    everything = ledger.state(dataset, as_committed=running)
    added = everything.spent.epsilon - state.spent.epsilon
    assert 0 < added < COST.epsilon  # composition adds less than the run's own epsilon
    assert state.pending.epsilon == pytest.approx(added, rel=1e-9)
    assert state.pending.delta == pytest.approx(everything.spent.delta - state.spent.delta, abs=1e-18)
    assert state.remaining is not None
    assert state.remaining.epsilon == pytest.approx(TOTAL.epsilon - everything.spent.epsilon, rel=1e-9)


def test_pending_when_only_the_open_runs_make_the_composition_tight(tmp_path: Path) -> None:
    """The same branch when the committed part is still a plain sum (one release) but the open runs make the
    accountant's figure tight: mutants `and` -> `or` in the guard, `min` for `max` on the delta axis."""
    ledger = Ledger(tmp_path / "ledger.jsonl")
    dataset = ledger.open_dataset(tmp_path / "data.csv", "c" * 64).id
    ledger.set_total(dataset, TOTAL)
    ledger.commit(ledger.reserve(dataset, PrivacyCost(0.5), "committed, pure, no curve"))
    running = [ledger.reserve(dataset, COST, f"running {i}", curve=gaussian_curve()) for i in range(4)]
    state = ledger.state(dataset)
    assert state.spent == state.spent_basic == PrivacyCost(0.5)  # the committed part: as booked
    composed = ledger.state(dataset)
    for reservation in running:
        ledger.commit(reservation)
    everything = ledger.state(dataset)
    assert everything.spent.epsilon < 0.5 + 4 * COST.epsilon  # with the open runs: tight
    assert composed.pending.epsilon == pytest.approx(everything.spent.epsilon - state.spent.epsilon, rel=1e-9)
    assert composed.pending.delta == pytest.approx(everything.spent.delta - state.spent.delta, rel=1e-9)
