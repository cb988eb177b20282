"""The embedded out-of-core backend gives exactly the in-memory backend's aggregates, batch by batch."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dpgui.cli.main import main
from dpgui.data import (
    CategoricalDomain,
    DataError,
    InMemoryAggregator,
    MissingKind,
    MissingPolicy,
    NumericDomain,
)
from dpgui.data import dataset as dataset_module
from dpgui.data.backends import Engine, ScanCancelled, choose_engine, embedded, open_aggregator
from dpgui.data.backends.embedded import EmbeddedAggregator, FileSource
from dpgui.data.dataset import DatasetHandle, open_dataset
from dpgui.data.fingerprint import keyed_fingerprint

BATCH = 7
"""Rows per batch in these tests: every file spans several batches, with a short last one."""

IMPUTE = MissingPolicy()
FILL = MissingPolicy(MissingKind.IMPUTE, 3.25)
FAIL = MissingPolicy(MissingKind.FAIL)
KEEP = MissingPolicy(MissingKind.KEEP)
UNIT = NumericDomain(0, 10, 1)
HALF = NumericDomain(-2.5, 7.5, 0.5)
TENTHS = NumericDomain(0.1, 0.7, 0.1)
HUGE = NumericDomain(0, (1 << 64) - 1, 1)
CATEGORIES = CategoricalDomain(("a", "b"), other=True)


def _tricky_frame() -> pd.DataFrame:
    """Ties at .5 (round half to even), both bounds crossed, missing cells, labels and categories."""
    x = [0.5, 1.5, 2.5, 3.5, -0.5, 10.5, 9.5, -7.0, 1e300, -1e300, np.nan, 4.75, 0.25, 5.0, np.nan]
    x += [0.30000000000000004, 0.35, 0.45, 0.55, 0.65, 6.999999, 7.25, 7.75, -2.75, 2.0000001]
    n = len(x)
    rng = np.random.default_rng(3)
    return pd.DataFrame(
        {
            "x": x,
            "y": rng.integers(-3, 13, size=n),
            "label": rng.choice(["yes", "no", "Yes", "0", "1"], size=n),
            "flag": rng.choice(["7", " 7 ", "8", None], size=n),
            "cat": rng.choice(["a", "b", "c", None], size=n),
        }
    )


def _write(frame: pd.DataFrame, folder: Path, suffix: str) -> Path:
    path = folder / f"private{suffix}"
    if suffix == ".csv":
        frame.to_csv(path, index=False)
    elif suffix == ".tsv":
        frame.to_csv(path, index=False, sep="\t")
    elif suffix == ".parquet":
        frame.to_parquet(path)
    else:
        frame.to_feather(path)
    return path


@pytest.fixture(params=[".csv", ".tsv", ".parquet", ".feather"])
def tricky(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return _write(_tricky_frame(), tmp_path, request.param)


def _pair(path: Path) -> tuple[InMemoryAggregator, EmbeddedAggregator]:
    return InMemoryAggregator(open_dataset(path)), EmbeddedAggregator(FileSource(path, batch_rows=BATCH))


def _same(a: object, b: object) -> None:
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for left, right in zip(a, b, strict=True):
            _same(left, right)
        return
    assert isinstance(a, np.ndarray) and isinstance(b, np.ndarray)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert np.array_equal(a, b)


def test_every_aggregate_equals_the_in_memory_one_exactly(tricky: Path) -> None:
    memory, scanned = _pair(tricky)
    assert scanned.count() == memory.count() == 25
    for domain in (UNIT, HALF, TENTHS, HUGE):
        for missing in (IMPUTE, FILL):
            _same(
                memory.sorted_distinct_counts("x", domain, missing),
                scanned.sorted_distinct_counts("x", domain, missing),
            )
            if domain is not HUGE:
                _same(memory.histogram("x", domain, missing), scanned.histogram("x", domain, missing))
    for positive in (None, "7"):
        label = "flag" if positive else "y"
        feature_labels = ("x", UNIT, FILL, "label" if positive is None else label, positive)
        if positive is None:  # 'label' holds Yes/no/0/1 text: valid without a positive value
            _same(
                memory.labelled_distinct_counts(*feature_labels),
                scanned.labelled_distinct_counts(*feature_labels),
            )
        else:
            _same(
                memory.labelled_distinct_counts(*feature_labels),
                scanned.labelled_distinct_counts(*feature_labels),
            )
    _same(
        memory.category_counts("cat", CATEGORIES, IMPUTE), scanned.category_counts("cat", CATEGORIES, IMPUTE)
    )
    _same(
        memory.column_matrix(["x", "y"], [TENTHS, UNIT], [IMPUTE, IMPUTE]),
        scanned.column_matrix(["x", "y"], [TENTHS, UNIT], [IMPUTE, IMPUTE]),
    )
    table = (["x", "y", "cat"], [HALF, UNIT, CATEGORIES], [IMPUTE, FAIL, IMPUTE])
    kept = (["x", "y", "cat"], [HALF, UNIT, CATEGORIES], [KEEP, KEEP, KEEP])
    cliques = [(0,), (2,), (0, 1), (2, 0), (0, 1, 2)]
    for declared in (table, kept):
        pairs = zip(memory.marginals(*declared, cliques), scanned.marginals(*declared, cliques), strict=True)
        for mine, theirs in pairs:
            _same(mine, theirs)
    (cats,) = memory.marginals(*table, [(2,)])
    _same(cats, memory.category_counts("cat", CATEGORIES, IMPUTE))


def test_the_ties_really_round_half_up(tmp_path: Path) -> None:
    """Control: the shared gridding sends 0.5 to 1 and 2.5 to 3; a round-half-to-even backend (np.rint)
    would send both 0.5 and 1.5 to the same even point."""
    path = _write(pd.DataFrame({"x": [0.5, 1.5, 2.5, 3.5]}), tmp_path, ".parquet")
    values, counts = EmbeddedAggregator(FileSource(path, batch_rows=BATCH)).sorted_distinct_counts(
        "x", UNIT, IMPUTE
    )
    assert values.tolist() == [1, 2, 3, 4] and counts.tolist() == [1, 1, 1, 1]
    assert np.rint(np.array([0.5, 1.5, 2.5, 3.5])).tolist() != [1, 2, 3, 4]


@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_uint64_values_up_to_2_to_the_64_grid_identically(tmp_path: Path, suffix: str) -> None:
    top = (1 << 64) - 1
    values = np.array(
        [0, 1, 1 << 53, (1 << 53) + 1, 1 << 63, (1 << 63) + 2049, top, top - 1, 12345], np.uint64
    )
    path = _write(pd.DataFrame({"x": np.repeat(values, 3)}), tmp_path, suffix)
    memory, scanned = _pair(path)
    result = scanned.sorted_distinct_counts("x", HUGE, IMPUTE)
    _same(memory.sorted_distinct_counts("x", HUGE, IMPUTE), result)
    assert int(result[0][-1]) == top and int(result[1].sum()) == 27


def test_large_grids_merge_batches_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(embedded, "_MERGE_PENDING", 5)  # merge after almost every batch
    rng = np.random.default_rng(8)
    path = _write(
        pd.DataFrame({"x": rng.integers(0, 40, size=200).astype(float) * 1e6}), tmp_path, ".parquet"
    )
    memory, scanned = _pair(path)
    domain = NumericDomain(0, 1e8, 1)  # 10^8 + 1 points: above the dense limit
    _same(
        memory.sorted_distinct_counts("x", domain, IMPUTE),
        scanned.sorted_distinct_counts("x", domain, IMPUTE),
    )


def test_errors_name_the_same_file_row_as_in_memory(tricky: Path) -> None:
    """Row 11 is missing (batch 2 at 7 rows per batch): the message names row 11, not row 4."""
    memory, scanned = _pair(tricky)
    messages = []
    for aggregator in (memory, scanned):
        with pytest.raises(DataError) as caught:
            aggregator.histogram("x", UNIT, FAIL)
        messages.append(str(caught.value))
    assert messages[0] == messages[1] and "row 11," in messages[0]
    with pytest.raises(DataError, match="label"):
        scanned.labelled_distinct_counts("x", UNIT, IMPUTE, "cat", None)
    with pytest.raises(DataError, match="no column 'nope'"):
        scanned.histogram("nope", UNIT, IMPUTE)
    with pytest.raises(DataError, match="categorical"):
        scanned.category_counts("cat", CATEGORIES, FILL)


def test_text_in_a_numeric_column_is_refused_at_its_row(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    path.write_text("x\n" + "1\n" * 9 + "ten\n2\n")
    with pytest.raises(DataError, match=r"row 10, column 'x': 'ten' is not a finite number"):
        EmbeddedAggregator(FileSource(path, batch_rows=4)).histogram("x", UNIT, IMPUTE)


def test_progress_reports_each_batch_and_reaches_one(tricky: Path) -> None:
    fractions: list[float] = []
    aggregator = EmbeddedAggregator(FileSource(tricky, batch_rows=BATCH), progress=fractions.append)
    aggregator.histogram("x", UNIT, IMPUTE)
    assert len(fractions) == 4  # 25 rows in batches of 7
    assert fractions == sorted(fractions) and fractions[-1] == pytest.approx(1.0)


def test_cancel_stops_the_scan_between_batches(tricky: Path) -> None:
    seen: list[float] = []
    aggregator = EmbeddedAggregator(
        FileSource(tricky, batch_rows=BATCH), progress=seen.append, cancelled=lambda: len(seen) >= 2
    )
    with pytest.raises(ScanCancelled, match="cancelled while scanning"):
        aggregator.sorted_distinct_counts("x", UNIT, IMPUTE)
    assert len(seen) == 2
    control = EmbeddedAggregator(FileSource(tricky, batch_rows=BATCH), cancelled=lambda: False)
    assert int(control.histogram("x", UNIT, IMPUTE).sum()) == 25


def test_column_matrix_refuses_beyond_the_memory_limit(tricky: Path) -> None:
    aggregator = EmbeddedAggregator(FileSource(tricky, batch_rows=BATCH), memory_limit=25 * 8)
    assert aggregator.column_matrix(["x"], [UNIT], [IMPUTE]).shape == (25, 1)
    with pytest.raises(DataError, match="needs every row in memory"):
        aggregator.column_matrix(["x", "y"], [UNIT, UNIT], [IMPUTE, IMPUTE])


def test_unsupported_and_empty_files_are_refused(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="out-of-core engine reads"):
        FileSource(tmp_path / "book.xlsx")
    empty = tmp_path / "empty.csv"
    empty.write_text("x,y\n")
    with pytest.raises(DataError, match="no data rows"):
        EmbeddedAggregator(FileSource(empty)).count()
    empty_parquet = tmp_path / "empty.parquet"
    pd.DataFrame({"x": pd.Series([], dtype=float)}).to_parquet(empty_parquet)
    with pytest.raises(DataError, match="no data rows"):
        EmbeddedAggregator(FileSource(empty_parquet)).count()


def test_open_aggregator_embedded_streams_without_pandas_loading(
    tricky: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def refuse(path: Path) -> pd.DataFrame:
        raise AssertionError("the embedded engine must not load the table")

    monkeypatch.setattr(dataset_module, "load_table", refuse)
    opened = open_aggregator(tricky, "embedded")
    assert isinstance(opened.dataset, DatasetHandle) and opened.aggregator.name == "embedded"
    assert opened.dataset.sha256 == hashlib.sha256(tricky.read_bytes()).hexdigest()
    assert opened.dataset.n_rows == 25 and "x" in opened.dataset.header.columns


def test_auto_picks_embedded_only_above_the_threshold(tricky: Path) -> None:
    assert choose_engine(tricky) is Engine.MEMORY
    assert choose_engine(tricky, threshold=0) is Engine.EMBEDDED
    assert choose_engine(tricky.with_suffix(".xlsx"), threshold=-1) is Engine.MEMORY
    assert open_aggregator(tricky, "auto").aggregator.name == "memory"
    with pytest.raises(DataError, match="Spark engine"):
        open_aggregator(tricky, "embedded", table="people")


def test_cli_release_with_the_embedded_engine_records_it(tmp_path: Path, wages_csv: Path) -> None:
    out = tmp_path / "out"
    argv = ["release", "median", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "5000"]
    argv += ["--epsilon", "1", "--out", str(out), "--engine", "embedded"]
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    assert main(argv) == 0
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["aggregation_backend"] == "embedded"
    assert manifest["dataset"]["fingerprint"] == keyed_fingerprint(
        hashlib.sha256(wages_csv.read_bytes()).hexdigest()
    )
    assert manifest["dataset"]["row_count"] == 2001


def test_auto_scans_columnar_files_above_16_mib_out_of_core(tmp_path: Path) -> None:
    small, large = tmp_path / "small.parquet", tmp_path / "large.parquet"
    small.write_bytes(b"x" * 1024)
    large.write_bytes(b"x" * (17 << 20))
    assert choose_engine(small) is Engine.MEMORY
    assert choose_engine(large) is Engine.EMBEDDED


def test_labelled_rows_are_identical_in_file_order(tricky: Path) -> None:
    memory = InMemoryAggregator(open_dataset(tricky))
    scanned = EmbeddedAggregator(FileSource(tricky, batch_rows=BATCH))
    for domain in (UNIT, HALF):
        expected = memory.labelled_rows("x", domain, IMPUTE, "flag", "7")
        got = scanned.labelled_rows("x", domain, IMPUTE, "flag", "7")
        assert np.array_equal(expected[0], got[0]) and np.array_equal(expected[1], got[1])


def test_the_manifest_records_auto_as_chosen_not_the_engine_the_files_size_picked(tmp_path, wages_csv):
    out = tmp_path / "out"
    argv = ["release", "median", "--data", str(wages_csv), "--column", "wage", "--bounds", "0", "5000"]
    assert main(["budget", "set", "--data", str(wages_csv), "--epsilon", "5"]) == 0
    assert main([*argv, "--epsilon", "1", "--out", str(out)]) == 0
    assert json.loads((out / "manifest.json").read_text())["aggregation_backend"] == "auto"
    assert open_aggregator(wages_csv, "auto").engine_choice == "auto"
    assert open_aggregator(wages_csv, "memory").engine_choice == "memory"


@pytest.mark.parametrize("suffix", [".parquet", ".feather"])
def test_typed_columns_with_missing_cells_count_as_categories_under_every_policy(
    tmp_path: Path, suffix: str
) -> None:
    """Parquet and Feather keep pandas' nullable and categorical dtypes; a declared category that is not of
    the column's dtype (text in a boolean column) must still count its missing cells, kept or as 'other'.
    A boolean column with missing values once failed a charged run here."""
    frame = pd.DataFrame(
        {
            "flag": pd.array([True, None, False, True, None, False], dtype="boolean"),
            "code": pd.array([1, 2, None, 2, 2, 7], dtype="Int64"),
            "kind": pd.Categorical(["a", "b", None, "a", "c", "b"]),
        }
    )
    columns = ["flag", "code", "kind"]
    domains = [
        CategoricalDomain(("True", "False"), other=True),
        CategoricalDomain(("1", "2"), other=True),
        CategoricalDomain(("a", "b"), other=True),
    ]
    memory, scanned = _pair(_write(frame, tmp_path, suffix))
    cliques = [(0,), (1,), (2,)]
    kept = memory.marginals(columns, domains, [KEEP] * 3, cliques)
    assert [m.tolist() for m in kept] == [[2, 2, 0, 2], [1, 3, 1, 1], [2, 2, 1, 1]]  # ..., other, missing
    imputed = memory.marginals(columns, domains, [IMPUTE] * 3, cliques)
    assert [m.tolist() for m in imputed] == [[2, 2, 2], [1, 3, 2], [2, 2, 2]]  # missing counted as other
    for missing in (KEEP, IMPUTE):
        _same(
            tuple(memory.marginals(columns, domains, [missing] * 3, cliques)),
            tuple(scanned.marginals(columns, domains, [missing] * 3, cliques)),
        )
