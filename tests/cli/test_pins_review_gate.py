"""Pins the command line's review gate (dpgui/cli/review_gate.py): the last refusal before a charge.

A review with a failed check refuses the release (None, with the reason on stderr) unless
``--accept-warnings`` (off by default) is given; a review with no failed check passes either way; the review
is built against the budget the ledger has left for the dataset, found by its SHA-256 or else by its path,
and None for a dataset the ledger does not know.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

import pytest

from dpgui.cli import review_gate
from dpgui.data.domain import NumericDomain
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Account, BudgetExceeded, Ledger
from dpgui.tasks import ledger_review
from dpgui.tasks.spec import TaskKind, TaskSpec


@dataclass(frozen=True)
class FakeDataset:
    path: Path
    sha256: str
    n_rows: int = 2000


@dataclass
class FakeReview:
    failures: tuple[str, ...]
    remaining: PrivacyCost | None = None
    over_budget: str | None = None

    def lines(self) -> list[str]:
        return ["Review before charging:", *(f"[FAILED] {f}" for f in self.failures)]


SPEC = TaskSpec(TaskKind.MEDIAN, ("wage",), (NumericDomain(0, 5000, 1),), 1.0, 0.0, "em")


def gate(
    monkeypatch: pytest.MonkeyPatch,
    failures: tuple[str, ...],
    accept: bool,
    ledger: Ledger,
    data: FakeDataset,
) -> FakeReview | None:
    def build(
        prepared: object, remaining: PrivacyCost | None, over_budget: str | None = None, after: object = None
    ) -> FakeReview:
        return FakeReview(failures, remaining, over_budget)

    monkeypatch.setattr(ledger_review, "build_review", build)
    return review_gate.review_or_refuse(SPEC, data, ledger, accept)  # type: ignore[arg-type,return-value]


def test_accept_warnings_is_off_by_default() -> None:
    parser = argparse.ArgumentParser()
    review_gate.add_argument(parser)
    assert parser.parse_args([]).accept_warnings is False
    assert parser.parse_args(["--accept-warnings"]).accept_warnings is True


def test_a_failed_check_refuses_unless_warnings_are_accepted(
    monkeypatch: pytest.MonkeyPatch, isolated_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = FakeDataset(tmp_path / "wages.csv", "a" * 64)
    assert gate(monkeypatch, ("grid of wage",), False, Ledger(), data) is None
    err = capsys.readouterr().err
    assert "[FAILED] grid of wage" in err and "refused before charging" in err and "--accept-warnings" in err
    accepted = gate(monkeypatch, ("grid of wage",), True, Ledger(), data)
    assert accepted is not None and accepted.failures == ("grid of wage",)
    assert "refused" not in capsys.readouterr().err


def test_a_review_without_failures_passes(
    monkeypatch: pytest.MonkeyPatch, isolated_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = FakeDataset(tmp_path / "wages.csv", "a" * 64)
    for accept in (False, True):
        review = gate(monkeypatch, (), accept, Ledger(), data)
        assert review is not None and review.failures == ()
    assert "refused" not in capsys.readouterr().err


def test_the_review_sees_the_remaining_budget_found_by_hash_or_by_path(
    monkeypatch: pytest.MonkeyPatch, isolated_home: Path, tmp_path: Path
) -> None:
    path = tmp_path / "wages.csv"
    path.write_text("wage\n1\n")
    ledger = Ledger()
    record = ledger.open_dataset(path.resolve(), "a" * 64)
    ledger.set_total(record.id, PrivacyCost(3.0, 1e-6))
    expected = ledger.state(record.id, Account.REPLACE_ONE).remaining
    assert expected == PrivacyCost(3.0, 1e-6)
    by_hash = gate(monkeypatch, (), False, ledger, FakeDataset(tmp_path / "moved.csv", "a" * 64))
    by_path = gate(monkeypatch, (), False, ledger, FakeDataset(path, "b" * 64))
    unknown = gate(monkeypatch, (), False, ledger, FakeDataset(tmp_path / "other.csv", "c" * 64))
    assert by_hash is not None and by_hash.remaining == expected
    assert by_path is not None and by_path.remaining == expected
    assert unknown is not None and unknown.remaining is None
    assert ledger.find(tmp_path / "x.csv", "d" * 64) is None


def test_a_release_that_does_not_fit_is_refused_right_after_a_review_that_says_so(
    isolated_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The review said "Budget after: ε = 0 left" and "all checks passed" for a release the ledger then
    refused; now it names the refusal, and the gate stops with BudgetExceeded (exit 3) before any
    reservation."""
    path = tmp_path / "wages.csv"
    path.write_text("wage\n1\n")
    ledger = Ledger()
    record = ledger.open_dataset(path.resolve(), "a" * 64)
    ledger.set_total(record.id, PrivacyCost(0.5))
    data = FakeDataset(path, "a" * 64)
    with pytest.raises(BudgetExceeded, match=r"needs ε=1 but only ε=0\.5"):
        review_gate.review_or_refuse(SPEC, data, ledger, accept_warnings=True)  # type: ignore[arg-type]
    err = capsys.readouterr().err
    assert "Budget after: does not fit, so nothing can be charged: This release needs ε=1" in err
    assert ledger.entries(record.id) == []  # nothing reserved
    ledger.set_total(record.id, PrivacyCost(1.0))
    review = review_gate.review_or_refuse(SPEC, data, ledger, accept_warnings=True)  # type: ignore[arg-type]
    assert review is not None and review.over_budget is None
    assert "Budget after: ε = 0, δ = 0 left" in capsys.readouterr().err
