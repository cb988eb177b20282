"""The ledger's tight accounting: curves recorded in reservation lines, composed on replay."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from dpgui.privacy.cost import PrivacyCost, basic_composition, zcdp_rho_for
from dpgui.privacy.curve import NoiseKind, NoiseRounds, PrivacyCurve
from dpgui.privacy.ledger import BudgetExceeded, Ledger, LedgerTampered
from dpgui.privacy.ledger_store import EventType, LedgerFile, Reserved

GAUSSIAN_COST = PrivacyCost(0.5, 1e-7)
TOTAL = PrivacyCost(2.0, 1e-6)


def gaussian_curve(cost: PrivacyCost = GAUSSIAN_COST, height: int = 6) -> PrivacyCurve:
    """The Gaussian tree's curve: 2h discrete Gaussian answers with sigma calibrated to rho(cost)."""
    sigma = math.sqrt(2 * height / (2 * zcdp_rho_for(cost)))
    return PrivacyCurve.gaussian_rounds(NoiseRounds(NoiseKind.DISCRETE_GAUSSIAN, sigma, 1, 2 * height))


def ledger_with_total(path: Path, total: PrivacyCost = TOTAL) -> tuple[Ledger, str]:
    ledger = Ledger(path)
    record = ledger.open_dataset(path.parent / "data.csv", "a" * 64)
    ledger.set_total(record.id, total)
    return ledger, record.id


def test_gaussian_releases_fit_where_basic_composition_refuses(tmp_path: Path) -> None:
    ledger, dataset = ledger_with_total(tmp_path / "ledger.jsonl")
    for _ in range(10):  # basic composition: 10 x 0.5 = 5 > 2, and 10 x 1e-7 = the whole delta
        ledger.commit(ledger.reserve(dataset, GAUSSIAN_COST, "gaussian CDF", curve=gaussian_curve()))
    state = ledger.state(dataset)
    assert state.spent_basic is not None
    assert state.spent_basic.epsilon == pytest.approx(5.0)
    assert state.spent.epsilon <= TOTAL.epsilon
    assert state.spent.delta == TOTAL.delta
    assert state.saving == pytest.approx(state.spent_basic.epsilon - state.spent.epsilon)
    assert state.remaining is not None
    assert state.remaining.epsilon == pytest.approx(TOTAL.epsilon - state.spent.epsilon)


def test_overspend_is_refused_on_the_tight_figure(tmp_path: Path) -> None:
    ledger, dataset = ledger_with_total(tmp_path / "ledger.jsonl", PrivacyCost(1.0, 1e-6))
    with pytest.raises(BudgetExceeded, match="accountant charges"):
        for _ in range(100):
            ledger.commit(ledger.reserve(dataset, GAUSSIAN_COST, "gaussian CDF", curve=gaussian_curve()))
    state = ledger.state(dataset)
    assert state.spent.epsilon <= 1.0 * (1 + 1e-9)
    assert 2 < len(ledger.entries(dataset)) < 100


def test_replaying_the_ledger_gives_the_same_spent_budget_to_the_last_digit(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger, dataset = ledger_with_total(path)
    for i in range(6):
        curve = gaussian_curve(height=4 + i % 3) if i % 2 else None
        cost = GAUSSIAN_COST if i % 2 else PrivacyCost(0.1)
        ledger.commit(ledger.reserve(dataset, cost, f"release {i}", curve=curve))
    before = ledger.state(dataset)
    replayed = Ledger(path).state(dataset)
    assert replayed == before
    assert repr(replayed.spent.epsilon) == repr(before.spent.epsilon)
    # ... and in a fresh process, with nothing cached: the same digits.
    code = (
        "import sys; from pathlib import Path; from dpgui.privacy.ledger import Ledger; "
        "state = Ledger(Path(sys.argv[1])).state(sys.argv[2]); print(repr(state.spent.epsilon))"
    )
    fresh = subprocess.run(
        [sys.executable, "-c", code, str(path), dataset],
        capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[2],
    )  # fmt: skip
    assert fresh.stdout.strip() == repr(before.spent.epsilon)
    assert [e.curve for e in Ledger(path).entries(dataset)] == [e.curve for e in ledger.entries(dataset)]


def test_the_curve_is_stored_in_the_reservation_line(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger, dataset = ledger_with_total(path)
    curve = gaussian_curve()
    ledger.reserve(dataset, GAUSSIAN_COST, "gaussian CDF", curve=curve)
    ledger.reserve(dataset, PrivacyCost(0.1), "pure count")
    lines = [json.loads(line) for line in path.read_text().splitlines() if '"reserved"' in line]
    assert PrivacyCurve.from_json(lines[0]["curve"]) == curve
    assert "curve" not in lines[1]  # a release with only its (epsilon, delta) writes the old line


def test_lines_written_before_curves_count_as_their_epsilon_delta(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    ledger, dataset = ledger_with_total(path)
    del ledger
    store = LedgerFile(path)
    with store.locked():
        for i in range(3):
            store.append(EventType.RESERVED, Reserved(f"old{i}", dataset, 0.5, 1e-7, "old release"))
    state = Ledger(path).state(dataset)
    assert state.spent_basic == basic_composition([GAUSSIAN_COST] * 3)
    assert state.spent.epsilon <= state.spent_basic.epsilon
    assert all(entry.curve is None for entry in Ledger(path).entries(dataset))


def test_a_malformed_curve_is_reported_as_tampering(tmp_path: Path) -> None:
    path = tmp_path / "ledger.jsonl"
    _, dataset = ledger_with_total(path)
    store = LedgerFile(path)
    with store.locked():
        store.append(
            EventType.RESERVED,
            Reserved("bad", dataset, 0.5, 1e-7, "bad", curve={"noise": [{"noise": "cauchy"}]}),
        )
    with pytest.raises(LedgerTampered, match="inconsistent event"):
        Ledger(path)
