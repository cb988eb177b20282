"""Pins ``dpgui budget show|set`` (dpgui/cli/budget_cmd.py): defaults and what each state prints.

``budget set`` takes delta 0 unless given; the text names a missing total, shows pending only when some run is
open and the accountant's saving only when there is one; ``--json`` falls back to ``spent`` for
``spent_basic``; a dataset is found in the ledger by its SHA-256, else by its path (the latest record), and
an unknown one cannot be shown from a read-only ledger.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dpgui.cli import main
from dpgui.cli.budget_cmd import format_state, known_record, state_json
from dpgui.data.fingerprint import sha256_source
from dpgui.privacy.budget_words import saving_text
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import BudgetState, Ledger, LedgerReadOnly


def test_budget_set_defaults_delta_to_zero(
    wages_csv: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "1.5"]) == 0
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(wages_csv), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    assert shown["total"] == {"epsilon": 1.5, "delta": 0.0}
    assert shown["spent_basic"] == shown["spent"] == {"epsilon": 0.0, "delta": 0.0}
    assert shown["labels_only_spent"] is None and shown["entries"] == []


def state(pending: float = 0.0, basic: PrivacyCost | None = None) -> BudgetState:
    return BudgetState(
        total=PrivacyCost(2.0, 1e-6),
        spent=PrivacyCost(0.5, 1e-6),
        pending=PrivacyCost(pending, 0.0),
        remaining=PrivacyCost(1.5, 0.0),
        spent_basic=basic,
    )


def test_the_text_of_each_state() -> None:
    plain = format_state("wages.csv", state())
    assert plain.startswith("wages.csv: total ") and "; remaining " in plain
    assert "pending" not in plain and "basic composition" not in plain
    assert "; pending " in format_state("wages.csv", state(pending=0.25))
    no_total = BudgetState(None, PrivacyCost(0.0, 0.0), PrivacyCost(0.0, 0.0), None)
    assert (
        format_state("w", no_total)
        == "w: no total budget set (use `dpgui budget set --data FILE --epsilon E`)."
    )


def test_the_saving_is_stated_only_when_the_accountant_saves() -> None:
    assert saving_text(state()) == ""
    assert saving_text(state(basic=PrivacyCost(0.5, 1e-6))) == ""
    saved = saving_text(state(basic=PrivacyCost(1.25, 1e-6)))
    assert saved.startswith(" (basic composition: ") and saved.endswith("; saved ε=0.75)")


def test_sums_beyond_the_totals_delta_are_said_as_one_guarantee() -> None:
    """Docs audit, session 34: three releases at δ = 1e-6 under a total δ of 1e-6 sum to δ = 3e-6, beyond
    the total, so no ε was "saved" against them and ``budget show`` dropped the basic figure and the one-
    guarantee words: "spent ε=6.03, δ=1e-06" beside a remaining δ of 0 read as δ used up."""
    beyond = state(basic=PrivacyCost(7.0, 3e-6))
    assert beyond.basic_beyond_delta and beyond.tight and beyond.saving == 0.0
    assert saving_text(beyond) == " (basic composition: ε=7, δ=3e-06, beyond the total's δ)"
    shown = format_state("wages.csv", beyond)
    assert "(all releases as one guarantee)" in shown and "δ not yet booked" in shown
    assert not state(basic=PrivacyCost(0.5, 1e-6)).tight


def test_json_spent_basic_falls_back_to_spent() -> None:
    assert state_json("w", state(), [])["spent_basic"] == {"epsilon": 0.5, "delta": 1e-6}
    shown = state_json("w", state(basic=PrivacyCost(1.25, 1e-6)), [])
    assert shown["spent_basic"] == {"epsilon": 1.25, "delta": 1e-6}
    assert shown["saving_epsilon"] == pytest.approx(0.75)


def test_a_dataset_is_known_by_hash_then_by_path(tmp_path: Path, isolated_home: Path) -> None:
    data = tmp_path / "wages.csv"
    data.write_text("wage\n1\n")
    ledger = Ledger()
    record = ledger.open_dataset(data.resolve(), sha256_source(data))
    moved = tmp_path / "moved.csv"
    moved.write_text("wage\n1\n")  # same bytes elsewhere: found by hash
    assert known_record(ledger, moved).id == record.id
    data.write_text("wage\n2\n")  # changed bytes at the known path: found by path
    assert known_record(ledger, data).id == record.id
    other = tmp_path / "other.csv"
    other.write_text("wage\n3\n")
    with pytest.raises(LedgerReadOnly, match=r"other\.csv has no budget in the ledger"):
        known_record(ledger, other)


@pytest.mark.parametrize(
    "argv",
    [
        ["budget"],
        ["budget", "show"],
        ["budget", "set", "--epsilon", "1"],
        ["budget", "set", "--data", "x.csv"],
    ],
)
def test_budget_needs_its_action_data_and_epsilon(argv: list[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2


def test_the_latest_record_of_a_path_is_the_one_known(tmp_path: Path, isolated_home: Path) -> None:
    data = tmp_path / "wages.csv"
    data.write_text("wage\n1\n")
    ledger = Ledger()
    ledger.open_dataset(data.resolve(), "a" * 64)
    latest = ledger.open_dataset(data.resolve(), "b" * 64, new_dataset=True)
    assert known_record(ledger, data).id == latest.id


def test_show_lists_each_entry_with_its_curve_and_no_labels_only_account(
    wages_csv: Path, tmp_path: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    release = ["release", "median", "--data", str(wages_csv), "--column", "wage", "--epsilon", "1"]
    assert main([*release, "--bounds", "0", "5000", "--out", str(tmp_path / "a")]) == 0
    capsys.readouterr()
    assert main(["budget", "show", "--data", str(wages_csv)]) == 0
    out = capsys.readouterr().out.splitlines()
    (entry,) = [line for line in out if line.startswith("  20")]
    assert " committed " in entry and "ε=1" in entry and "[" in entry and not entry.endswith("]")
    assert not any("labels-only account" in line for line in out)
    assert main(["budget", "show", "--data", str(wages_csv), "--json"]) == 0
    shown = json.loads(capsys.readouterr().out)
    (json_entry,) = shown["entries"]
    assert json_entry["curve"] is not None and json_entry["status"] == "committed"
    assert shown["labels_only_spent"] is None


def test_a_total_below_what_is_spent_is_set_with_a_note(
    wages_csv: Path, isolated_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CLI fuzz set ε = 0.01 over ε = 0.1 spent without a word ("remaining ε=0")."""
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "1"]) == 0
    ledger = Ledger()
    record = ledger.open_dataset(wages_csv.resolve(), sha256_source(wages_csv))
    ledger.commit(ledger.reserve(record.id, PrivacyCost(0.1), "median of wage"))
    capsys.readouterr()
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "0.01"]) == 0
    assert "below the ε=0.1 already spent: no release can run until it is raised" in capsys.readouterr().err
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "2"]) == 0
    assert "already spent" not in capsys.readouterr().err
