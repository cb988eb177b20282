"""Kept missing values in a synthetic table: one more cell per column, blanks in the synthetic rows, and no
blanks (nor "other" values) where the catch-all cell's count is within the noise (post-processing of the DP
rows)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dpgui.algorithms.marginal_table import Accounting, Measured, TableRelease
from dpgui.data.domain import CategoricalDomain, NumericDomain
from dpgui.data.missing import MissingKind, MissingPolicy
from dpgui.privacy.random import SeededRandom
from dpgui.tasks.spec import TaskKind, TaskSpec
from dpgui.tasks.table import (
    CATCH_ALL_NOISE_MULTIPLE,
    catch_all_cells,
    catch_all_note,
    cell_values,
    without_noise_catch_alls,
)
from dpgui.tasks.table_error import table_sizes

KEEP = MissingPolicy(MissingKind.KEEP)
YEARS = NumericDomain(0, 9, 1)
LETTERS = CategoricalDomain(("a", "b"), other=True)


def _spec(missing: MissingPolicy = KEEP) -> TaskSpec:
    return TaskSpec(TaskKind.TABLE, ("years", "letter"), (YEARS, LETTERS), 1.0, 1e-6, "aim", missing=missing)


def test_only_a_table_keeps_missing_values_and_each_column_gains_a_cell():
    assert table_sizes(_spec()) == [YEARS.size + 1, LETTERS.size + 1]
    assert table_sizes(_spec(MissingPolicy())) == [YEARS.size, LETTERS.size]
    with pytest.raises(ValueError, match="only in a synthetic table"):
        TaskSpec(TaskKind.CDF, ("years",), (YEARS,), 1.0, missing=KEEP)


def test_the_missing_cell_is_a_blank_and_whole_numbers_stay_whole():
    blanked = cell_values(YEARS, np.array([0, 3, YEARS.size]), KEEP)
    assert blanked.dtype == "Int64" and blanked.isna().tolist() == [False, False, True]
    assert blanked.iloc[1] == 3
    assert cell_values(YEARS, np.array([0, 3]), KEEP).dtype == np.int64  # no blank: plain integers
    letters = cell_values(LETTERS, np.array([0, 2, LETTERS.size]), KEEP)
    assert letters.iloc[:2].tolist() == ["a", "other"] and pd.isna(letters.iloc[2])


def test_blanks_within_the_noise_are_filled_and_the_others_kept():
    """sigma = 10 at n = rows = 1000: fewer than 3 sigma = 30 blanks are noise on an empty cell."""
    rows = np.zeros((1000, 2), dtype=np.int64)
    rows[:, 0] = np.arange(1000) % YEARS.size
    few = np.arange(0, 20)  # 20 < 30: noise
    many = np.arange(100, 200)  # 100 > 30: kept
    rows[few, 0] = YEARS.size
    rows[many, 1] = LETTERS.size
    measured = tuple(Measured((j,), "discrete Gaussian", 10.0, 0.01) for j in range(2))
    release = TableRelease(rows, measured, (), (0.0, 0.0), Accounting.ZCDP)
    assert CATCH_ALL_NOISE_MULTIPLE * 10.0 == 30
    out = without_noise_catch_alls(_spec(), release, 1000, SeededRandom(1))
    assert (out[:, 0] < YEARS.size).all()  # filled from the column's other synthetic values
    assert (out[many, 1] == LETTERS.size).all() and (out[:, 1] == LETTERS.size).sum() == 100
    assert (release.rows[few, 0] == YEARS.size).all()  # the release itself is not modified
    imputed = without_noise_catch_alls(_spec(MissingPolicy()), release, 1000, SeededRandom(1))
    assert (imputed == rows).all()  # the blank cells are not catch-alls when missing values are not kept


def test_the_catch_all_cells_are_other_and_the_kept_missing_cell():
    assert catch_all_cells(LETTERS, KEEP) == (2, 3)
    assert catch_all_cells(LETTERS, MissingPolicy()) == (2,)
    assert catch_all_cells(CategoricalDomain(("a", "b")), MissingPolicy()) == ()
    assert catch_all_cells(YEARS, KEEP) == (YEARS.size,)
    assert catch_all_cells(YEARS, MissingPolicy()) == ()


def test_other_values_within_the_noise_are_replaced_and_a_real_other_kept():
    """sigma = 10: 29 "other" rows (< 30) are noise on an empty cell; 31 are kept. Under KEEP 100 blanks,
    a real missing cell, stay."""
    for count, kept in ((29, False), (31, True)):
        for missing, blanks in ((KEEP, 100), (MissingPolicy(), 0)):
            rows = np.zeros((1000, 2), dtype=np.int64)
            rows[:, 1] = np.arange(1000) % 2
            rows[:count, 1] = 2  # "other"
            rows[500 : 500 + blanks, 1] = LETTERS.size
            measured = tuple(Measured((j,), "discrete Gaussian", 10.0, 0.01) for j in range(2))
            release = TableRelease(rows, measured, (), (0.0, 0.0), Accounting.ZCDP)
            out = without_noise_catch_alls(_spec(missing), release, 1000, SeededRandom(3))
            assert (out[:, 1] == 2).sum() == (count if kept else 0)
            untouched = rows[:, 1] != 2
            assert (out[untouched, 1] == rows[untouched, 1]).all()  # the blanks and letters stay


def test_a_laplace_measured_column_uses_its_standard_deviation_sqrt_two_b():
    """Independent marginals measure with discrete Laplace of scale b: the noise threshold is 3 sqrt(2) b."""
    rows = np.zeros((1000, 2), dtype=np.int64)
    rows[:40, 0] = YEARS.size  # 40 < 3 sqrt(2) 10 = 42.4: noise, filled
    rows[:45, 1] = LETTERS.size  # 45 > 42.4: kept
    measured = tuple(Measured((j,), "discrete Laplace", 10.0, 0.5) for j in range(2))
    release = TableRelease(rows, measured, (), (0.0, 0.0), Accounting.PURE)
    out = without_noise_catch_alls(_spec(), release, 1000, SeededRandom(2))
    assert (out[:, 0] < YEARS.size).all() and (out[:, 1] == LETTERS.size).sum() == 45


def test_the_manifest_names_only_the_catch_all_cells_the_table_has():
    closed = CategoricalDomain(("a", "b"))
    both = catch_all_note(TaskSpec(TaskKind.TABLE, ("y", "l"), (YEARS, LETTERS), 1.0, 1e-6, missing=KEEP))
    assert 'an "other" or a blank cell holding fewer rows than 3 standard deviations' in both
    blank = catch_all_note(TaskSpec(TaskKind.TABLE, ("y", "c"), (YEARS, closed), 1.0, 1e-6, missing=KEEP))
    assert blank.startswith("; a blank cell holding") and "other" not in blank.split("(")[0]
    assert catch_all_note(TaskSpec(TaskKind.TABLE, ("y", "c"), (YEARS, closed), 1.0, 1e-6)) == ""
