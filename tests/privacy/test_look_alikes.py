"""A copy of a known dataset at a new path (another format, other quoting, an edit saved elsewhere) has new
bytes and a new path, so the ledger registered it as a new dataset with a fresh budget. ``look_alikes``
names the known datasets whose file names the same columns; ``Ledger.link`` makes the copy spend the
original's budget."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from dpgui.data.fingerprint import sha256_source
from dpgui.data.loaders import column_names
from dpgui.privacy.cost import PrivacyCost
from dpgui.privacy.ledger import Ledger, LedgerError, ReservationRequest
from dpgui.privacy.look_alikes import look_alikes

FRAME = pd.DataFrame({"wage": [1.0, 2.0, 3.0], "region": ["a", "b", "a"]})


def _open(ledger: Ledger, path: Path):
    return ledger.open_dataset(path, sha256_source(path))


def _spend(ledger: Ledger, dataset_id: str, epsilon: float) -> None:
    (reservation,) = ledger.reserve_all(dataset_id, [ReservationRequest(PrivacyCost(epsilon), "a release")])
    ledger.mark_touched(reservation)
    ledger.commit(reservation)


@pytest.fixture
def original(tmp_path: Path) -> tuple[Ledger, Path, str]:
    """A ledger knowing one CSV with a total of 4 and 1.5 spent."""
    path = tmp_path / "people.csv"
    FRAME.to_csv(path, index=False)
    ledger = Ledger(tmp_path / "home" / "ledger.jsonl")
    record = _open(ledger, path)
    ledger.set_total(record.id, PrivacyCost(4.0))
    _spend(ledger, record.id, 1.5)
    return ledger, path, record.id


def test_a_copy_in_another_format_is_named_with_the_budget_it_may_share(original, tmp_path: Path):
    ledger, path, dataset_id = original
    copy = tmp_path / "people.parquet"
    FRAME[["region", "wage"]].to_parquet(copy)  # the columns in another order: the same set
    (alike,) = look_alikes(ledger, copy, column_names(copy))
    assert alike.record.id == dataset_id
    assert alike.describe() == f"people.csv (at {path.resolve()}; ε=1.5 of 4 spent)"


def test_other_columns_a_moved_original_and_the_file_itself_are_not_named(original, tmp_path: Path):
    ledger, path, _ = original
    other = tmp_path / "other.csv"
    FRAME.rename(columns={"region": "area"}).to_csv(other, index=False)
    assert look_alikes(ledger, other, column_names(other)) == []
    assert (
        look_alikes(ledger, path, column_names(path)) == []
    )  # the file is its own dataset, not a copy of it
    copy = tmp_path / "copy.csv"
    FRAME.to_csv(copy, index=False, sep=";")
    assert len(look_alikes(ledger, copy, column_names(copy))) == 1
    path.unlink()  # the ledger keeps no columns: an original that is gone cannot be compared
    assert look_alikes(ledger, copy, column_names(copy)) == []


def test_a_linked_copy_spends_the_originals_budget_and_opens_as_it(original, tmp_path: Path):
    ledger, _, dataset_id = original
    copy = tmp_path / "people.parquet"
    FRAME.to_parquet(copy)
    fresh = _open(ledger, copy)  # registered on its own, as before the link: a budget of its own
    ledger.set_total(fresh.id, PrivacyCost(4.0))
    assert fresh.id != dataset_id
    linked = ledger.link(copy, sha256_source(copy), dataset_id)
    assert linked.id == dataset_id and _open(ledger, copy).id == dataset_id
    assert ledger.state(dataset_id).spent == PrivacyCost(1.5)
    _spend(ledger, dataset_id, 2.0)
    reopened = Ledger(ledger.path)  # the link is in the file, not only in memory
    assert reopened.open_dataset(copy, sha256_source(copy)).id == dataset_id
    assert reopened.state(dataset_id).spent.epsilon == pytest.approx(3.5)
    assert ledger.link(copy, sha256_source(copy), dataset_id).id == dataset_id  # linking again: no change


def test_a_file_with_releases_of_its_own_is_not_merged(original, tmp_path: Path):
    ledger, _, dataset_id = original
    copy = tmp_path / "people.parquet"
    FRAME.to_parquet(copy)
    own = _open(ledger, copy)
    ledger.set_total(own.id, PrivacyCost(4.0))
    _spend(ledger, own.id, 1.0)
    with pytest.raises(LedgerError, match="already has releases charged to its own budget"):
        ledger.link(copy, sha256_source(copy), dataset_id)
    assert _open(ledger, copy).id == own.id


def test_a_dataset_left_behind_by_a_link_is_not_named_again(original, tmp_path: Path):
    ledger, _, dataset_id = original
    copy = tmp_path / "people.parquet"
    FRAME.to_parquet(copy)
    ledger.set_total(_open(ledger, copy).id, PrivacyCost(4.0))  # its own dataset, then linked
    ledger.link(copy, sha256_source(copy), dataset_id)
    third = tmp_path / "people.tsv"
    FRAME.to_csv(third, sep="\t", index=False)
    assert [alike.record.id for alike in look_alikes(ledger, third, column_names(third))] == [
        dataset_id
    ]  # not the orphan
